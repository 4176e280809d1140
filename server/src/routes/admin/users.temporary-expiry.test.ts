/**
 * Regression: once a temporary user's membership expired, their access token still answered 200 on
 * `GET /users/v2/me` until the token's own exp, and the refresh cookie went on refreshing. Disable,
 * lock and remove end the tenant's sessions at once; an expiry now does too, at its first use.
 */
import { AdminPaths, ApiPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { activeMember, callAs, pathOf, signIn, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { call, describeDialects, movableClock } from '../../test/harness';

/** A member of the admin's tenant only, signed in: their access token and refresh cookie. */
async function signedInMember(server: GatehouseServer, admin: TenantAdmin) {
  const member = await activeMember(server, admin);
  const login = await signIn(server, member.email);
  expect(login.status).toBe(200);
  return { userId: member.userId, accessToken: login.body.accessToken as string, cookie: login.refreshCookie! };
}

const makeTemporary = (server: GatehouseServer, admin: TenantAdmin, userId: string) =>
  callAs(server, admin, 'PUT', pathOf(AdminPaths.temporaryUser, { userId }), { body: { expirationInSeconds: 60 } });
const me = (server: GatehouseServer, accessToken: string) => call(server, 'GET', ApiPaths.me, { token: accessToken });
const refresh = (server: GatehouseServer, cookie: string) => call(server, 'POST', ApiPaths.refresh, { cookie, body: {} });

describeDialects('admin users: an expired temporary membership', (harness) => {
  it('ends the session at once: the same access token gets 401 on /users/v2/me and the refresh cookie stops refreshing (temporary user expiry bug)', async () => {
    const clock = movableClock();
    const server = await harness.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60', ACCESS_TOKEN_TTL: '3600' }, { clock });
    const admin = await tenantWithAdmin(server);
    const first = await signedInMember(server, admin);
    const second = await signedInMember(server, admin);
    const kept = await signedInMember(server, admin);
    for (const member of [first, second, kept]) expect((await makeTemporary(server, admin, member.userId)).status).toBe(200);
    expect((await callAs(server, admin, 'DELETE', pathOf(AdminPaths.temporaryUser, { userId: kept.userId }))).status).toBe(200);

    // Before the end: both work (the refresh rotates the cookie).
    expect((await me(server, first.accessToken)).status).toBe(200);
    const rotated = await refresh(server, first.cookie);
    expect(rotated.status).toBe(200);
    first.cookie = rotated.refreshCookie!;

    clock.advance(61_000);
    // The access token first, then the refresh cookie...
    expect((await me(server, first.accessToken)).status).toBe(401);
    expect((await refresh(server, first.cookie)).status).toBe(401);
    // ...or the refresh cookie first: it ends the session too.
    expect((await refresh(server, second.cookie)).status).toBe(401);
    expect((await me(server, second.accessToken)).status).toBe(401);
    // Every session of theirs in the tenant ends, as on a disable (the invitation's too).
    const sessions = await server.db.selectFrom('sessions').select('revoked_at').where('user_id', 'in', [first.userId, second.userId]).execute();
    expect(sessions.length).toBeGreaterThanOrEqual(2);
    for (const session of sessions) expect(session.revoked_at).toEqual(expect.any(Number));

    // A membership made permanent again, and the admin's own session, live on.
    expect((await me(server, kept.accessToken)).status).toBe(200);
    expect((await refresh(server, kept.cookie)).status).toBe(200);
    expect((await me(server, admin.accessToken)).status).toBe(200);
  });
});
