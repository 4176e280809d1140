import { AdminPaths, ApiPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { auditsOf, callAs, listUsers, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { claimsOf } from '../../test/invitation-helpers';
import { activationLinkFor, call, describeDialects, movableClock, PASSWORD, uniqueEmail } from '../../test/harness';

/** Signs up (through a link when a token is given) and keeps the browser-binding cookie, as the browser would. */
async function signUp(server: GatehouseServer, email: string, extra: Record<string, unknown>) {
  const res = await call(server, 'POST', ApiPaths.signUp, { body: { email, password: PASSWORD, ...extra } });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('gatehouse-signup='))?.split(';')[0];
  return { res, cookie };
}

async function activate(server: GatehouseServer, email: string, cookie: string | undefined, password?: string) {
  const { userId, token } = await activationLinkFor(server, email);
  return call(server, 'POST', ApiPaths.activate, { body: { userId, token, ...(password ? { password } : {}) }, headers: cookie ? { cookie } : {} });
}

async function linkOf(server: GatehouseServer, admin: TenantAdmin, expiresInMinutes = 60): Promise<string> {
  return (await callAs(server, admin, 'POST', AdminPaths.inviteLink, { body: { expiresInMinutes } })).body.token;
}

const tenantsOf = async (server: GatehouseServer, userId: string) =>
  (await server.db.selectFrom('user_tenants').select('tenant_id').where('user_id', '=', userId).execute()).map((r) => r.tenant_id);

describeDialects('joining by invite link from the login box', (harness) => {
  const start = (clock = movableClock(), env: Record<string, string> = {}) =>
    harness.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60', RATE_LIMIT_INVITATION_ACCEPT_PER_IP: '1000/60', ACCESS_TOKEN_TTL: '3600', ...env }, { clock });

  it("verifies a live token with the tenant's name, and answers one 404 for unknown, expired and deleted links", async () => {
    const clock = movableClock();
    const server = await start(clock);
    const admin = await tenantWithAdmin(server);
    await server.db.updateTable('tenants').set({ name: 'Acme Corp' }).where('id', '=', admin.tenantId).execute();
    const token = await linkOf(server, admin, 10);
    const ok = await call(server, 'POST', AdminPaths.inviteLinkVerify, { body: { token } });
    expect([ok.status, ok.body]).toEqual([200, { name: 'Acme Corp' }]);

    const unknown = await call(server, 'POST', AdminPaths.inviteLinkVerify, { body: { token: 'x'.repeat(43) } });
    expect([unknown.status, unknown.body]).toEqual([404, { errors: ["We couldn't verify your invitation"], errorCode: 'ER-02407' }]);
    clock.advance(11 * 60_000);
    const expired = await call(server, 'POST', AdminPaths.inviteLinkVerify, { body: { token } });
    expect([expired.status, expired.body]).toEqual([unknown.status, unknown.body]);
    const renewed = await linkOf(server, admin);
    await callAs(server, admin, 'DELETE', AdminPaths.inviteLink);
    const deleted = await call(server, 'POST', AdminPaths.inviteLinkVerify, { body: { token: renewed } });
    expect([deleted.status, deleted.body]).toEqual([unknown.status, unknown.body]);
    expect((await call(server, 'POST', AdminPaths.inviteLinkVerify, { body: {} })).status).toBe(400);
  });

  it('rate-limits verification per IP like the join', async () => {
    // Counters live in the database this file's tests share, so the limit is set well above what the others spend.
    const server = await start(movableClock(), { RATE_LIMIT_INVITATION_ACCEPT_PER_IP: '12/60' });
    const admin = await tenantWithAdmin(server);
    const token = await linkOf(server, admin);
    const statuses: number[] = [];
    for (const t of [token, 'nope', ...Array<string>(12).fill(token)]) statuses.push((await call(server, 'POST', AdminPaths.inviteLinkVerify, { body: { token: t } })).status);
    expect(statuses[0]).toBe(200);
    expect(statuses.slice(-2)).toEqual([429, 429]);
  });

  it("signs up into the link's tenant with its default role (no tenant of its own), joined only at activation in the signing-up browser", async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const token = await linkOf(server, admin);
    const email = uniqueEmail('joiner');
    const { res, cookie } = await signUp(server, email, { name: 'Joiner', invitationToken: token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ shouldActivate: true });
    expect(res.body.tenantId).not.toBe(admin.tenantId);
    // Nothing joined before the address is proven.
    expect(await tenantsOf(server, res.body.userId)).toEqual([]);
    expect((await listUsers(server, admin)).items.map((u) => u.id)).not.toContain(res.body.userId);

    const activated = await activate(server, email, cookie);
    expect(activated.status).toBe(200);
    const claims = claimsOf(activated.body.accessToken);
    expect([claims.tenantId, claims.tenantIds, claims.roles]).toEqual([admin.tenantId, [admin.tenantId], ['ReadOnly']]);
    expect(activated.body.invitationFailed).toBeUndefined();
    expect((await auditsOf(server, admin.tenantId)).find((a) => a.action === 'User joined by invite link')).toMatchObject({ user_id: res.body.userId });
    // Signing in later lands in that tenant.
    const login = await call(server, 'POST', ApiPaths.login, { body: { email, password: PASSWORD } });
    expect(claimsOf(login.body.accessToken).tenantId).toBe(admin.tenantId);
  });

  it("L10: the sign-up response never reveals the invite link's tenant id before activation (an opaque id, a new one each time)", async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const token = await linkOf(server, admin);
    const first = await signUp(server, uniqueEmail('l10'), { invitationToken: token });
    const second = await signUp(server, uniqueEmail('l10'), { invitationToken: token });
    for (const { res } of [first, second]) {
      expect(res.status).toBe(200);
      expect(res.body.tenantId).toMatch(/^[0-9a-f]{32}$/);
      expect(JSON.stringify(res.body)).not.toContain(admin.tenantId);
    }
    expect(first.res.body.tenantId).not.toBe(second.res.body.tenantId);
    expect(await server.db.selectFrom('tenants').select('id').where('id', 'in', [first.res.body.tenantId, second.res.body.tenantId]).execute()).toEqual([]);
  });

  it('refuses a sign-up with a dead token before creating anything, and ignores companyName with a live one', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const email = uniqueEmail('nobody');
    const refused = await call(server, 'POST', ApiPaths.signUp, { body: { email, password: PASSWORD, invitationToken: 'x'.repeat(43) } });
    expect([refused.status, refused.body.errors]).toEqual([404, ["We couldn't verify your invitation"]]);
    expect(await server.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();

    const token = await linkOf(server, admin);
    const other = uniqueEmail('company');
    const { cookie } = await signUp(server, other, { companyName: 'Not Used Inc', invitationToken: token });
    const activated = await activate(server, other, cookie);
    expect(claimsOf(activated.body.accessToken).tenantIds).toEqual([admin.tenantId]);
    expect(await server.db.selectFrom('tenants').select('id').where('name', '=', 'Not Used Inc').executeTakeFirst()).toBeUndefined();
  });

  it('does not join when the link is deleted before activation: the account still activates, in a tenant of its own, and says so', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const token = await linkOf(server, admin);
    const email = uniqueEmail('toolate');
    const { res, cookie } = await signUp(server, email, { name: 'Too Late', companyName: 'Late Ltd', invitationToken: token });
    await callAs(server, admin, 'DELETE', AdminPaths.inviteLink);
    const activated = await activate(server, email, cookie);
    expect([activated.status, activated.body.invitationFailed]).toEqual([200, true]);
    const claims = claimsOf(activated.body.accessToken);
    expect(claims.tenantIds).not.toContain(admin.tenantId);
    expect(claims.roles).toContain('Admin');
    expect((await server.db.selectFrom('tenants').select('name').where('id', '=', claims.tenantId).executeTakeFirstOrThrow()).name).toBe('Late Ltd');
    // Nothing typed at sign-up is lost.
    expect(claims.name).toBe('Too Late');
    expect((await listUsers(server, admin)).items.map((u) => u.id)).not.toContain(res.body.userId);
  });

  it("does not join when the activation link is opened in another browser (the sign-up's profile, the link included, is not applied)", async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const token = await linkOf(server, admin);
    const email = uniqueEmail('elsewhere');
    await signUp(server, email, { invitationToken: token });
    const activated = await activate(server, email, undefined, 'another strong passphrase');
    expect(activated.status).toBe(200);
    expect(activated.body.invitationFailed).toBeUndefined();
    const claims = claimsOf(activated.body.accessToken);
    expect(claims.tenantIds).not.toContain(admin.tenantId);
    expect(claims.tenantIds).toHaveLength(1);
  });
});
