/**
 * Social login over HTTP on both dialects, against a real OpenID Connect provider (node-oidc-provider
 * on loopback) configured as a custom social provider: PKCE, state, nonce and single use are checked
 * end to end, accounts link only by a verified email, and sign-up by social login follows its setting.
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventsOf } from '../../test/event-helpers';
import { ApiPaths, AuthContextClasses, ErrorCodes, SocialLoginPaths } from '@gatehouse/shared/wire';
import type { GatehouseServer } from '../../app';
import { call, describeDialects, movableClock, PASSWORD, signUpAndActivate, uniqueEmail } from '../../test/harness';
import { claimsOf, stepClock } from '../../test/mfa-helpers';
import { appCode } from '../../test/rfc6238';
import { IDP_CLIENT_ID, IDP_CLIENT_SECRET, signInAt, startTestIdp, type TestIdp } from '../../test/social-idp';
import { socialLoginCookieName } from './login';

const CALLBACK = 'http://localhost:8787/account/social/success';
const pre = (provider: string) => SocialLoginPaths.preLogin.replace('{provider}', provider);
const post = (provider: string) => SocialLoginPaths.postLogin.replace('{provider}', provider);

let idp: TestIdp;
let pkceRequired = true;

beforeAll(async () => {
  idp = await startTestIdp({ redirectUris: [CALLBACK, 'http://app.test:3000/account/social/success'], configure: { pkce: { required: () => pkceRequired } } });
});
afterAll(async () => {
  await idp?.stop();
});

function providersEnv(extra: Record<string, unknown> = {}, acme: Record<string, unknown> = {}) {
  return JSON.stringify({
    custom: [{ id: 'acme', displayName: 'Acme ID', issuer: idp.issuer, clientId: IDP_CLIENT_ID, clientSecret: IDP_CLIENT_SECRET, ...acme }],
    ...extra,
  });
}

/** Starts a sign-in as the login box does; returns the provider URL and this browser's binding cookie. */
async function start(server: GatehouseServer, redirectUri = CALLBACK, provider = 'acme') {
  const res = await call(server, 'POST', pre(provider), { body: { redirectUri } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const name = socialLoginCookieName(server.config.clientId);
  const binding = new RegExp(`${name}=([^;]+)`).exec(res.setCookie ?? '')?.[1];
  expect(binding).toBeTruthy();
  return { url: new URL(res.body.url as string), binding: binding!, setCookie: res.setCookie! };
}

/** The login box's postlogin: code, state and iss of the callback URL, with this browser's cookie. */
function finish(server: GatehouseServer, callback: URL, binding: string | undefined, extra: Record<string, unknown> = {}, provider = 'acme') {
  const body = { code: callback.searchParams.get('code'), state: callback.searchParams.get('state'), iss: callback.searchParams.get('iss') ?? undefined, redirectUri: CALLBACK, ...extra };
  const headers: Record<string, string> = binding ? { cookie: `${socialLoginCookieName(server.config.clientId)}=${binding}` } : {};
  return call(server, 'POST', post(provider), { body, headers });
}

/** Start, sign in at the IdP as `login`, finish. */
async function socialSignIn(server: GatehouseServer, login: string) {
  const started = await start(server);
  return finish(server, await signInAt(started.url.href, login), started.binding);
}

const sessionsOf = (server: GatehouseServer, userId: string) => server.db.selectFrom('sessions').select(['login_origin', 'amr']).where('user_id', '=', userId).execute();

describeDialects('social login', (h) => {
  const limits = { RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_LOGIN_PER_IP: '1000/600', RATE_LIMIT_SOCIAL_LOGIN_PER_IP: '1000/600' };
  const start_: typeof h.start = (env = {}, overrides) => h.start({ SOCIAL_LOGIN_PROVIDERS: providersEnv(), ...limits, ...env }, overrides);

  it('starts at the provider with PKCE S256, a state naming the provider and a nonce, bound to the browser by an httpOnly cookie', async () => {
    const server = await start_();
    const { url, setCookie } = await start(server);
    expect(url.origin).toBe(idp.issuer);
    const q = url.searchParams;
    expect(q.get('client_id')).toBe(IDP_CLIENT_ID);
    expect(q.get('redirect_uri')).toBe(CALLBACK);
    expect(q.get('response_type')).toBe('code');
    expect(q.get('scope')).toBe('openid email profile');
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(q.get('state')).toMatch(/^acme\.[\w-]{40,}$/);
    expect(q.get('nonce')).toMatch(/^[\w-]{40,}$/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/Path=\/identity\/resources\/auth\/v1\/user\/sso/);
    // Stored hashed and sealed: neither the state nor the verifier is in the database.
    const rows = await server.db.selectFrom('social_login_states').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(q.get('state')!);
    expect(rows[0]!.state_hash).toBe(createHash('sha256').update(q.get('state')!).digest('hex'));

    // GET does the same for a plain link: 302 to the provider, cookie set.
    const viaGet = await call(server, 'GET', `${pre('acme')}?redirectUri=${encodeURIComponent(CALLBACK)}`);
    expect(viaGet.status).toBe(302);
    expect(viaGet.headers.get('location')!.startsWith(`${idp.issuer}/auth?`)).toBe(true);
    expect(viaGet.setCookie).toMatch(new RegExp(`${socialLoginCookieName(server.config.clientId)}=`));
  });

  it('a first sign-in with a verified email creates the account (isNewUser) and signs in with login origin custom-social-login; the next one finds it', async () => {
    const server = await start_();
    const email = uniqueEmail('ada');
    const first = await socialSignIn(server, email);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ mfaRequired: false, email, isNewUser: true, name: `IdP ${email.split('@')[0]}` });
    expect(first.body.userId).toBeTruthy();
    expect(first.body.tenantId).toBeTruthy();
    // Issue 16: the new account raises user.created (source social) in its own new tenant.
    expect((await eventsOf(server, first.body.tenantId, 'user.created')).map((e) => e.data)).toEqual([{ userId: first.body.userId, email, name: `IdP ${email.split('@')[0]}`, source: 'social' }]);
    expect(first.refreshCookie).toBeTruthy();
    expect(claimsOf(first.body.accessToken)).toMatchObject({ sub: first.body.userId, email, email_verified: true, amr: ['social'], acr: AuthContextClasses.password });
    const me = await call(server, 'GET', ApiPaths.me, { token: first.body.accessToken });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(email);
    expect(await sessionsOf(server, first.body.userId)).toEqual([{ login_origin: 'custom-social-login', amr: '["social"]' }]);
    expect((await server.db.selectFrom('audits').select('description').where('user_id', '=', first.body.userId).where('action', '=', 'User signed in').execute()).map((r) => r.description)).toEqual(['Signed in with social login']);
    // The refresh cookie works like any session's.
    expect((await call(server, 'POST', ApiPaths.refresh, { cookie: first.refreshCookie!, body: {} })).status).toBe(200);

    const again = await socialSignIn(server, email);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ isNewUser: false, userId: first.body.userId, tenantId: first.body.tenantId });
    const identities = await server.db.selectFrom('social_identities').selectAll().where('user_id', '=', first.body.userId).execute();
    expect(identities).toHaveLength(1);
    expect(identities[0]).toMatchObject({ provider: 'acme', subject: email });
  });

  it('links to an existing account only by a verified email: an unverified one is refused and takes nothing over', async () => {
    const server = await start_();
    const user = await signUpAndActivate(server);
    const refused = await socialSignIn(server, `unverified:${user.email}`);
    expect(refused.status).toBe(403);
    expect(refused.body.errorCode).toBe(ErrorCodes.socialEmailNotVerified);
    expect(refused.body.errors[0]).toBe('Your Acme ID email address is not verified, so it cannot be used to sign in. Verify it with Acme ID, or sign in another way.');
    expect(refused.refreshCookie).toBeUndefined();
    expect(await server.db.selectFrom('social_identities').selectAll().where('user_id', '=', user.userId).execute()).toEqual([]);
    expect((await sessionsOf(server, user.userId)).filter((s) => s.login_origin !== 'direct')).toEqual([]);
    // The same refusal for an address nobody has: no account is created for it either.
    const stranger = uniqueEmail('stranger');
    expect((await socialSignIn(server, `unverified:${stranger}`)).body.errorCode).toBe(ErrorCodes.socialEmailNotVerified);
    expect(await server.db.selectFrom('users').select('id').where('email', '=', stranger).execute()).toEqual([]);

    const linked = await socialSignIn(server, user.email);
    expect(linked.status).toBe(200);
    // The account's own name, not the provider's.
    const own = await server.db.selectFrom('users').select('name').where('id', '=', user.userId).executeTakeFirstOrThrow();
    expect(linked.body).toMatchObject({ isNewUser: false, userId: user.userId, email: user.email, name: own.name });
    // The password still signs in: linking added a way in, it replaced nothing.
    expect((await call(server, 'POST', ApiPaths.login, { body: { email: user.email, password: PASSWORD } })).status).toBe(200);
  });

  it('regression: a provider address with a KELVIN SIGN (lowercased to k) does not take over the account of the ASCII address', async () => {
    const server = await start_();
    const victim = await signUpAndActivate(server, uniqueEmail('kate'));
    // The IdP vouches for '\u212Aate-…@example.com', a different mailbox; lowercased, it was the victim's address.
    const refused = await socialSignIn(server, victim.email.replace(/^k/, '\u212A'));
    expect(refused.status).toBe(403);
    expect(refused.body.errorCode).toBe(ErrorCodes.socialEmailNotVerified);
    expect(refused.body.userId).toBeUndefined();
    expect(await server.db.selectFrom('social_identities').selectAll().where('user_id', '=', victim.userId).execute()).toEqual([]);
  });

  it('a verified email activates an unfinished sign-up and kills its pending activation links', async () => {
    const server = await start_();
    const email = uniqueEmail('pending');
    expect((await call(server, 'POST', ApiPaths.signUp, { body: { email, password: PASSWORD, name: 'Someone Else' } })).status).toBe(200);
    const signedIn = await socialSignIn(server, email);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.isNewUser).toBe(false);
    const row = await server.db.selectFrom('users').select(['verified', 'password_hash']).where('email', '=', email).executeTakeFirstOrThrow();
    expect(row).toEqual({ verified: 1, password_hash: null });
    const live = await server.db.selectFrom('one_time_tokens').select('token_hash').where('user_id', '=', signedIn.body.userId).where('used_at', 'is', null).execute();
    expect(live).toEqual([]);
  });

  it('state mismatch: an unknown state, another provider or another browser is refused, and the sign-in stays usable by its own browser', async () => {
    const server = await start_();
    const started = await start(server);
    const callback = await signInAt(started.url.href, uniqueEmail('state'));
    const forged = new URL(callback);
    forged.searchParams.set('state', `acme.${'x'.repeat(43)}`);
    const unknown = await finish(server, forged, started.binding);
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ errors: ['Failed to authenticate'], errorCode: ErrorCodes.socialLoginFailed });
    // A callback replayed into another browser (login CSRF): no cookie, or someone else's.
    expect((await finish(server, callback, undefined)).status).toBe(401);
    const other = await start(server);
    expect((await finish(server, callback, other.binding)).status).toBe(401);
    // Another redirectUri than the one the sign-in was started for.
    expect((await finish(server, callback, started.binding, { redirectUri: 'http://app.test:3000/account/social/success' })).status).toBe(401);
    // None of that spent it: its own browser finishes.
    expect((await finish(server, callback, started.binding)).status).toBe(200);
  });

  it('nonce mismatch: an ID token carrying another nonce than the one issued is refused', async () => {
    const server = await start_();
    const started = await start(server);
    const tampered = new URL(started.url);
    tampered.searchParams.set('nonce', 'a-nonce-the-server-never-issued-0123456789ab');
    const res = await finish(server, await signInAt(tampered.href, uniqueEmail('nonce')), started.binding);
    expect(res.status).toBe(401);
    expect(res.body.errors).toEqual(['Failed to authenticate']);
    expect(res.refreshCookie).toBeUndefined();
  });

  it('PKCE: a code issued for another code_challenge, or without one, is refused at the token exchange', async () => {
    const server = await start_();
    const wrong = await start(server);
    const swapped = new URL(wrong.url);
    swapped.searchParams.set('code_challenge', createHash('sha256').update('an-attackers-own-verifier-0123456789-abcdefghij').digest('base64url'));
    const emails = [uniqueEmail('pkce'), uniqueEmail('nopkce')];
    expect((await finish(server, await signInAt(swapped.href, emails[0]!), wrong.binding)).status).toBe(401);

    // A provider that does not insist on PKCE: the challenge stripped from the request still fails,
    // because the server always sends its verifier and the code was issued without a challenge.
    pkceRequired = false;
    try {
      const missing = await start(server);
      const stripped = new URL(missing.url);
      stripped.searchParams.delete('code_challenge');
      stripped.searchParams.delete('code_challenge_method');
      const res = await finish(server, await signInAt(stripped.href, emails[1]!), missing.binding);
      expect(res.status).toBe(401);
      expect(res.body.errorCode).toBe(ErrorCodes.socialLoginFailed);
    } finally {
      pkceRequired = true;
    }
    expect(await server.db.selectFrom('users').select('id').where('email', 'in', emails).execute()).toEqual([]);
  });

  it('replayed callback: the same code and state sign in once; an expired sign-in is refused', async () => {
    const clock = movableClock();
    const server = await start_({}, { clock });
    const started = await start(server);
    const callback = await signInAt(started.url.href, uniqueEmail('replay'));
    expect((await finish(server, callback, started.binding)).status).toBe(200);
    const replay = await finish(server, callback, started.binding);
    expect(replay.status).toBe(401);
    expect(replay.body.errors).toEqual(['Failed to authenticate']);

    const late = await start(server);
    const lateCallback = await signInAt(late.url.href, uniqueEmail('late'));
    clock.advance(server.config.socialLogin.stateTtl * 1000 + 1);
    expect((await finish(server, lateCallback, late.binding)).status).toBe(401);
  });

  it('disabled or unknown providers cannot start or finish a sign-in, and the public lists say so without secrets', async () => {
    const server = await start_({
      SOCIAL_LOGIN_PROVIDERS: providersEnv({ google: { clientId: 'google-client', clientSecret: 'google-secret-value', enabled: false } }, { enabled: false }),
    });
    for (const provider of ['acme', 'google', 'nope']) {
      const res = await call(server, 'POST', pre(provider), { body: { redirectUri: CALLBACK } });
      expect(res.status).toBe(404);
      expect(res.body.errorCode).toBe(ErrorCodes.socialProviderNotEnabled);
    }
    expect((await call(server, 'POST', post('acme'), { body: { code: 'c', state: 'acme.s' } })).status).toBe(404);
    const v2 = await call(server, 'GET', SocialLoginPaths.providersV2);
    expect(v2.body).toHaveLength(7);
    expect(v2.body.find((p: { type: string }) => p.type === 'google')).toEqual({ type: 'google', active: false, displayName: 'Google' });
    const custom = await call(server, 'GET', SocialLoginPaths.customProviders);
    expect(custom.body).toEqual({ providers: [{ id: 'acme', type: 'custom', displayName: 'Acme ID', active: false }] });
    expect(JSON.stringify([v2.body, custom.body])).not.toMatch(/secret|google-client/);
    expect((await call(server, 'GET', ApiPaths.vendorPublic)).body.socialLogin).toBe(false);

    const on = await start_();
    expect((await call(on, 'GET', ApiPaths.vendorPublic)).body.socialLogin).toBe(true);
    expect((await call(on, 'GET', SocialLoginPaths.customProviders)).body.providers[0].active).toBe(true);
  });

  it('sign-up disallowed: a new email is refused and no account is made, while an existing account still signs in', async () => {
    const server = await start_({ SOCIAL_LOGIN_ALLOW_SIGNUP: 'false' });
    const email = uniqueEmail('newcomer');
    const refused = await socialSignIn(server, email);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ errors: ['Sign up is disabled'], errorCode: ErrorCodes.signUpDisabled });
    expect(await server.db.selectFrom('users').select('id').where('email', '=', email).execute()).toEqual([]);
    const user = await signUpAndActivate(server);
    const linked = await socialSignIn(server, user.email);
    expect(linked.status).toBe(200);
    expect(linked.body.userId).toBe(user.userId);
  });

  it('an account without an email address at the provider is refused with a clear message', async () => {
    const server = await start_();
    const res = await socialSignIn(server, 'noemail:someone');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errors: ['Acme ID did not share an email address, so Gatehouse cannot sign you in with it'], errorCode: ErrorCodes.socialEmailMissing });
  });

  it('redirectUri must be the login box on an allowed origin: other origins, queries, fragments and other schemes are refused', async () => {
    const server = await start_();
    for (const redirectUri of ['https://evil.example/account/social/success', `${CALLBACK}?next=https://evil.example`, `${CALLBACK}#x`, 'javascript:alert(1)', '//evil.example/x', 'http://user:pw@localhost:8787/x']) {
      const res = await call(server, 'POST', pre('acme'), { body: { redirectUri } });
      expect(res.status, redirectUri).toBe(400);
      expect(res.body.errorCode).toBe(ErrorCodes.invalidSocialRedirectUri);
      const viaGet = await call(server, 'GET', `${pre('acme')}?redirectUri=${encodeURIComponent(redirectUri)}`);
      expect(viaGet.status).toBe(400);
      expect(viaGet.headers.get('location')).toBeNull();
    }
    // A page origin from GATEHOUSE_ALLOWED_ORIGINS is fine.
    expect((await call(server, 'POST', pre('acme'), { body: { redirectUri: 'http://app.test:3000/account/social/success' } })).status).toBe(200);
    // A foreign Origin cannot start one (CSRF guard of cookie endpoints).
    expect((await call(server, 'POST', pre('acme'), { body: { redirectUri: CALLBACK }, headers: { origin: 'https://evil.example' } })).status).toBe(403);
  });

  it("Apple: form_post goes to the server's callback, which passes code and state on to the login box only for a live state", async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const apple = { clientId: 'com.example.web', teamId: 'TEAM123456', keyId: 'KEY1234567', privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
    const server = await start_({ SOCIAL_LOGIN_PROVIDERS: providersEnv({ apple }) });
    const { url } = await start(server, CALLBACK, 'apple');
    expect(url.origin + url.pathname).toBe('https://appleid.apple.com/auth/authorize');
    expect(url.searchParams.get('response_mode')).toBe('form_post');
    const formPost = SocialLoginPaths.formPostCallback.replace('{provider}', 'apple');
    expect(url.searchParams.get('redirect_uri')).toBe(`${server.config.publicUrl}${formPost}`);
    const state = url.searchParams.get('state')!;
    const post = (form: Record<string, string>) =>
      call(server, 'POST', formPost, { rawBody: new URLSearchParams(form).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://appleid.apple.com' } });
    const answered = await post({ code: 'apple-code', state, user: '{"name":{"firstName":"Ada","lastName":"Lovelace"}}' });
    expect(answered.status).toBe(303);
    const back = new URL(answered.headers.get('location')!);
    expect(back.origin + back.pathname).toBe(CALLBACK);
    expect(Object.fromEntries(back.searchParams)).toEqual({ code: 'apple-code', state });
    const row = await server.db.selectFrom('social_login_states').select('provider_user').where('state_hash', '=', createHash('sha256').update(state).digest('hex')).executeTakeFirstOrThrow();
    expect(row.provider_user).toContain('Lovelace');
    // Never a redirect for a state it did not issue.
    const forged = await post({ code: 'x', state: 'apple.forged-state-value' });
    expect(forged.status).toBe(401);
    expect(forged.headers.get('location')).toBeNull();
    // Only form_post providers have this door.
    expect((await call(server, 'POST', SocialLoginPaths.formPostCallback.replace('{provider}', 'acme'), { rawBody: 'code=x&state=acme.y', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(401);
  });

  it('MFA rules apply: with MFA_POLICY=force there is no session until the second factor, and that session records the social login origin', async () => {
    const clock = stepClock();
    const server = await start_({ MFA_POLICY: 'force' }, { clock });
    const pending = await socialSignIn(server, uniqueEmail('mfa'));
    expect(pending.status).toBe(200);
    expect(pending.body).toMatchObject({ mfaRequired: true, accessToken: '', isNewUser: true });
    expect(pending.refreshCookie).toBeUndefined();
    expect(await sessionsOf(server, pending.body.userId)).toEqual([]);
    const enroll = await call(server, 'POST', ApiPaths.mfaLoginAuthenticatorEnroll, { body: { mfaToken: pending.body.mfaToken } });
    const done = await call(server, 'POST', ApiPaths.mfaLoginAuthenticatorEnrollVerify, { body: { mfaToken: pending.body.mfaToken, token: appCode(enroll.body.secret, clock.now()) } });
    expect(done.status).toBe(200);
    expect(done.refreshCookie).toBeTruthy();
    expect((await sessionsOf(server, pending.body.userId)).map((s) => s.login_origin)).toEqual(['custom-social-login']);
  });
});
