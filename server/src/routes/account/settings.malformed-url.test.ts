/**
 * Regression: `PUT /tenants/resources/account-settings/v1` stored malformed addresses such as
 * `https:evil.com` and `http:\\evil.com` in `website` and `applicationUrl`: `new URL` accepts them,
 * but as another string than the one stored and shown. Only absolute http(s) addresses written the
 * way they parse are taken now; a refused one is a 400 naming the field, and nothing of that
 * request is saved.
 */
import { AccountPaths, AccountSettings } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { callAs, tenantWithAdmin } from '../../test/admin-helpers';
import { describeDialects } from '../../test/harness';

const MALFORMED = ['https:evil.com', 'http:\\\\evil.com', 'javascript:alert(1)', '//evil.com', ' https://x.com'];

describeDialects('account settings: malformed web addresses', (harness) => {
  it('refuses website and applicationUrl values that do not parse to themselves, with a 400 naming the field and nothing saved (malformed URL bug)', async () => {
    const server = await harness.start();
    const admin = await tenantWithAdmin(server);
    const settings = () => callAs(server, admin, 'GET', AccountPaths.accountSettings).then((r) => r.body as AccountSettings);
    const before = await settings();

    for (const field of ['website', 'applicationUrl'] as const) {
      for (const bad of MALFORMED) {
        // Sent with a valid change of another field: that one is not applied either.
        const res = await callAs(server, admin, 'PUT', AccountPaths.accountSettings, { body: { companyName: 'Half applied', address: '1 Main St', [field]: bad } });
        expect(res.status, `${field}=${JSON.stringify(bad)}`).toBe(400);
        expect(res.body.errors, `${field}=${JSON.stringify(bad)}`).toEqual([expect.stringMatching(new RegExp(`^${field}: `))]);
      }
    }
    expect(await settings()).toEqual(before);

    // A good address is stored as written (a bare origin with or without the parser's "/").
    const good = await callAs(server, admin, 'PUT', AccountPaths.accountSettings, { body: { website: 'https://example.com', applicationUrl: 'https://app.example.com/login?from=mail' } });
    expect(good.status, JSON.stringify(good.body)).toBe(200);
    expect(good.body).toMatchObject({ website: 'https://example.com', applicationUrl: 'https://app.example.com/login?from=mail' });
    expect((await callAs(server, admin, 'PUT', AccountPaths.accountSettings, { body: { website: 'https://example.com/' } })).body.website).toBe('https://example.com/');
  });
});
