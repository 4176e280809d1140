/**
 * The sessions policy at every entry point that creates or refreshes a session, over HTTP on both
 * dialects: the refresh cookie, `/oauth/token`, and hosted login's browser sessions (idle timeout,
 * forced re-login), and sign-ins by
 * password and by magic link beyond the concurrent-session limit; two servers over one database
 * agree on the limit.
 */
import { ApiPaths, ErrorCodes, OAuthPaths, SecurityErrorCodes, SecurityPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { activeMember, auditsOf, callAs, signIn, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { addUserToTenant } from '../../db/queries/tenants';
import { call, describeDialects, mailbox, movableClock } from '../../test/harness';
import { authorizeParams, clientsFile, codeFor, exchange, getAuthorize, pkce, PUBLIC_CLIENT, redirectQuery, tokenCall } from '../../test/oauth-helpers';
import { liveSessionIds, RATE_LIMITS, sessionsPolicy } from '../../test/sessions-policy-helpers';

const refresh = (server: GatehouseServer, cookie: string) => call(server, 'POST', ApiPaths.refresh, { cookie, body: {} });

async function setPolicy(server: GatehouseServer, admin: TenantAdmin, p: Parameters<typeof sessionsPolicy>[0]): Promise<void> {
  const res = await callAs(server, admin, 'POST', SecurityPaths.sessionsPolicy, { body: sessionsPolicy(p) });
  if (res.status !== 200) throw new Error(`saving the sessions policy failed: ${res.status} ${JSON.stringify(res.body)}`);
}

/** The user's live sessions in the tenant that count against the limit (not OAuth grants, not impersonations). */
async function liveSignIns(server: GatehouseServer, userId: string, tenantId: string, now: number): Promise<number> {
  const rows = await server.db
    .selectFrom('sessions')
    .leftJoin('oauth_grants', 'oauth_grants.session_id', 'sessions.id')
    .select('sessions.id')
    .where('sessions.user_id', '=', userId)
    .where('sessions.tenant_id', '=', tenantId)
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', now)
    .where('oauth_grants.session_id', 'is', null)
    .execute();
  return rows.length;
}

describeDialects('sessions policy enforcement', (h) => {
  const start: typeof h.start = (env = {}, overrides) => h.start({ ...RATE_LIMITS, OAUTH_CLIENTS_FILE: clientsFile(), ...env }, overrides);

  it('refresh by cookie: a session not refreshed for the idle timeout ends with 401 ER-02805, is revoked and audited; refreshing in time keeps it', async () => {
    const clock = movableClock();
    const server = await start({}, { clock });
    const admin = await tenantWithAdmin(server);
    await setPolicy(server, admin, { idle: 600 });
    const member = await activeMember(server, admin);
    const login = await signIn(server, member.email);
    expect(login.status).toBe(200);

    // Refreshed every 500 s: never idle for 600 s, so it lives well past 600 s.
    let cookie = login.refreshCookie!;
    for (let i = 0; i < 3; i++) {
      clock.advance(500_000);
      const kept = await refresh(server, cookie);
      expect(kept.status, `refresh ${i}`).toBe(200);
      cookie = kept.refreshCookie!;
    }
    clock.advance(600_000);
    const ended = await refresh(server, cookie);
    expect(ended.status).toBe(401);
    expect(ended.body.errorCode).toBe(SecurityErrorCodes.sessionExpiredByPolicy);
    expect(ended.body.errors[0]).toMatch(/inactivity/);
    expect(ended.refreshCookie).toBe('');
    const sid = JSON.parse(Buffer.from((login.body.accessToken as string).split('.')[1]!, 'base64url').toString()).sid as string;
    expect((await server.db.selectFrom('sessions').select('revoked_at').where('id', '=', sid).executeTakeFirstOrThrow()).revoked_at).toBe(clock.now());
    const audit = (await auditsOf(server, admin.tenantId)).find((a) => a.action === 'Session signed out' && a.user_id === member.userId)!;
    expect(JSON.parse(audit.json!)).toEqual({ reason: 'idle', sessionIds: [sid] });
  });

  it('refresh by cookie: forced re-login ends a session older than its timeout however often it refreshes', async () => {
    const clock = movableClock();
    const server = await start({}, { clock });
    const admin = await tenantWithAdmin(server);
    await setPolicy(server, admin, { relogin: 3600, idle: 1800 });
    const member = await activeMember(server, admin);
    let cookie = (await signIn(server, member.email)).refreshCookie!;
    for (let i = 0; i < 3; i++) {
      clock.advance(1000_000);
      const kept = await refresh(server, cookie);
      expect(kept.status, `refresh ${i}`).toBe(200);
      cookie = kept.refreshCookie!;
    }
    clock.advance(600_000);
    const ended = await refresh(server, cookie);
    expect(ended.status).toBe(401);
    expect(ended.body.errorCode).toBe(SecurityErrorCodes.sessionExpiredByPolicy);
    // A new sign-in starts a new session, which refreshes again.
    const again = await signIn(server, member.email);
    expect((await refresh(server, again.refreshCookie!)).status).toBe(200);
  });

  it("switching tenant (PUT /identity/resources/users/v1/tenant, or a refresh naming tenantId) into a tenant whose forced re-login the session exceeds ends it with 401 ER-02805", async () => {
    const clock = movableClock();
    const server = await start({}, { clock });
    const strict = await tenantWithAdmin(server);
    await setPolicy(server, strict, { relogin: 3600 });
    const user = await tenantWithAdmin(server);
    await addUserToTenant(server.db, user.userId, strict.tenantId, clock.now());
    const switchTo = (accessToken: string) => call(server, 'PUT', ApiPaths.switchTenant, { token: accessToken, body: { tenantId: strict.tenantId } });

    const login = await signIn(server, user.email);
    const other = await signIn(server, user.email);
    clock.advance(4000_000);
    // A refresh naming that tenant is refused the same way.
    const intoStrict = await call(server, 'POST', ApiPaths.refresh, { cookie: other.refreshCookie!, body: { tenantId: strict.tenantId } });
    expect(intoStrict.status).toBe(401);
    expect(intoStrict.body.errorCode).toBe(SecurityErrorCodes.sessionExpiredByPolicy);
    // Its own tenant has no policy: the refresh there goes through.
    const refreshed = await refresh(server, login.refreshCookie!);
    expect(refreshed.status).toBe(200);
    const refused = await switchTo(refreshed.body.accessToken);
    expect(refused.status).toBe(401);
    expect(refused.body.errorCode).toBe(SecurityErrorCodes.sessionExpiredByPolicy);
    expect((await refresh(server, refreshed.refreshCookie!)).status).toBe(401);
    // A fresh sign-in switches in.
    expect((await switchTo((await signIn(server, user.email)).body.accessToken)).status).toBe(200);
  });

  it('refresh at /oauth/token (grant_type=refresh_token): an idle grant ends with invalid_grant naming ER-02805; forced re-login counts from the sign-in', async () => {
    const clock = movableClock();
    const server = await start({}, { clock });
    const admin = await tenantWithAdmin(server);
    await setPolicy(server, admin, { idle: 600, relogin: 2000 });
    const member = await activeMember(server, admin);
    const login = await signIn(server, member.email);
    const refreshGrant = (token: string) => tokenCall(server, { grant_type: 'refresh_token', refresh_token: token, client_id: PUBLIC_CLIENT.clientId });

    const { code, verifier } = await codeFor(server, login.body.accessToken);
    const tokens = await exchange(server, code, verifier);
    expect(tokens.status).toBe(200);
    clock.advance(500_000);
    const kept = await refreshGrant(tokens.body.refresh_token);
    expect(kept.status).toBe(200);
    clock.advance(601_000);
    const idle = await refreshGrant(kept.body.refresh_token);
    expect(idle.status).toBe(400);
    expect(idle.body.error).toBe('invalid_grant');
    expect(idle.body.error_description).toContain(SecurityErrorCodes.sessionExpiredByPolicy);
    expect(idle.body.error_description).toMatch(/idle/);

    // Another grant, refreshed in time, still ends 2000 s after the sign-in it came from.
    const login2 = await signIn(server, member.email);
    const second = await codeFor(server, login2.body.accessToken);
    let token = (await exchange(server, second.code, second.verifier)).body.refresh_token as string;
    for (let i = 0; i < 3; i++) {
      clock.advance(500_000);
      const res = await refreshGrant(token);
      expect(res.status, `grant refresh ${i}`).toBe(200);
      token = res.body.refresh_token;
    }
    clock.advance(500_000);
    const old = await refreshGrant(token);
    expect(old.status).toBe(400);
    expect(old.body.error_description).toMatch(/forced re-login/);
  });

  it('hosted login (/oauth/authorize with the browser cookie, silent authorization with the refresh cookie): a browser session the policy ends must sign in again', async () => {
    const clock = movableClock();
    const server = await start({ GATEHOUSE_ALLOWED_ORIGINS: 'http://localhost:8787,https://notes.example.com' }, { clock });
    const admin = await tenantWithAdmin(server);
    await setPolicy(server, admin, { idle: 600 });
    const member = await activeMember(server, admin);
    const login = await signIn(server, member.email);
    const { browserCookie } = await codeFor(server, login.body.accessToken);
    const silent = () => call(server, 'POST', OAuthPaths.authorizeSilent, { body: { clientId: PUBLIC_CLIENT.clientId }, cookie: login.refreshCookie!, headers: { origin: 'https://notes.example.com' } });

    clock.advance(300_000);
    expect((await silent()).status).toBe(200);
    const within = await getAuthorize(server, authorizeParams(pkce().challenge, { prompt: 'none' }), browserCookie);
    expect(redirectQuery(within.headers.get('location')).code).toBeTruthy();

    // Neither call refreshes the browser session: 601 s after its sign-in it is idle too long.
    clock.advance(301_000);
    const ended = await getAuthorize(server, authorizeParams(pkce().challenge, { prompt: 'none' }), browserCookie);
    expect(redirectQuery(ended.headers.get('location'))).toMatchObject({ error: 'login_required' });
    const refused = await silent();
    expect(refused.status).toBe(401);
    expect(refused.body.errorCode).toBe(ErrorCodes.oauthLoginRequired);
    // It was revoked, not only refused: the refresh cookie is dead too.
    expect((await refresh(server, login.refreshCookie!)).status).toBe(401);
  });

  it('sign-in by password beyond the maximum signs out the oldest sessions of that user in that tenant, and no one else', async () => {
    const clock = movableClock();
    const server = await start({}, { clock });
    const admin = await tenantWithAdmin(server);
    await setPolicy(server, admin, { max: 2 });
    const member = await activeMember(server, admin);
    const other = await activeMember(server, admin);
    const cookies: string[] = [];
    for (let i = 0; i < 3; i++) {
      clock.advance(1000);
      const res = await signIn(server, member.email);
      expect(res.status).toBe(200);
      cookies.push(res.refreshCookie!);
    }
    expect(await liveSignIns(server, member.userId, admin.tenantId, clock.now())).toBe(2);
    // The invitation's session and the first sign-in went; the two newest stay.
    expect((await refresh(server, cookies[0]!)).status).toBe(401);
    expect((await refresh(server, cookies[1]!)).status).toBe(200);
    expect((await refresh(server, cookies[2]!)).status).toBe(200);
    // Another user's and the admin's sessions are untouched.
    expect(await liveSignIns(server, other.userId, admin.tenantId, clock.now())).toBe(1);
    expect((await callAs(server, admin, 'GET', SecurityPaths.sessionsPolicy)).status).toBe(200);
    const audit = (await auditsOf(server, admin.tenantId)).find((a) => a.action === 'Session signed out' && a.user_id === member.userId)!;
    expect(JSON.parse(audit.json!).reason).toBe('concurrent');
  });

  it('sign-in by magic link beyond the maximum signs out the oldest session too (every sign-in method ends in the same session start)', async () => {
    const clock = movableClock();
    const server = await start({ LOGIN_STRATEGY: 'MagicLink' }, { clock });
    const admin = await tenantWithAdmin(server);
    await setPolicy(server, admin, { max: 2 });
    const cookies: string[] = [];
    for (let i = 0; i < 2; i++) {
      clock.advance(1000);
      expect((await call(server, 'POST', ApiPaths.passwordlessPreLogin.replace('{type}', 'magiclink'), { body: { email: admin.email } })).status).toBe(200);
      await server.passwordless.idle();
      const mail = (await mailbox(server)).find((m) => m.to === admin.email && /sign-in link/i.test(m.subject));
      const token = new URL(/https?:\/\/\S+\/account\/login\/magic-link\?\S+/.exec(mail!.text)![0]).searchParams.get('token')!;
      const signedIn = await call(server, 'POST', ApiPaths.passwordlessPostLogin.replace('{type}', 'magiclink'), { body: { token } });
      expect(signedIn.status).toBe(200);
      cookies.push(signedIn.refreshCookie!);
    }
    expect(await liveSignIns(server, admin.userId, admin.tenantId, clock.now())).toBe(2);
    // The activation's session (the oldest) ended: its access token no longer works.
    expect((await callAs(server, admin, 'GET', SecurityPaths.sessionsPolicy)).status).toBe(401);
    for (const cookie of cookies) expect((await refresh(server, cookie)).status).toBe(200);
  });

  it('two servers over one database count sessions together: the limit holds across both, also for sign-ins at the same moment', async () => {
    const clock = movableClock();
    const one = await start({}, { clock });
    const two = await start({}, { clock });
    const admin = await tenantWithAdmin(one);
    await setPolicy(two, admin, { max: 2 });
    const member = await activeMember(one, admin);

    // One after the other, alternating servers: each sees the other's sessions.
    const cookies: string[] = [];
    for (const server of [one, two, one]) {
      clock.advance(1000);
      cookies.push((await signIn(server, member.email)).refreshCookie!);
    }
    expect(await liveSignIns(one, member.userId, admin.tenantId, clock.now())).toBe(2);
    expect((await refresh(two, cookies[0]!)).status).toBe(401);

    // Six sign-ins at once, three per server: at most two sessions are left.
    clock.advance(1000);
    const results = await Promise.all([one, two, one, two, one, two].map((server) => signIn(server, member.email)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await liveSignIns(two, member.userId, admin.tenantId, clock.now())).toBeLessThanOrEqual(2);
    expect((await liveSessionIds(one, admin.tenantId, clock.now())).length).toBeGreaterThan(0);
  });
});
