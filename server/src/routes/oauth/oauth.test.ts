import { createLocalJWKSet, jwtVerify } from 'jose';
import { ApiPaths, ErrorCodes, OAuthPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { CODE_TTL_MS } from '../../services/oauth/provider';
import { call, describeDialects, movableClock, signUpAndActivate } from '../../test/harness';
import {
  authorizeParams,
  basicAuth,
  clientsFile,
  codeFor,
  completeAuthorize,
  CONFIDENTIAL_CLIENT,
  exchange,
  getAuthorize,
  jwtClaims,
  pkce,
  PUBLIC_CLIENT,
  redirectQuery,
  tokenCall,
} from '../../test/oauth-helpers';

describeDialects('hosted login: authorization server', (h) => {
  const limits = { RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_LOGIN_PER_IP: '1000/600', RATE_LIMIT_ACTIVATION_PER_IP: '1000/600' };
  const start: typeof h.start = (env = {}, overrides) => h.start({ ...limits, OAUTH_CLIENTS_FILE: clientsFile(), ...env }, overrides);

  it('publishes OpenID discovery: code flow with S256 only, the endpoints, the iss response parameter', async () => {
    const server = await start();
    const res = await call(server, 'GET', OAuthPaths.discovery);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.body).toMatchObject({
      issuer: 'http://localhost:8787',
      authorization_endpoint: 'http://localhost:8787/oauth/authorize',
      token_endpoint: 'http://localhost:8787/oauth/token',
      userinfo_endpoint: 'http://localhost:8787/oauth/userinfo',
      end_session_endpoint: 'http://localhost:8787/oauth/logout',
      jwks_uri: 'http://localhost:8787/.well-known/jwks.json',
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
      id_token_signing_alg_values_supported: ['ES256'],
      authorization_response_iss_parameter_supported: true,
    });
  });

  it('sends a browser that is not signed in to the hosted login page, carrying the whole request back', async () => {
    const server = await start();
    const params = authorizeParams(pkce().challenge);
    const res = await getAuthorize(server, params);
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(location.origin + location.pathname).toBe('http://localhost:8787/oauth/account/login');
    const back = new URL(location.searchParams.get('redirectUrl')!, 'http://localhost:8787');
    expect(back.pathname).toBe(OAuthPaths.authorize);
    expect(Object.fromEntries(back.searchParams)).toEqual(params);
  });

  it('completes sign-in: code -> tokens; the ID token carries aud, nonce, auth_time, acr and amr of the login; userinfo answers', async () => {
    const server = await start();
    const user = await signUpAndActivate(server);
    const { code, query, verifier, params, browserCookie } = await codeFor(server, user.accessToken);
    expect(query.state).toBe(params.state);
    expect(query.iss).toBe('http://localhost:8787');
    expect(browserCookie).toBeTruthy();

    const res = await exchange(server, code, verifier);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 300, scope: 'openid email profile' });
    expect(typeof res.body.refresh_token).toBe('string');

    const jwks = createLocalJWKSet((await call(server, 'GET', ApiPaths.jwks)).body);
    const { payload: id } = await jwtVerify(res.body.id_token, jwks, { issuer: 'http://localhost:8787', audience: PUBLIC_CLIENT.clientId });
    const signIn = jwtClaims(user.accessToken);
    const me = (await call(server, 'GET', ApiPaths.me, { token: user.accessToken })).body;
    expect(id).toMatchObject({ sub: user.userId, nonce: params.nonce, email: user.email, email_verified: true, name: me.name, azp: PUBLIC_CLIENT.clientId });
    expect(id.auth_time).toBe(signIn.auth_time);
    expect(id.acr).toBe(signIn.acr);
    expect(id.amr).toEqual(signIn.amr);
    // The access token is the API's: it works on the identity API and belongs to the grant (sid).
    const access = jwtClaims(res.body.access_token);
    expect(access.aud).toBe(server.config.clientId);
    expect(access.sid).toBe(id.sid);
    expect((await call(server, 'GET', ApiPaths.me, { token: res.body.access_token })).body.email).toBe(user.email);

    const info = await call(server, 'GET', OAuthPaths.userinfo, { token: res.body.access_token });
    expect(info.status).toBe(200);
    expect(info.body).toEqual({ sub: user.userId, email: user.email, email_verified: true, name: me.name });
    // The embedded session's own token is no hosted-login token.
    expect((await call(server, 'GET', OAuthPaths.userinfo, { token: user.accessToken })).status).toBe(401);
  });

  it('refuses an unknown client_id with an error page, never a redirect', async () => {
    const server = await start();
    for (const clientId of ['nobody', '', undefined]) {
      const res = await getAuthorize(server, authorizeParams(pkce().challenge, { client_id: clientId }));
      expect(res.status, String(clientId)).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.body).toContain('role="alert"');
      expect(res.body).toContain('not registered with Gatehouse');
    }
  });

  it('refuses every redirect_uri that is not registered exactly (open-redirect attempts) with an error page', async () => {
    const server = await start();
    const user = await signUpAndActivate(server);
    const attempts = [
      'https://evil.example/oauth/callback',
      'https://notes.example.com.evil.example/oauth/callback',
      'https://notes.example.com@evil.example/oauth/callback',
      'https://notes.example.com/oauth/callback/../../evil',
      'https://notes.example.com/oauth/callback/',
      'https://notes.example.com/oauth/Callback',
      'https://notes.example.com/oauth/callback?next=https://evil.example',
      'https://notes.example.com/oauth/callback#fragment',
      'http://notes.example.com/oauth/callback',
      'https://notes.example.com:8443/oauth/callback',
      '//evil.example/oauth/callback',
      'javascript:alert(1)',
      'http://localhost:3000/oauth/callback',
    ];
    for (const redirectUri of attempts) {
      const res = await getAuthorize(server, authorizeParams(pkce().challenge, { redirect_uri: redirectUri }));
      expect(res.status, redirectUri).toBe(400);
      expect(res.headers.get('location'), redirectUri).toBeNull();
      expect(res.body).toContain('redirect_uri is not registered');
      // The signed-in page's completion refuses it the same way: no redirectUrl to follow.
      const completed = await completeAuthorize(server, user.accessToken, authorizeParams(pkce().challenge, { redirect_uri: redirectUri }));
      expect(completed.status, redirectUri).toBe(400);
      expect(completed.body.errorCode).toBe(ErrorCodes.oauthInvalidRedirectUri);
      expect(completed.body.redirectUrl).toBeUndefined();
    }
    // A repeated redirect_uri is refused too (which one would be used?).
    const query = new URLSearchParams(authorizeParams(pkce().challenge));
    query.append('redirect_uri', 'https://evil.example/cb');
    expect((await getAuthorize(server, query.toString())).status).toBe(400);
  });

  it('answers a malformed request at the registered redirect_uri with error, state and iss: PKCE S256 required, plain refused', async () => {
    const server = await start();
    const { challenge } = pkce();
    const cases: Array<[Record<string, string | undefined>, string, RegExp]> = [
      [{ code_challenge: undefined }, 'invalid_request', /code_challenge is required/],
      [{ code_challenge_method: 'plain' }, 'invalid_request', /must be S256/],
      [{ code_challenge_method: undefined }, 'invalid_request', /must be S256/],
      [{ code_challenge: 'too-short' }, 'invalid_request', /43-character/],
      [{ response_type: 'token' }, 'unsupported_response_type', /response_type=code/],
      [{ scope: 'email profile' }, 'invalid_scope', /openid/],
      [{ prompt: 'none login' }, 'invalid_request', /prompt=none/],
      [{ response_mode: 'fragment' }, 'invalid_request', /response_mode=query/],
      [{ request: 'eyJ...' }, 'request_not_supported', /not supported/],
    ];
    for (const [overrides, error, description] of cases) {
      const params = authorizeParams(challenge, overrides);
      const res = await getAuthorize(server, params);
      expect(res.status, JSON.stringify(overrides)).toBe(302);
      const location = res.headers.get('location')!;
      expect(location.startsWith(`${PUBLIC_CLIENT.redirectUri}?`)).toBe(true);
      const query = redirectQuery(location);
      expect(query.error, JSON.stringify(overrides)).toBe(error);
      expect(query.error_description).toMatch(description);
      expect(query.state).toBe(params.state);
      expect(query.iss).toBe('http://localhost:8787');
      expect(query.code).toBeUndefined();
    }
  });

  it('prompt=none: login_required without a session; with the /oauth cookie a code at once, no page', async () => {
    const server = await start();
    const params = authorizeParams(pkce().challenge, { prompt: 'none' });
    const anonymous = await getAuthorize(server, params);
    expect(redirectQuery(anonymous.headers.get('location'))).toMatchObject({ error: 'login_required', state: params.state });

    const user = await signUpAndActivate(server);
    const { browserCookie } = await codeFor(server, user.accessToken);
    const { verifier, challenge } = pkce();
    const silent = await getAuthorize(server, authorizeParams(challenge, { prompt: 'none', state: 'again' }), browserCookie);
    const query = redirectQuery(silent.headers.get('location'));
    expect(query.state).toBe('again');
    expect((await exchange(server, query.code!, verifier)).status).toBe(200);
    // Without prompt the same cookie also skips the page.
    const direct = await getAuthorize(server, authorizeParams(pkce().challenge), browserCookie);
    expect(redirectQuery(direct.headers.get('location')).code).toBeTruthy();
  });

  it('prompt=login asks a signed-in browser to sign in again, and signs nobody out on the GET', async () => {
    const server = await start();
    const user = await signUpAndActivate(server);
    const { browserCookie } = await codeFor(server, user.accessToken);
    const res = await getAuthorize(server, authorizeParams(pkce().challenge, { prompt: 'login' }), browserCookie);
    expect(res.headers.get('location')).toMatch(/^http:\/\/localhost:8787\/oauth\/authorize\/reauthenticate\?/);
    expect(res.headers.getSetCookie()).toEqual([]);
    expect((await call(server, 'GET', ApiPaths.me, { token: user.accessToken })).status).toBe(200);
  });

  it('token endpoint: a missing or wrong code_verifier is refused, and a failed try spends the code', async () => {
    const server = await start();
    const user = await signUpAndActivate(server);
    const missing = await codeFor(server, user.accessToken);
    const noVerifier = await tokenCall(server, { grant_type: 'authorization_code', code: missing.code, redirect_uri: PUBLIC_CLIENT.redirectUri, client_id: PUBLIC_CLIENT.clientId });
    expect(noVerifier.status).toBe(400);
    expect(noVerifier.body).toEqual({ error: 'invalid_request', error_description: 'code_verifier is required (PKCE)' });
    expect((await exchange(server, missing.code, 'short')).body.error).toBe('invalid_request');

    const wrong = await codeFor(server, user.accessToken);
    const res = await exchange(server, wrong.code, pkce().verifier);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'invalid_grant', error_description: 'code_verifier does not match the code_challenge' });
    // Whoever tried first spent it: the right verifier is now too late.
    expect((await exchange(server, wrong.code, wrong.verifier)).body.error).toBe('invalid_grant');
  });

  it('a reused authorization code is refused and revokes the tokens its first exchange issued', async () => {
    const server = await start();
    const user = await signUpAndActivate(server);
    const { code, verifier } = await codeFor(server, user.accessToken);
    const first = await exchange(server, code, verifier);
    expect(first.status).toBe(200);
    expect((await call(server, 'GET', OAuthPaths.userinfo, { token: first.body.access_token })).status).toBe(200);

    const replay = await exchange(server, code, verifier);
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual({ error: 'invalid_grant', error_description: 'The authorization code was already used; the tokens it issued are revoked' });
    const info = await call(server, 'GET', OAuthPaths.userinfo, { token: first.body.access_token });
    expect(info.status).toBe(401);
    expect(info.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    expect((await call(server, 'GET', ApiPaths.me, { token: first.body.access_token })).status).toBe(401);
    expect((await tokenCall(server, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token, client_id: PUBLIC_CLIENT.clientId })).body.error).toBe('invalid_grant');
    // The browser's own sign-in is not what the code issued: it lives on.
    expect((await call(server, 'GET', ApiPaths.me, { token: user.accessToken })).status).toBe(200);
  });

  it('codes live 60 seconds and belong to their client and redirect_uri', async () => {
    const clock = movableClock();
    const server = await start({}, { clock });
    const user = await signUpAndActivate(server);
    expect(CODE_TTL_MS).toBeLessThanOrEqual(60_000);
    const late = await codeFor(server, user.accessToken);
    clock.advance(CODE_TTL_MS + 1);
    expect((await exchange(server, late.code, late.verifier)).body).toEqual({ error: 'invalid_grant', error_description: 'The authorization code has expired' });

    const moved = await codeFor(server, user.accessToken);
    expect((await exchange(server, moved.code, moved.verifier, { redirect_uri: 'https://notes.example.com/other' })).body.error_description).toBe('redirect_uri differs from the authorization request');

    const stolen = await codeFor(server, user.accessToken);
    const other = await tokenCall(
      server,
      { grant_type: 'authorization_code', code: stolen.code, redirect_uri: PUBLIC_CLIENT.redirectUri, code_verifier: stolen.verifier },
      { authorization: basicAuth(CONFIDENTIAL_CLIENT.clientId, CONFIDENTIAL_CLIENT.secret) },
    );
    expect(other.body.error_description).toBe('The authorization code was issued to another client');
  });

  it('rotates refresh tokens; a used one presented again revokes the grant', async () => {
    const server = await start();
    const user = await signUpAndActivate(server);
    const { code, verifier } = await codeFor(server, user.accessToken);
    const tokens = (await exchange(server, code, verifier)).body;
    const refresh = (token: string) => tokenCall(server, { grant_type: 'refresh_token', refresh_token: token, client_id: PUBLIC_CLIENT.clientId });

    const next = await refresh(tokens.refresh_token);
    expect(next.status).toBe(200);
    expect(next.body.refresh_token).not.toBe(tokens.refresh_token);
    const id = jwtClaims(next.body.id_token);
    expect(id).toMatchObject({ sub: user.userId, aud: PUBLIC_CLIENT.clientId, auth_time: jwtClaims(tokens.id_token).auth_time });
    expect(id.nonce).toBeUndefined();

    const replay = await refresh(tokens.refresh_token);
    expect(replay.body).toEqual({ error: 'invalid_grant', error_description: 'The refresh token was already used; the grant has been revoked' });
    expect((await refresh(next.body.refresh_token)).body.error).toBe('invalid_grant');
    expect((await call(server, 'GET', OAuthPaths.userinfo, { token: next.body.access_token })).status).toBe(401);
    // A refresh token only works for its own client.
    const again = await codeFor(server, user.accessToken);
    const fresh = (await exchange(server, again.code, again.verifier)).body;
    const foreign = await tokenCall(server, { grant_type: 'refresh_token', refresh_token: fresh.refresh_token }, { authorization: basicAuth(CONFIDENTIAL_CLIENT.clientId, CONFIDENTIAL_CLIENT.secret) });
    expect(foreign.body.error_description).toBe('The refresh token was issued to another client');
    expect((await refresh(fresh.refresh_token)).status).toBe(200);
  });

  it('a confidential client authenticates with its secret (Basic or form); a wrong or missing secret is invalid_client', async () => {
    const server = await start();
    const user = await signUpAndActivate(server);
    const get = async () => codeFor(server, user.accessToken, { client_id: CONFIDENTIAL_CLIENT.clientId, redirect_uri: CONFIDENTIAL_CLIENT.redirectUri });
    const form = (code: string, verifier: string) => ({ grant_type: 'authorization_code', code, redirect_uri: CONFIDENTIAL_CLIENT.redirectUri, code_verifier: verifier });

    const basic = await get();
    const ok = await tokenCall(server, form(basic.code, basic.verifier), { authorization: basicAuth(CONFIDENTIAL_CLIENT.clientId, CONFIDENTIAL_CLIENT.secret) });
    expect(ok.status).toBe(200);
    expect(jwtClaims(ok.body.id_token).aud).toBe(CONFIDENTIAL_CLIENT.clientId);

    const post = await get();
    expect((await tokenCall(server, { ...form(post.code, post.verifier), client_id: CONFIDENTIAL_CLIENT.clientId, client_secret: CONFIDENTIAL_CLIENT.secret })).status).toBe(200);

    const wrong = await get();
    const bad = await tokenCall(server, form(wrong.code, wrong.verifier), { authorization: basicAuth(CONFIDENTIAL_CLIENT.clientId, 'not-the-secret') });
    expect(bad.status).toBe(401);
    expect(bad.body.error).toBe('invalid_client');
    expect(bad.headers.get('www-authenticate')).toContain('Basic');
    const none = await tokenCall(server, { ...form(wrong.code, wrong.verifier), client_id: CONFIDENTIAL_CLIENT.clientId });
    expect(none.status).toBe(401);
    expect((await tokenCall(server, { grant_type: 'authorization_code', code: 'x', redirect_uri: 'x', code_verifier: pkce().verifier, client_id: 'nobody' })).status).toBe(401);
  });

  it('answers cross-origin token calls only for the public client\'s own origin', async () => {
    const server = await start();
    const user = await signUpAndActivate(server);
    const own = await codeFor(server, user.accessToken);
    const res = await exchange(server, own.code, own.verifier, {});
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const other = await codeFor(server, user.accessToken);
    const fromPage = await tokenCall(server, { grant_type: 'authorization_code', code: other.code, redirect_uri: PUBLIC_CLIENT.redirectUri, client_id: PUBLIC_CLIENT.clientId, code_verifier: other.verifier }, { origin: 'https://notes.example.com' });
    expect(fromPage.headers.get('access-control-allow-origin')).toBe('https://notes.example.com');
    const third = await codeFor(server, user.accessToken);
    const foreign = await tokenCall(server, { grant_type: 'authorization_code', code: third.code, redirect_uri: PUBLIC_CLIENT.redirectUri, client_id: PUBLIC_CLIENT.clientId, code_verifier: third.verifier }, { origin: 'https://evil.example' });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('a requested tenant must be one of the user\'s; an application grant cannot authorize other applications', async () => {
    const server = await start();
    const user = await signUpAndActivate(server);
    const denied = await completeAuthorize(server, user.accessToken, authorizeParams(pkce().challenge, { tenantId: 'someone-elses-tenant' }));
    expect(redirectQuery(denied.body.redirectUrl)).toMatchObject({ error: 'access_denied', error_description: 'The user is not a member of the requested tenant' });
    const own = await codeFor(server, user.accessToken, { tenantId: user.tenantId });
    const tokens = (await exchange(server, own.code, own.verifier)).body;
    expect(jwtClaims(tokens.access_token).tenantId).toBe(user.tenantId);

    const viaGrant = await completeAuthorize(server, tokens.access_token, authorizeParams(pkce().challenge));
    expect(viaGrant.status).toBe(403);
    expect(viaGrant.body.errorCode).toBe(ErrorCodes.oauthNotBrowserSession);
  });

  it('limits token calls per IP in the database (429 slow_down with Retry-After)', async () => {
    // An address of its own (through a trusted proxy), so the other tests' calls do not count.
    const server = await start({ RATE_LIMIT_OAUTH_TOKEN_PER_IP: '2/600', TRUST_PROXY: 'true' });
    const ip = `203.0.113.${Math.floor(Math.random() * 250)}`;
    const form = { grant_type: 'authorization_code', code: 'x', redirect_uri: PUBLIC_CLIENT.redirectUri, client_id: PUBLIC_CLIENT.clientId, code_verifier: pkce().verifier };
    const bad = () => tokenCall(server, form, { 'x-forwarded-for': ip });
    expect((await bad()).status).toBe(400);
    expect((await bad()).status).toBe(400);
    const limited = await bad();
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('slow_down');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('refuses a token request that is not a form, repeats a parameter or names an unknown grant type', async () => {
    const server = await start();
    const json = await call(server, 'POST', OAuthPaths.token, { body: { grant_type: 'authorization_code' } });
    expect(json.status).toBe(400);
    expect(json.body.error).toBe('invalid_request');
    const repeated = await call(server, 'POST', OAuthPaths.token, {
      rawBody: `grant_type=refresh_token&refresh_token=a&refresh_token=b&client_id=${PUBLIC_CLIENT.clientId}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(repeated.body).toEqual({ error: 'invalid_request', error_description: 'Parameters must not be repeated: refresh_token' });
    expect((await tokenCall(server, { grant_type: 'password', client_id: PUBLIC_CLIENT.clientId })).body.error).toBe('unsupported_grant_type');
  });
});
