import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { SsoPaths } from '@gatehouse/shared/wire';
import type { GatehouseServer } from '../../app';
import { call, describeDialects } from '../../test/harness';
import { signInAt, SSO_IDP_CLIENT_ID, SSO_IDP_CLIENT_SECRET } from '../../test/oidc-idp';
import { claimsOf, OIDC_CALLBACK, oidcPeers, postOidcCallback, ssoEnv, startSso, tenantWithSso, type SsoTenant } from '../../test/sso-helpers';

const peers = oidcPeers();

// With a key encryption key: the OIDC client secret is stored sealed (and still works).
const env = () => ssoEnv(peers.dns, { GATEHOUSE_KEY_ENCRYPTION_KEY: 'ab'.repeat(32) });

function oidcTenant(server: GatehouseServer, scopes = 'openid email profile groups'): Promise<SsoTenant> {
  return tenantWithSso(server, peers.dns, { type: 'oidc', oidc: { issuer: peers.idp.issuer, clientId: SSO_IDP_CLIENT_ID, clientSecret: SSO_IDP_CLIENT_SECRET, scopes } });
}

describeDialects('OIDC SSO sign-in', (h) => {
  it('signs in through the IdP with PKCE, state and nonce: JIT user in the tenant with default and group-mapped roles', async () => {
    const server = await h.start(env());
    const tenant = await oidcTenant(server);
    const email = `olga@${tenant.domain}`;
    peers.idp.groups.set(email, ['support', 'unmapped']);
    const stored = await server.db.selectFrom('sso_configurations').select('oidc_client_secret').where('id', '=', tenant.configId).executeTakeFirstOrThrow();
    expect(stored.oidc_client_secret).toMatch(/^enc:v1:/);
    expect(stored.oidc_client_secret).not.toContain(SSO_IDP_CLIENT_SECRET);
    const lookup = await call(server, 'POST', SsoPaths.preLogin, { body: { email } });
    expect(lookup.body).toEqual({ type: 'oidc', address: peers.idp.issuer });

    const started = await startSso(server, 'oidc', email);
    expect(started.res.status).toBe(200);
    const authorize = new URL(started.address);
    expect(`${authorize.origin}`).toBe(peers.idp.issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.searchParams.get('state')).toBeTruthy();
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    expect(authorize.searchParams.get('redirect_uri')).toBe(OIDC_CALLBACK);
    expect(authorize.searchParams.get('login_hint')).toBe(email);
    // The verifier and nonce stay on the server; only their hash or challenge leaves it.
    const row = await server.db.selectFrom('sso_requests').selectAll().where('config_id', '=', tenant.configId).executeTakeFirstOrThrow();
    expect(row.state_hash).not.toBe(authorize.searchParams.get('state'));

    const back = await signInAt(started.address, email);
    const res = await postOidcCallback(server, back, started.binding);
    expect(res.status).toBe(200);
    expect(res.refreshCookie).toBeTruthy();
    const claims = claimsOf(res.body.accessToken);
    expect(claims).toMatchObject({ email, tenantId: tenant.tenantId, amr: ['sso'] });
    expect((await server.db.selectFrom('audits').select('description').where('user_id', '=', claims.sub).where('action', '=', 'User signed in').execute()).map((r) => r.description)).toEqual(['Signed in with SSO']);
    expect([...claims.roles].sort()).toEqual(['ReadOnly', 'Support']);

    // The callback is single use.
    expect((await postOidcCallback(server, back, started.binding)).status).toBe(401);
  });

  it('refuses a callback whose state names no sign-in of ours', async () => {
    const server = await h.start(env());
    const tenant = await oidcTenant(server);
    const started = await startSso(server, 'oidc', `olga@${tenant.domain}`);
    const back = await signInAt(started.address, `olga@${tenant.domain}`);
    const res = await postOidcCallback(server, back, started.binding, { RelayState: 'forged-state' });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ errors: ['Failed to authenticate'], errorCode: 'ER-02102' });
  });

  it('refuses a callback that reaches another browser than the one that started the sign-in', async () => {
    const server = await h.start(env());
    const tenant = await oidcTenant(server);
    const email = `olga@${tenant.domain}`;
    const victim = await startSso(server, 'oidc', email);
    const attacker = await startSso(server, 'oidc', email);
    const back = await signInAt(victim.address, email);
    expect((await postOidcCallback(server, back, attacker.binding)).status).toBe(401);
    expect((await postOidcCallback(server, back, undefined)).status).toBe(401);
  });

  it("refuses a code issued for another sign-in's PKCE challenge (code of one request, state of another)", async () => {
    const server = await h.start(env());
    const tenant = await oidcTenant(server);
    const email = `olga@${tenant.domain}`;
    const first = await startSso(server, 'oidc', email);
    const second = await startSso(server, 'oidc', email, OIDC_CALLBACK);
    const backFirst = await signInAt(first.address, email);
    const secondState = new URL(second.address).searchParams.get('state')!;
    // Same browser (the cookie is shared by its sign-ins), the second request's state, the first's code.
    const res = await postOidcCallback(server, backFirst, second.binding ?? first.binding, { RelayState: secondState });
    expect(res.status).toBe(401);
    expect(await server.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
  });

  it('refuses an ID token whose nonce is not the one the sign-in sent', async () => {
    const server = await h.start(env());
    const tenant = await oidcTenant(server);
    const email = `olga@${tenant.domain}`;
    const started = await startSso(server, 'oidc', email);
    const back = await signInAt(started.address, email);
    // The stored expectation changes after the IdP answered: the nonce in its ID token no longer matches.
    await server.db.updateTable('sso_requests').set({ nonce: 'a-different-nonce' }).where('config_id', '=', tenant.configId).execute();
    expect((await postOidcCallback(server, back, started.binding)).status).toBe(401);
  });

  it('refuses a redirectUri other than the one the sign-in started with', async () => {
    const server = await h.start(env());
    const tenant = await oidcTenant(server);
    const started = await startSso(server, 'oidc', `olga@${tenant.domain}`);
    const back = await signInAt(started.address, `olga@${tenant.domain}`);
    expect((await postOidcCallback(server, back, started.binding, { redirectUri: 'http://app.test:3000/account/oidc/callback' })).status).toBe(401);
  });

  it("refuses an identity whose email is outside the configuration's validated domains", async () => {
    const server = await h.start(env());
    const tenant = await oidcTenant(server);
    const started = await startSso(server, 'oidc', `olga@${tenant.domain}`);
    // The IdP account is another company's address.
    const back = await signInAt(started.address, 'boss@victim-company.test');
    expect((await postOidcCallback(server, back, started.binding)).status).toBe(401);
    expect(await server.db.selectFrom('users').select('id').where('email', '=', 'boss@victim-company.test').executeTakeFirst()).toBeUndefined();
  });

  it("regression: endpoints named by the IdP's discovery document are held to the issuer's address rule (no SSRF through token_endpoint)", async () => {
    // An internal service: 127.0.0.2 stands for any address the server must not call (dev mode allows only localhost).
    let internalHits = 0;
    const internal: Server = createServer((_req, res) => {
      internalHits += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.2', resolve));
    // The tenant admin's "IdP": a discovery document on an allowed address that points the token endpoint inside.
    const discovery: Server = createServer((req, res) => {
      const issuer = `http://127.0.0.1:${(discovery.address() as AddressInfo).port}`;
      if (req.url !== '/.well-known/openid-configuration') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          issuer,
          authorization_endpoint: `${issuer}/auth`,
          token_endpoint: `http://127.0.0.2:${(internal.address() as AddressInfo).port}/token`,
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
        }),
      );
    });
    await new Promise<void>((resolve) => discovery.listen(0, '127.0.0.1', resolve));
    try {
      const server = await h.start(env());
      const issuer = `http://127.0.0.1:${(discovery.address() as AddressInfo).port}`;
      const tenant = await tenantWithSso(server, peers.dns, { type: 'oidc', oidc: { issuer, clientId: 'c', clientSecret: 's' } });
      const started = await startSso(server, 'oidc', `olga@${tenant.domain}`);
      expect(started.res.status).toBe(200);
      const state = new URL(started.address).searchParams.get('state')!;
      const res = await postOidcCallback(server, new URL(`${OIDC_CALLBACK}?code=any&state=${state}`), started.binding);
      expect(res.status).toBe(401);
      expect(internalHits).toBe(0);
    } finally {
      await new Promise((resolve) => internal.close(resolve));
      await new Promise((resolve) => discovery.close(resolve));
    }
  });

  it('a disabled configuration gives no SSO at preLogin and cannot be started', async () => {
    const server = await h.start(env());
    const tenant = await oidcTenant(server);
    await call(server, 'PATCH', `/identity/resources/sso/v1/configurations/${tenant.configId}`, { token: tenant.token, body: { enabled: false } });
    expect((await call(server, 'POST', SsoPaths.preLogin, { body: { email: `olga@${tenant.domain}` } })).body).toEqual({ type: null, address: null });
    expect((await startSso(server, 'oidc', `olga@${tenant.domain}`)).res.status).toBe(404);
  });

  it('SSO calls are rate limited per IP in the database', async () => {
    const server = await h.start({ ...env(), RATE_LIMIT_SSO_PER_IP: '3/600', TRUST_PROXY: 'true' });
    // A client IP of its own: earlier tests of this file counted under another.
    const headers = { 'x-forwarded-for': `203.0.113.${Math.floor(Math.random() * 250) + 1}` };
    const email = 'someone@nowhere.test';
    for (let i = 0; i < 3; i += 1) expect((await call(server, 'POST', SsoPaths.preLogin, { body: { email }, headers })).status).toBe(200);
    const limited = await call(server, 'POST', SsoPaths.preLogin, { body: { email }, headers });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeTruthy();
  });
});
