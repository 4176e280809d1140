/** The tenant's user-emails policy at the self-service email change (issue 12), on both dialects. */
import { SecurityErrorCodes, SecurityPaths, SelfServicePaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { activeMember, callAs, tenantWithAdmin } from '../../test/admin-helpers';
import { call, describeDialects, uniqueEmail } from '../../test/harness';

describeDialects('user-emails policy at email change', (h) => {
  it("refuses every member's email change (403 ER-02806) once the tenant turns allowEmailChange off, as its dry run counted; other tenants are untouched", async () => {
    const server = await h.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60' });
    const admin = await tenantWithAdmin(server);
    const member = await activeMember(server, admin);
    const outsider = await tenantWithAdmin(server, 'outsider');

    const dry = await callAs(server, admin, 'PATCH', `${SecurityPaths.userEmailsPolicy}?dryRun=true`, { body: { allowEmailChange: false } });
    const refusedCount = dry.body.effects.find((e: { code: string }) => e.code === 'EMAIL_CHANGE_REFUSED').affected;
    expect(refusedCount).toBe(2);
    expect((await callAs(server, admin, 'PATCH', SecurityPaths.userEmailsPolicy, { body: { allowEmailChange: false } })).status).toBe(200);

    let refused = 0;
    for (const who of [admin, member]) {
      const res = await call(server, 'POST', SelfServicePaths.changeEmail, { token: who.accessToken, body: { email: uniqueEmail('new') } });
      if (res.status === 403 && res.body.errorCode === SecurityErrorCodes.emailChangeNotAllowed) refused += 1;
      expect(res.body.errors).toEqual(['Your account administrator does not allow changing your email address']);
    }
    expect(refused).toBe(refusedCount);
    expect((await call(server, 'POST', SelfServicePaths.changeEmail, { token: outsider.accessToken, body: { email: uniqueEmail('new') } })).status).toBe(200);

    // Turned back on, the change is asked again.
    expect((await callAs(server, admin, 'PATCH', SecurityPaths.userEmailsPolicy, { body: { allowEmailChange: true } })).status).toBe(200);
    expect((await call(server, 'POST', SelfServicePaths.changeEmail, { token: member.accessToken, body: { email: uniqueEmail('new') } })).status).toBe(200);
  });
});
