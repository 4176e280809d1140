import { ApiPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { callAs, tenantWithAdmin } from '../../test/admin-helpers';
import { endsWithRule, insertFlag } from '../../test/entitlement-helpers';
import { call, describeDialects, signUpAndActivate } from '../../test/harness';

describeDialects('GET /flags per caller', (harness) => {
  it("answers the environment's flags and the operator's flags evaluated for the signed-in user and tenant; anonymous and invalid tokens get the off/default treatments", async () => {
    const server = await harness.start({ GATEHOUSE_FLAGS: '{"passkeys":"on"}' });
    const matching = await tenantWithAdmin(server);
    const other = await signUpAndActivate(server, `someone-${Date.now()}@elsewhere.test`);
    const byEmail = `by-email-${Date.now()}`;
    const byTenant = `by-tenant-${Date.now()}`;
    const defaultOn = `default-on-${Date.now()}`;
    const switchedOff = `switched-off-${Date.now()}`;
    await insertFlag(server, byEmail, { rules: [endsWithRule('frontegg.email', '@example.com')] });
    await insertFlag(server, byTenant, { rules: [{ conditionLogic: 'and', treatment: 'true', conditions: [{ attribute: 'frontegg.tenantId', op: 'in_list', value: { list: [other.tenantId] }, negate: false }] }] });
    await insertFlag(server, defaultOn, { defaultTreatment: 'true', rules: [endsWithRule('frontegg.email', '@elsewhere.test', 'false')] });
    await insertFlag(server, switchedOff, { on: false, offTreatment: 'false', defaultTreatment: 'true', rules: [endsWithRule('frontegg.email', '@example.com')] });

    const anonymous = await call(server, 'GET', ApiPaths.flags);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toEqual({ passkeys: 'on', [byEmail]: 'off', [byTenant]: 'off', [defaultOn]: 'on', [switchedOff]: 'off' });
    expect(anonymous.headers.get('vary')).toContain('Authorization');

    const mine = await callAs(server, matching, 'GET', ApiPaths.flags);
    expect(mine.body).toEqual({ passkeys: 'on', [byEmail]: 'on', [byTenant]: 'off', [defaultOn]: 'on', [switchedOff]: 'off' });
    const theirs = await callAs(server, other, 'GET', ApiPaths.flags);
    expect(theirs.body).toEqual({ passkeys: 'on', [byEmail]: 'off', [byTenant]: 'on', [defaultOn]: 'off', [switchedOff]: 'off' });

    // A forged or garbled token is anonymous: the same answer, no error, nothing told.
    const [header, , signature] = matching.accessToken.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ sub: other.userId, tenantId: other.tenantId, email: 'x@example.com' })).toString('base64url');
    for (const token of ['garbage', `${header}.${forgedPayload}.${signature}`]) {
      const res = await call(server, 'GET', ApiPaths.flags, { token });
      expect([res.status, res.body]).toEqual([200, anonymous.body]);
    }
  });
});
