/**
 * POST /identity/resources/users/v3/me/token (seed 000 section 7.1): a fresh access token of the
 * caller's own session, over HTTP on both dialects, and what a hostile caller gets instead.
 */
import { ApiPaths, ErrorCodes, ME_TOKEN_PATH, SecurityPaths } from '@gatehouse/shared/wire';
import { decodeJwt } from 'jose';
import { expect, it } from 'vitest';
import { updateUser } from '../../db/queries/users';
import { callAs, memberWithoutPermissions, signIn, tenantWithAdmin } from '../../test/admin-helpers';
import { call, describeDialects, movableClock } from '../../test/harness';

const ROOMY = { RATE_LIMIT_LOGIN_PER_IP: '1000/600', RATE_LIMIT_SIGNUP_PER_IP: '1000/60' };

describeDialects('POST users/v3/me/token', (h) => {
  it("mints a token of the same session for another of the user's tenants, without switching the session or spending its refresh cookie", async () => {
    const server = await h.start(ROOMY);
    const other = await tenantWithAdmin(server, 'other');
    const member = await memberWithoutPermissions(server, other.tenantId);
    const login = await signIn(server, member.email);
    expect(login.status).toBe(200);
    const ownTenant = login.body.tenantId as string;
    expect(ownTenant).not.toBe(other.tenantId);
    const before = decodeJwt(login.body.accessToken);

    const minted = await call(server, 'POST', ME_TOKEN_PATH, { token: login.body.accessToken, body: { tenantId: other.tenantId } });
    expect(minted.status, JSON.stringify(minted.body)).toBe(200);
    expect(minted.headers.get('cache-control')).toBe('no-store');
    expect(minted.body).toMatchObject({ tenantId: other.tenantId, userId: member.userId });
    expect(minted.refreshCookie).toBeUndefined();
    const claims = decodeJwt(minted.body.accessToken);
    expect(claims).toMatchObject({ sub: member.userId, sid: before.sid, tenantId: other.tenantId, roles: [], amr: before.amr, acr: before.acr, auth_time: before.auth_time });
    // The token acts in the other tenant...
    const authz = await call(server, 'GET', ApiPaths.meAuthorization, { token: minted.body.accessToken });
    expect(authz.status).toBe(200);
    expect(authz.body.roles).toEqual([]);
    // ...while the session stays in its tenant: the untouched refresh cookie still refreshes there.
    const refreshed = await call(server, 'POST', ApiPaths.refresh, { cookie: login.refreshCookie!, body: {} });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.tenantId).toBe(ownTenant);
  });

  it('reads the claims now, and never outlives the token presented', async () => {
    const clock = movableClock();
    const server = await h.start(ROOMY, { clock });
    const admin = await tenantWithAdmin(server);
    const login = await signIn(server, admin.email);
    const presented = decodeJwt(login.body.accessToken);
    expect(presented.superUser).toBe(false);

    await updateUser(server.db, admin.userId, { super_user: 1 });
    clock.advance(200_000);
    const minted = await call(server, 'POST', ME_TOKEN_PATH, { token: login.body.accessToken, body: {} });
    expect(minted.status, JSON.stringify(minted.body)).toBe(200);
    expect(minted.body.tenantId).toBe(admin.tenantId);
    const claims = decodeJwt(minted.body.accessToken);
    expect(claims.superUser).toBe(true);
    // 200 s into a 300 s token: the new one ends when the presented one does, not 300 s from now.
    expect(claims.exp).toBe(presented.exp);
    expect(minted.body.expiresIn).toBeLessThanOrEqual(100);
    expect(minted.body.expiresIn).toBeGreaterThanOrEqual(99);
    expect(Date.parse(minted.body.expires)).toBe(presented.exp! * 1000);
  });

  it('refuses a missing, malformed or revoked token, a bad body naming the field, and a tenant the user is not in', async () => {
    const server = await h.start(ROOMY);
    const admin = await tenantWithAdmin(server);
    const stranger = await tenantWithAdmin(server, 'stranger');
    const login = await signIn(server, admin.email);
    const token = login.body.accessToken as string;

    expect((await call(server, 'POST', ME_TOKEN_PATH, { body: {} })).status).toBe(401);
    expect((await call(server, 'POST', ME_TOKEN_PATH, { token: 'not.a.token', body: {} })).status).toBe(401);
    // A bad body from someone without a token learns nothing about the body.
    expect((await call(server, 'POST', ME_TOKEN_PATH, { body: { tenantId: 42 } })).status).toBe(401);

    const wrongType = await call(server, 'POST', ME_TOKEN_PATH, { token, body: { tenantId: 42 } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.errors.join(' ')).toContain('tenantId');
    const extra = await call(server, 'POST', ME_TOKEN_PATH, { token, body: { tenantId: admin.tenantId, userId: stranger.userId } });
    expect(extra.status).toBe(400);
    expect(extra.body.errors.join(' ')).toContain('userId');
    expect((await call(server, 'POST', ME_TOKEN_PATH, { token, rawBody: '[' })).status).toBe(400);

    // Another tenant's id: 404, no token, whether the tenant exists or not.
    const foreign = await call(server, 'POST', ME_TOKEN_PATH, { token, body: { tenantId: stranger.tenantId } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.errorCode).toBe(ErrorCodes.tenantNotFound);
    expect(foreign.body.accessToken).toBeUndefined();
    expect((await call(server, 'POST', ME_TOKEN_PATH, { token, body: { tenantId: 'no-such-tenant' } })).status).toBe(404);

    // Signed out: the session is gone, and so is any way to mint from its access token.
    expect((await call(server, 'POST', ApiPaths.logout, { token, cookie: login.refreshCookie!, body: {} })).status).toBeLessThan(300);
    expect((await call(server, 'POST', ME_TOKEN_PATH, { token, body: {} })).status).toBe(401);
  });

  it("refuses a tenant whose MFA policy the session's sign-in does not meet", async () => {
    const server = await h.start(ROOMY);
    const strict = await tenantWithAdmin(server, 'strict');
    const member = await memberWithoutPermissions(server, strict.tenantId);
    expect((await callAs(server, strict, 'PATCH', SecurityPaths.mfaPolicy, { body: { enforceMFAType: 'Force' } })).status).toBe(200);
    const login = await signIn(server, member.email);
    expect(login.body.mfaRequired).toBe(false);

    const refused = await call(server, 'POST', ME_TOKEN_PATH, { token: login.body.accessToken, body: { tenantId: strict.tenantId } });
    expect(refused.status, JSON.stringify(refused.body)).toBe(403);
    expect(refused.body.errorCode).toBe(ErrorCodes.stepUpRequired);
    // The tenant the sign-in met still mints.
    expect((await call(server, 'POST', ME_TOKEN_PATH, { token: login.body.accessToken, body: {} })).status).toBe(200);
  });
});

// A database of its own: the limiter's counters live in the database, shared by a block's tests.
describeDialects('POST users/v3/me/token rate limit', (h) => {
  it("shares the refresh calls' limit per client IP: 429 with Retry-After", async () => {
    const server = await h.start({ ...ROOMY, RATE_LIMIT_REFRESH_PER_IP: '2/60' });
    const admin = await tenantWithAdmin(server);
    const login = await signIn(server, admin.email);
    for (let i = 0; i < 2; i++) expect((await call(server, 'POST', ME_TOKEN_PATH, { token: login.body.accessToken, body: {} })).status).toBe(200);
    const limited = await call(server, 'POST', ME_TOKEN_PATH, { token: login.body.accessToken, body: {} });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.body.accessToken).toBeUndefined();
  });
});
