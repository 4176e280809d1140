/**
 * IP restrictions enforced at every entry point (issue 12): password and passwordless sign-in, the
 * cookie refresh, every signed-in call (users and admin routes), API tokens (their use and the
 * client_credentials exchange), hosted login (/oauth/authorize, /oauth/token code and refresh
 * grants, userinfo). The server trusts X-Forwarded-For, so each call plays a client address; a
 * last test shows the header is ignored without TRUST_PROXY, and another that two servers over one
 * database agree within 1 s (each process keeps a tenant's restrictions at most that long).
 */
import { AdminPaths, ApiPaths, ApiTokenPaths, ME_TOKEN_PATH, OAuthPaths, SecurityErrorCodes, SecurityPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { oauthBrowserCookieName } from '../oauth/provider';
import { addUserToTenant } from '../../db/queries/tenants';
import { roleIdByKey, type TenantAdmin } from '../../test/admin-helpers';
import { call, describeDialects, mailbox, movableClock, PASSWORD, signUpAndActivate, type CallOptions } from '../../test/harness';
import { authorizeParams, clientsFile, pkce, PUBLIC_CLIENT, redirectQuery } from '../../test/oauth-helpers';

const GOOD = '203.0.113.10';
const ALSO_GOOD = '203.0.113.200';
const BAD = '198.51.100.66';
const from = (ip: string) => ({ 'x-forwarded-for': ip });
const limits = { RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_LOGIN_PER_IP: '1000/600', RATE_LIMIT_PASSWORDLESS_PER_IP: '1000/600', RATE_LIMIT_REFRESH_PER_IP: '1000/600' };

/** A 403 ER-IP-RESTRICTED with the sentence about the administrator. */
function expectRestricted(res: { status: number; body: any }, what: string): void {
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(403);
  expect(res.body.errorCode, what).toBe(SecurityErrorCodes.ipRestricted);
  expect(res.body.errors[0], what).toMatch(/network is not allowed by your account's administrator/);
}

/** Calls as `token` from `ip`. */
const as = (server: GatehouseServer, token: string, ip: string, method: string, path: string, opts: Omit<CallOptions, 'token' | 'headers'> & { headers?: Record<string, string> } = {}) =>
  call(server, method, path, { ...opts, token, headers: { ...from(ip), ...opts.headers } });

/** The admin's tenant lets only 203.0.113.0/24 in (saved from inside it, so no confirmation is needed). */
async function allowOnly(server: GatehouseServer, admin: { accessToken: string }, range = '203.0.113.0/24'): Promise<void> {
  expect((await as(server, admin.accessToken, GOOD, 'POST', SecurityPaths.ipRestrictions, { body: { ip: range, strategy: 'ALLOW' } })).status).toBe(201);
  expect((await as(server, admin.accessToken, GOOD, 'POST', SecurityPaths.ipRestrictionsConfig, { body: { isActive: true, strategy: 'ALLOW' } })).status).toBe(200);
}

const signIn = (server: GatehouseServer, email: string, ip: string) => call(server, 'POST', ApiPaths.login, { body: { email, password: PASSWORD }, headers: from(ip) });

describeDialects('IP restrictions at every entry point', (h) => {
  const start = (env: Record<string, string> = {}) => h.start({ TRUST_PROXY: 'true', OAUTH_CLIENTS_FILE: clientsFile(), ...limits, ...env });

  it('password sign-in: refused from a network outside the allow list, let in from inside it', async () => {
    const server = await start();
    const admin = await signUpAndActivate(server);
    await allowOnly(server, admin);
    expectRestricted(await signIn(server, admin.email, BAD), 'sign-in from outside');
    // The tenant's admins see the refused attempt, with the network.
    const audits = await server.db.selectFrom('audits').selectAll().where('tenant_id', '=', admin.tenantId).where('action', '=', 'Sign-in failed').execute();
    expect(audits.map((r) => [r.severity, r.ip, r.description])).toEqual([['High', BAD, `Sign-in with password refused: the network ${BAD} is not allowed by the IP restrictions`]]);
    const ok = await signIn(server, admin.email, ALSO_GOOD);
    expect(ok.status).toBe(200);
    expect(ok.body.accessToken).toBeTruthy();
  });

  it('a wrong password from a refused network is still just a wrong password (no hint about the restriction)', async () => {
    const server = await start();
    const admin = await signUpAndActivate(server);
    await allowOnly(server, admin);
    const wrong = await call(server, 'POST', ApiPaths.login, { body: { email: admin.email, password: 'not the password at all' }, headers: from(BAD) });
    expect(wrong.status).toBe(401);
  });

  it('every signed-in call: a valid access token used from a refused network gets 403, on user and admin routes alike', async () => {
    const server = await start();
    const admin = await signUpAndActivate(server);
    await allowOnly(server, admin);
    for (const path of [ApiPaths.me, AdminPaths.usersV3, SecurityPaths.ipRestrictions, ApiPaths.meTenantsV1]) {
      expectRestricted(await as(server, admin.accessToken, BAD, 'GET', path), path);
      expect((await as(server, admin.accessToken, GOOD, 'GET', path)).status, path).toBe(200);
    }
  });

  it('a BLOCK list keeps its ranges out and lets everyone else in; an inactive entry blocks nothing', async () => {
    const server = await start();
    const admin = await signUpAndActivate(server);
    const entry = await as(server, admin.accessToken, GOOD, 'POST', SecurityPaths.ipRestrictions, { body: { ip: '198.51.100.0/24', strategy: 'BLOCK' } });
    expect((await as(server, admin.accessToken, GOOD, 'POST', SecurityPaths.ipRestrictionsConfig, { body: { isActive: true, strategy: 'BLOCK' } })).status).toBe(200);
    expectRestricted(await as(server, admin.accessToken, BAD, 'GET', ApiPaths.me), 'blocked range');
    expectRestricted(await as(server, admin.accessToken, '::ffff:198.51.100.1', 'GET', ApiPaths.me), 'blocked range, IPv4-mapped');
    expect((await as(server, admin.accessToken, '2001:db8::1', 'GET', ApiPaths.me)).status).toBe(200);
    expect((await as(server, admin.accessToken, GOOD, 'PATCH', SecurityPaths.ipRestriction.replace('{id}', entry.body.id), { body: { isActive: false } })).status).toBe(200);
    expect((await as(server, admin.accessToken, BAD, 'GET', ApiPaths.me)).status).toBe(200);
  });

  it('cookie refresh: refused from a refused network without spending the token, which still works from an allowed one', async () => {
    const server = await start();
    const admin = await signUpAndActivate(server);
    await allowOnly(server, admin);
    const signedIn = await signIn(server, admin.email, GOOD);
    expectRestricted(await call(server, 'POST', ApiPaths.refresh, { cookie: signedIn.refreshCookie!, body: {}, headers: from(BAD) }), 'refresh');
    const refreshed = await call(server, 'POST', ApiPaths.refresh, { cookie: signedIn.refreshCookie!, body: {}, headers: from(GOOD) });
    expect(refreshed.status).toBe(200);
  });

  it('passwordless sign-in (emailed code): no session from a refused network', async () => {
    const server = await start({ LOGIN_STRATEGY: 'Code' });
    const admin = await signUpAndActivate(server);
    await allowOnly(server, admin);
    const codeOf = async () => {
      expect((await call(server, 'POST', ApiPaths.passwordlessPreLogin.replace('{type}', 'code'), { body: { email: admin.email }, headers: from(GOOD) })).status).toBe(200);
      await server.passwordless.idle();
      const mail = (await mailbox(server)).find((m) => m.to === admin.email && /sign-in code/i.test(m.subject));
      return /\b(\d{6})\b/.exec(mail?.text ?? '')![1]!;
    };
    const post = ApiPaths.passwordlessPostLogin.replace('{type}', 'code');
    expectRestricted(await call(server, 'POST', post, { body: { email: admin.email, code: await codeOf() }, headers: from(BAD) }), 'passwordless code');
    const ok = await call(server, 'POST', post, { body: { email: admin.email, code: await codeOf() }, headers: from(GOOD) });
    expect(ok.status).toBe(200);
    expect(ok.body.accessToken).toBeTruthy();
  });

  it('API tokens: the client_credentials exchange and every use of a tenant token, and a personal access token, from a refused network get 403', async () => {
    const server = await start();
    const admin = await signUpAndActivate(server);
    const adminRole = await roleIdByKey(server, admin as TenantAdmin, 'Admin');
    const clientToken = (await as(server, admin.accessToken, GOOD, 'POST', ApiTokenPaths.tenantApiTokens, { body: { description: 'backend', roleIds: [adminRole] } })).body;
    const personal = (await as(server, admin.accessToken, GOOD, 'POST', ApiTokenPaths.userAccessTokens, { body: { description: 'script' } })).body;
    const exchangeFrom = (ip: string) =>
      call(server, 'POST', OAuthPaths.token, {
        rawBody: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientToken.clientId, client_secret: clientToken.secret }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...from(ip) },
      });
    const early = await exchangeFrom(GOOD);
    expect(early.status).toBe(200);
    await allowOnly(server, admin);

    expectRestricted(await exchangeFrom(BAD), 'client_credentials exchange');
    const exchanged = await exchangeFrom(GOOD);
    expect(exchanged.status).toBe(200);
    // An access token exchanged earlier, and a fresh one, are refused from outside.
    expectRestricted(await as(server, early.body.access_token, BAD, 'GET', AdminPaths.usersV3), 'exchanged token use');
    expect((await as(server, exchanged.body.access_token, GOOD, 'GET', AdminPaths.usersV3)).status).toBe(200);
    expectRestricted(await as(server, personal.secret, BAD, 'GET', AdminPaths.usersV3), 'personal access token use');
    expect((await as(server, personal.secret, GOOD, 'GET', AdminPaths.usersV3)).status).toBe(200);
  });

  it('hosted login: /oauth/authorize, silent authorization, the code and refresh grants of /oauth/token, and userinfo refuse a refused network', async () => {
    const server = await start();
    const admin = await signUpAndActivate(server);
    await allowOnly(server, admin);
    const browser = oauthBrowserCookieName(server.config.clientId);
    const { verifier, challenge } = pkce();
    const params = authorizeParams(challenge);

    // The hosted page's completion is a signed-in call: refused from outside, a code from inside.
    expectRestricted(await as(server, admin.accessToken, BAD, 'POST', OAuthPaths.authorizeComplete, { body: params }), 'authorize completion');
    const completed = await as(server, admin.accessToken, GOOD, 'POST', OAuthPaths.authorizeComplete, { body: params });
    expect(completed.status).toBe(200);
    const cookie = completed.headers.getSetCookie().map((c) => new RegExp(`^${browser}=([^;]*)`).exec(c)?.[1]).find(Boolean)!;
    const code = redirectQuery(completed.body.redirectUrl).code!;

    // A browser already signed in to hosted login gets no code from outside: the refusal's page.
    const again = authorizeParams(pkce().challenge);
    const get = (ip: string) => call(server, 'GET', `${OAuthPaths.authorize}?${new URLSearchParams(again)}`, { headers: { cookie: `${browser}=${cookie}`, ...from(ip) } });
    const refusedPage = await get(BAD);
    expect(refusedPage.status).toBe(403);
    expect(String(refusedPage.body)).toContain('network is not allowed by your account');
    expect((await get(GOOD)).status).toBe(302);

    const token = (ip: string, form: Record<string, string>) =>
      call(server, 'POST', OAuthPaths.token, { rawBody: new URLSearchParams(form).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', ...from(ip) } });
    const codeForm = { grant_type: 'authorization_code', code, redirect_uri: PUBLIC_CLIENT.redirectUri, client_id: PUBLIC_CLIENT.clientId, code_verifier: verifier };
    expectRestricted(await token(BAD, codeForm), 'code grant');

    // A fresh code (the refused exchange spent the first), exchanged from inside.
    const second = await as(server, admin.accessToken, GOOD, 'POST', OAuthPaths.authorizeComplete, { body: authorizeParams(challenge) });
    const tokens = await token(GOOD, { ...codeForm, code: redirectQuery(second.body.redirectUrl).code! });
    expect(tokens.status).toBe(200);
    expectRestricted(await as(server, tokens.body.access_token, BAD, 'GET', OAuthPaths.userinfo), 'userinfo');
    expect((await as(server, tokens.body.access_token, GOOD, 'GET', OAuthPaths.userinfo)).status).toBe(200);

    const refreshForm = { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token, client_id: PUBLIC_CLIENT.clientId };
    expectRestricted(await token(BAD, refreshForm), 'refresh grant');
    expect((await token(GOOD, refreshForm)).status).toBe(200);

    // Silent authorization: tokens for the public client from the browser's refresh cookie.
    const signedIn = await signIn(server, admin.email, GOOD);
    const silent = (ip: string) =>
      call(server, 'POST', OAuthPaths.authorizeSilent, { body: { clientId: PUBLIC_CLIENT.clientId }, cookie: signedIn.refreshCookie!, headers: { origin: server.config.publicOrigin, ...from(ip) } });
    expectRestricted(await silent(BAD), 'silent authorization');
    expect((await silent(GOOD)).status).toBe(200);
  });

  it("a cookie refresh that falls back to the user's other tenant (removed from the session's) meets that tenant's restrictions", async () => {
    const server = await start();
    const user = await signUpAndActivate(server);
    const restricted = await signUpAndActivate(server);
    await addUserToTenant(server.db, user.userId, restricted.tenantId, Date.now());
    await allowOnly(server, restricted);
    const signedIn = await signIn(server, user.email, BAD);
    expect(signedIn.status).toBe(200);
    await server.db.deleteFrom('user_tenants').where('user_id', '=', user.userId).where('tenant_id', '=', user.tenantId).execute();
    expectRestricted(await call(server, 'POST', ApiPaths.refresh, { cookie: signedIn.refreshCookie!, body: {}, headers: from(BAD) }), 'refresh into the restricted tenant');
  });

  it("an OAuth grant moved into the user's other tenant (removed from its own) meets that tenant's restrictions at refresh", async () => {
    const server = await start();
    const user = await signUpAndActivate(server);
    const restricted = await signUpAndActivate(server);
    await addUserToTenant(server.db, user.userId, restricted.tenantId, Date.now());
    await allowOnly(server, restricted);
    const { verifier, challenge } = pkce();
    const completed = await as(server, user.accessToken, BAD, 'POST', OAuthPaths.authorizeComplete, { body: authorizeParams(challenge) });
    expect(completed.status).toBe(200);
    const form = (ip: string, body: Record<string, string>) =>
      call(server, 'POST', OAuthPaths.token, { rawBody: new URLSearchParams(body).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', ...from(ip) } });
    const tokens = await form(BAD, { grant_type: 'authorization_code', code: redirectQuery(completed.body.redirectUrl).code!, redirect_uri: PUBLIC_CLIENT.redirectUri, client_id: PUBLIC_CLIENT.clientId, code_verifier: verifier });
    expect(tokens.status).toBe(200);
    await server.db.deleteFrom('user_tenants').where('user_id', '=', user.userId).where('tenant_id', '=', user.tenantId).execute();
    const refresh = { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token, client_id: PUBLIC_CLIENT.clientId };
    expectRestricted(await form(BAD, refresh), 'refresh into the restricted tenant');
  });

  it('applies per tenant: a member of two tenants is refused in the restricted one only, and cannot switch into it, nor mint a token for it, from outside', async () => {
    const server = await start();
    const restricted = await signUpAndActivate(server);
    const free = await signUpAndActivate(server);
    await addUserToTenant(server.db, free.userId, restricted.tenantId, Date.now());
    await allowOnly(server, restricted);
    expect((await as(server, free.accessToken, BAD, 'GET', ApiPaths.me)).status).toBe(200);
    expectRestricted(await as(server, free.accessToken, BAD, 'GET', `${ApiPaths.me}?tenantId=${restricted.tenantId}`), 'scoped call');
    expectRestricted(await as(server, free.accessToken, BAD, 'PUT', ApiPaths.switchTenant, { body: { tenantId: restricted.tenantId } }), 'switch tenant');
    expectRestricted(await as(server, free.accessToken, BAD, 'POST', ME_TOKEN_PATH, { body: { tenantId: restricted.tenantId } }), 'token for the tenant');
    expect((await as(server, free.accessToken, BAD, 'POST', ME_TOKEN_PATH, { body: {} })).status).toBe(200);
    expect((await as(server, free.accessToken, GOOD, 'PUT', ApiPaths.switchTenant, { body: { tenantId: restricted.tenantId } })).status).toBe(200);
  });

  it('without TRUST_PROXY, X-Forwarded-For is ignored: an allow list cannot be walked around with the header, nor a block list hit', async () => {
    const server = await h.start({ ...limits });
    const admin = await signUpAndActivate(server);
    // Under app.fetch there is no socket: the address is unknown, so an ALLOW list keeps the call out whatever the header says.
    expect((await as(server, admin.accessToken, GOOD, 'POST', SecurityPaths.ipRestrictions, { body: { ip: GOOD, strategy: 'ALLOW' } })).status).toBe(201);
    const locked = await as(server, admin.accessToken, GOOD, 'POST', SecurityPaths.ipRestrictionsConfig, { body: { isActive: true, strategy: 'ALLOW' } });
    expect(locked.status).toBe(409);
    expect((await as(server, admin.accessToken, GOOD, 'POST', SecurityPaths.ipRestrictionsVerify)).body).toEqual({ allowed: true, ip: '' });
    expect((await as(server, admin.accessToken, GOOD, 'POST', SecurityPaths.ipRestrictionsConfig, { body: { isActive: true, strategy: 'ALLOW', confirmSelfLockout: true } })).status).toBe(200);
    expectRestricted(await as(server, admin.accessToken, GOOD, 'GET', ApiPaths.me), 'allowed address in an untrusted header');

    const other = await signUpAndActivate(server);
    expect((await as(server, other.accessToken, BAD, 'POST', SecurityPaths.ipRestrictions, { body: { ip: BAD, strategy: 'BLOCK' } })).status).toBe(201);
    expect((await as(server, other.accessToken, BAD, 'POST', SecurityPaths.ipRestrictionsConfig, { body: { isActive: true, strategy: 'BLOCK' } })).status).toBe(200);
    expect((await as(server, other.accessToken, BAD, 'GET', ApiPaths.me)).status).toBe(200);
  });

  it('two servers over one database agree within 1 s: a restriction saved through one refuses on the other, and turned off lets in again', async () => {
    const clockOne = movableClock();
    const clockTwo = movableClock();
    const one = await h.start({ TRUST_PROXY: 'true', OAUTH_CLIENTS_FILE: clientsFile(), ...limits }, { clock: clockOne });
    const two = await h.start({ TRUST_PROXY: 'true', OAUTH_CLIENTS_FILE: clientsFile(), ...limits }, { clock: clockTwo });
    const admin = await signUpAndActivate(one);
    // The second server reads the tenant's restrictions (none) at a sign-in, and may keep them 1 s.
    expect((await signIn(two, admin.email, BAD)).status).toBe(200);
    expect((await as(two, admin.accessToken, BAD, 'GET', ApiPaths.me)).status).toBe(200);
    await allowOnly(one, admin);
    clockTwo.advance(1_000);
    expectRestricted(await as(two, admin.accessToken, BAD, 'GET', ApiPaths.me), 'the other server');
    expectRestricted(await signIn(two, admin.email, BAD), 'sign-in on the other server');
    // Turned off through the second, the first lets the network in again once its clock moved 1 s.
    expect((await as(two, admin.accessToken, GOOD, 'POST', SecurityPaths.ipRestrictionsConfig, { body: { isActive: false, strategy: 'ALLOW' } })).status).toBe(200);
    expect((await signIn(two, admin.email, BAD)).status).toBe(200); // at once in the process that saved it
    clockOne.advance(1_000);
    expect((await as(one, admin.accessToken, BAD, 'GET', ApiPaths.me)).status).toBe(200);
    expect((await signIn(one, admin.email, BAD)).status).toBe(200);
  });
});
