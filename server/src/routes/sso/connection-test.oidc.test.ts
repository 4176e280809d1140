/**
 * "Test connection" of an OIDC configuration (issue 15): POST .../configurations/{configId}/test
 * answers the IdP's authorization URL (PKCE, state, nonce; the login box's callback route as the
 * redirect URI), the login box's callback posts code and state to oidc/postlogin as for a sign-in,
 * the server runs the code exchange and every ID token check, signs nobody in and reports the claims.
 * Over HTTP against the real database, with the oidc-provider peer IdP.
 */
import { expect, it } from 'vitest';
import { SsoPaths, type LoginResponse, type SsoTestReport, type SsoTestStartResponse } from '@gatehouse/shared/wire';
import type { GatehouseServer } from '../../app';
import { auditsOf } from '../../test/admin-helpers';
import { call, describeDialects, movableClock } from '../../test/harness';
import { signInAt, SSO_IDP_CLIENT_ID, SSO_IDP_CLIENT_SECRET } from '../../test/oidc-idp';
import { OIDC_CALLBACK, oidcPeers, passwordSession, path, postOidcCallback, ssoCounts, ssoEnv, startSso, tenantWithSso, type SsoTenant } from '../../test/sso-helpers';

const peers = oidcPeers();
const env = () => ssoEnv(peers.dns, { GATEHOUSE_KEY_ENCRYPTION_KEY: 'ab'.repeat(32) });

/** What oidc/postlogin answers when the callback was a test's: no session, the test's state. */
type TestPostLogin = LoginResponse & { connectionTest?: string };

/** A tenant with the peer IdP as its OIDC client, a validated domain, Support mapped from `support`; turned off unless `enabled`. */
async function oidcTenant(server: GatehouseServer, enabled = false): Promise<SsoTenant> {
  return tenantWithSso(server, peers.dns, { type: 'oidc', enabled, oidc: { issuer: peers.idp.issuer, clientId: SSO_IDP_CLIENT_ID, clientSecret: SSO_IDP_CLIENT_SECRET, scopes: 'openid email profile groups' } });
}

const startTest = (server: GatehouseServer, tenant: Pick<SsoTenant, 'token' | 'configId'>, body: Record<string, unknown> | null = { redirectUri: OIDC_CALLBACK }, token = tenant.token) =>
  call<SsoTestStartResponse & { errors?: string[] }>(server, 'POST', path(SsoPaths.test, { configId: tenant.configId }), { token, ...(body ? { body } : {}) });
const readReport = (server: GatehouseServer, configId: string, testId: string, token: string) =>
  call<SsoTestReport>(server, 'GET', path(SsoPaths.testReport, { configId, testId }), { token });

describeDialects('SSO Test connection (OIDC)', (h) => {
  it('answers the report only to the session that started it: another session of the same admin, another tenant or an unknown test get 404', async () => {
    const server = await h.start(env());
    const tenant = await oidcTenant(server);
    const other = await oidcTenant(server);
    const started = await startTest(server, tenant);
    expect(started.status).toBe(201);
    expect((await postOidcCallback<TestPostLogin>(server, await signInAt(started.body.address, `olga@${tenant.domain}`))).status).toBe(202);
    const secondSession = await passwordSession(server, tenant.adminEmail);
    expect((await readReport(server, tenant.configId, started.body.testId, secondSession)).status).toBe(404);
    expect((await readReport(server, tenant.configId, started.body.testId, other.token)).status).toBe(404);
    expect((await readReport(server, other.configId, started.body.testId, other.token)).status).toBe(404);
    expect((await readReport(server, tenant.configId, '_unknown', tenant.token)).status).toBe(404);
    // The refusals spent nothing: the session that started it still reads it, once.
    const report = await readReport(server, tenant.configId, started.body.testId, tenant.token);
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({ testId: started.body.testId, status: 'passed', email: `olga@${tenant.domain}` });
    expect((await readReport(server, tenant.configId, started.body.testId, tenant.token)).status).toBe(404);
  });

  it("reports the claims of a real sign-in at the IdP while the configuration is off: the login box's callback, PKCE, state and nonce; nobody signed in; read once", async () => {
    const server = await h.start(env());
    const tenant = await oidcTenant(server);
    const before = await ssoCounts(server, tenant.domain);
    const email = `olga@${tenant.domain}`;
    peers.idp.groups.set(email, ['support', 'unmapped']);

    const started = await startTest(server, tenant);
    expect(started.status).toBe(201);
    const authorize = new URL(started.body.address);
    expect(authorize.origin).toBe(peers.idp.issuer);
    // The redirect URI of real sign-ins: the login box's callback route, the one registered at the IdP.
    expect(authorize.searchParams.get('redirect_uri')).toBe(OIDC_CALLBACK);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    expect(authorize.searchParams.get('login_hint')).toBeNull();
    // The state, nonce and verifier stay on the server, the state only as its hash.
    const row = await server.db.selectFrom('sso_requests').selectAll().where('id', '=', started.body.testId).executeTakeFirstOrThrow();
    expect(row.kind).toBe('oidc-test');
    expect(row.state_hash).not.toBe(authorize.searchParams.get('state'));
    expect(row.code_verifier).toBeTruthy();

    expect((await readReport(server, tenant.configId, started.body.testId, tenant.token)).body.status).toBe('pending');
    const back = await signInAt(started.body.address, email);
    const done = await postOidcCallback<TestPostLogin>(server, back);
    expect(done.status).toBe(202);
    expect(done.body).toEqual({ connectionTest: 'complete' });
    expect(done.refreshCookie).toBeFalsy();
    expect(done.setCookie).toBeNull();
    expect(await ssoCounts(server, tenant.domain)).toEqual(before);

    const report = await readReport(server, tenant.configId, started.body.testId, tenant.token);
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({
      status: 'passed',
      error: null,
      subject: email,
      email,
      name: 'Idp olga',
      groups: ['support', 'unmapped'],
      roleMappings: [{ group: 'support', roleIds: [tenant.roles.Support] }],
      defaultRoleIds: [tenant.roles.ReadOnly],
      problems: [{ code: 'unknownGroups', severity: 'warning', values: ['unmapped'] }],
    });
    const claims = Object.fromEntries(report.body.attributes.map((a) => [a.name, a.values]));
    expect(claims).toMatchObject({ sub: [email], email: [email], email_verified: ['true'], groups: ['support', 'unmapped'], iss: [peers.idp.issuer], aud: [SSO_IDP_CLIENT_ID] });
    // Claims of the protocol, not of the person, are left out.
    expect(claims.nonce).toBeUndefined();
    // Read once.
    expect((await readReport(server, tenant.configId, started.body.testId, tenant.token)).status).toBe(404);
    const audit = (await auditsOf(server, tenant.tenantId)).find((a) => a.action === 'SSO connection test started');
    expect(JSON.parse(String(audit!.json))).toMatchObject({ configId: tenant.configId, testId: started.body.testId, enabled: false });
  });

  it("reports the ID token's refusal as failed with the reason (nonce not the test's), and an email outside the validated domains as an error", async () => {
    const server = await h.start(env());
    const tenant = await oidcTenant(server);
    const first = await startTest(server, tenant);
    const back = await signInAt(first.body.address, `olga@${tenant.domain}`);
    // The stored expectation changes after the IdP answered: the nonce in its ID token no longer matches.
    await server.db.updateTable('sso_requests').set({ nonce: 'a-different-nonce' }).where('id', '=', first.body.testId).execute();
    expect((await postOidcCallback<TestPostLogin>(server, back)).status).toBe(202);
    const failed = await readReport(server, tenant.configId, first.body.testId, tenant.token);
    expect(failed.body).toMatchObject({ status: 'failed', email: null, attributes: [] });
    expect(failed.body.error).toMatch(/nonce/);

    const second = await startTest(server, tenant);
    expect((await postOidcCallback<TestPostLogin>(server, await signInAt(second.body.address, 'boss@other-company.test'))).status).toBe(202);
    const outside = await readReport(server, tenant.configId, second.body.testId, tenant.token);
    expect(outside.body).toMatchObject({ status: 'passed', email: 'boss@other-company.test' });
    expect(outside.body.problems).toContainEqual({ code: 'emailDomainNotValidated', severity: 'error', values: ['other-company.test'] });
    expect(await server.db.selectFrom('users').select('id').where('email', '=', 'boss@other-company.test').executeTakeFirst()).toBeUndefined();
  });

  it("a test's state never signs in and a sign-in's state is never a test: crossed codes and states are refused, with SSO turned on", async () => {
    const server = await h.start(env());
    const tenant = await oidcTenant(server, true);
    const email = `olga@${tenant.domain}`;
    const test = await startTest(server, tenant);
    const real = await startSso(server, 'oidc', email);
    const testBack = await signInAt(test.body.address, email);
    const realBack = await signInAt(real.address, email);

    // The test's code with the sign-in's state (and its browser cookie): a sign-in, refused by PKCE; no test spent.
    expect((await postOidcCallback<TestPostLogin>(server, testBack, real.binding, { RelayState: realBack.searchParams.get('state')! })).status).toBe(401);
    expect((await readReport(server, tenant.configId, test.body.testId, tenant.token)).body.status).toBe('pending');
    expect(await ssoCounts(server, tenant.domain)).toMatchObject({ users: 0 });

    // The sign-in's code with the test's state, from the sign-in's browser: the test, refused (the code was issued to another PKCE challenge), no session.
    const crossed = await postOidcCallback<TestPostLogin>(server, realBack, real.binding, { RelayState: testBack.searchParams.get('state')! });
    expect(crossed.status).toBe(202);
    expect(crossed.setCookie).toBeNull();
    const report = await readReport(server, tenant.configId, test.body.testId, tenant.token);
    expect(report.body.status).toBe('failed');
    expect(report.body.error).toMatch(/invalid_grant/);
    expect(await ssoCounts(server, tenant.domain)).toMatchObject({ users: 0 });

    // The test is spent: its own callback now is neither a test nor a sign-in.
    const spent = await postOidcCallback<TestPostLogin>(server, testBack, real.binding);
    expect(spent.status).toBe(401);
    expect(spent.body).toMatchObject({ errors: ['Failed to authenticate'] });
    expect(await ssoCounts(server, tenant.domain)).toMatchObject({ users: 0 });
  });

  it('refuses a callback to another redirect URI than the test started with (reported failed), and expires after 10 minutes', async () => {
    const clock = movableClock();
    const server = await h.start({ ...env(), ACCESS_TOKEN_TTL: '3600' }, { clock });
    const tenant = await oidcTenant(server);
    const first = await startTest(server, tenant);
    const back = await signInAt(first.body.address, `olga@${tenant.domain}`);
    expect((await postOidcCallback<TestPostLogin>(server, back, undefined, { redirectUri: 'http://localhost:8787/elsewhere' })).status).toBe(202);
    const report = await readReport(server, tenant.configId, first.body.testId, tenant.token);
    expect(report.body).toMatchObject({ status: 'failed', email: null });
    expect(report.body.error).toMatch(/redirect URI/);

    const second = await startTest(server, tenant);
    // The server's clock, not the test machine's: exactly 10 minutes from the start.
    expect(second.body.expiresAt).toBe(new Date(clock.now() + 10 * 60_000).toISOString());
    // And the same 10 minutes from the answer, for a browser whose clock is not the server's.
    expect(second.body.expiresInMs).toBe(10 * 60_000);
    const late = await signInAt(second.body.address, `olga@${tenant.domain}`);
    clock.advance(10 * 60_000 + 1);
    expect((await postOidcCallback<TestPostLogin>(server, late)).status).toBe(401);
    expect((await readReport(server, tenant.configId, second.body.testId, tenant.token)).status).toBe(404);
  });

  it("is refused without the login box's redirect URI (naming it), and with one of another origin (nothing stored); another tenant's admin gets 404", async () => {
    const server = await h.start(env());
    const tenant = await oidcTenant(server);
    const missing = await startTest(server, tenant, null);
    expect(missing.status).toBe(400);
    expect(missing.body.errors?.[0]).toMatch(/^redirectUri/);
    const foreign = await startTest(server, tenant, { redirectUri: 'https://evil.example/account/oidc/callback' });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors?.[0]).toMatch(/redirectUri/);
    const other = await oidcTenant(server);
    expect((await startTest(server, tenant, { redirectUri: OIDC_CALLBACK }, other.token)).status).toBe(404);
    expect(await server.db.selectFrom('sso_requests').select('id').where('config_id', '=', tenant.configId).execute()).toEqual([]);
  });
});
