import { decodeJwt } from 'jose';
import { expect, it } from 'vitest';
import { ApiPaths, ErrorCodes } from '@gatehouse/shared/wire';
import type { GatehouseServer } from '../../app';
import { call, describeDialects, movableClock, signUpAndActivate } from '../../test/harness';
import { SoftAuthenticator, type CeremonyOverrides } from '../../test/soft-authenticator';
import { WEBAUTHN_CHALLENGE_TTL_MS } from '../../services/passwordless/webauthn';

/** Every test here signs in many times from one address; the per-IP limit has its own test. */
const ROOMY = { RATE_LIMIT_LOGIN_PER_IP: '1000/600' };

const devicePath = (id: string) => ApiPaths.webauthnDevice.replace('{deviceId}', id);

/** Registers a passkey for the signed-in user through the two HTTP calls, as the browser does. */
async function register(server: GatehouseServer, token: string, authenticator: SoftAuthenticator, o: CeremonyOverrides = {}) {
  const options = await call(server, 'POST', ApiPaths.webauthnDevices, { token });
  expect(options.status).toBe(200);
  return call(server, 'POST', ApiPaths.webauthnDevicesVerify, { token, body: { credential: authenticator.create(options.body.options, o), name: 'Laptop' } });
}

/** prelogin + postlogin with the authenticator; `email` names the user (binds the challenge to that user's passkeys). */
async function signInWithPasskey(server: GatehouseServer, authenticator: SoftAuthenticator, o: CeremonyOverrides = {}, email?: string) {
  const pre = await call(server, 'POST', ApiPaths.webauthnPreLogin, { body: email ? { email } : {} });
  expect(pre.status).toBe(200);
  const credential = authenticator.get(pre.body.options, o);
  return { pre, credential, res: await call(server, 'POST', ApiPaths.webauthnPostLogin, { body: { credential } }) };
}

describeDialects('passkeys (WebAuthn)', (h) => {
  it('registers a passkey and signs in with it: a normal session with amr hwk and a refresh cookie', async () => {
    const server = await h.start(ROOMY);
    const user = await signUpAndActivate(server);
    const authenticator = new SoftAuthenticator();

    const options = await call(server, 'POST', ApiPaths.webauthnDevices, { token: user.accessToken });
    expect(options.body.options.rp).toEqual({ id: 'localhost', name: 'Gatehouse' });
    expect(options.body.options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    const verified = await call(server, 'POST', ApiPaths.webauthnDevicesVerify, { token: user.accessToken, body: { credential: authenticator.create(options.body.options), name: 'Laptop' } });
    expect(verified.status).toBe(201);
    expect(verified.body).toMatchObject({ name: 'Laptop', deviceType: 'singleDevice', backedUp: false, transports: ['internal'], lastUsedAt: null });

    const list = await call(server, 'GET', ApiPaths.webauthnDevices, { token: user.accessToken });
    expect(list.body.devices.map((d: { id: string }) => d.id)).toEqual([verified.body.id]);

    const { res } = await signInWithPasskey(server, authenticator);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ mfaRequired: false, userId: user.userId, tenantId: user.tenantId });
    expect(res.refreshCookie).toBeTruthy();
    const claims = decodeJwt(res.body.accessToken);
    expect(claims.sub).toBe(user.userId);
    expect(claims.amr).toEqual(['hwk']);
    // The session behaves like any other: the cookie refreshes it.
    const refreshed = await call(server, 'POST', ApiPaths.refresh, { cookie: res.refreshCookie! });
    expect(refreshed.status).toBe(200);
    const after = await call(server, 'GET', ApiPaths.webauthnDevices, { token: res.body.accessToken });
    expect(after.body.devices[0].lastUsedAt).not.toBeNull();
  });

  it('adding a passkey, signing in with it and removing it write audit records in the user\'s tenant', async () => {
    const server = await h.start(ROOMY);
    const user = await signUpAndActivate(server);
    const authenticator = new SoftAuthenticator();
    const added = await register(server, user.accessToken, authenticator);
    expect(added.status).toBe(201);
    expect((await signInWithPasskey(server, authenticator)).res.status).toBe(200);
    expect((await call(server, 'DELETE', devicePath(added.body.id), { token: user.accessToken })).status).toBe(200);
    const rows = await server.db.selectFrom('audits').select(['action', 'description', 'severity']).where('tenant_id', '=', user.tenantId).orderBy('created_at', 'asc').orderBy('id', 'asc').execute();
    expect(rows.map((r) => `${r.action} | ${r.description}`)).toEqual([
      'User signed in | Signed in with activation link',
      'Passkey added | Passkey added: "Laptop"',
      'User signed in | Signed in with passkey',
      'Passkey removed | Passkey removed: "Laptop"',
    ]);
  });

  it('passkey prelogin with an email does not reveal whether the account has passkeys (discoverable-only options)', async () => {
    const server = await h.start(ROOMY);
    const user = await signUpAndActivate(server);
    const noPasskeys = await signUpAndActivate(server);
    const authenticator = new SoftAuthenticator();
    expect((await register(server, user.accessToken, authenticator)).status).toBe(201);
    const shape = (options: Record<string, unknown>) => ({ ...options, challenge: '<random>' });
    const named = await call(server, 'POST', ApiPaths.webauthnPreLogin, { body: { email: user.email } });
    expect(named.status).toBe(200);
    expect(named.body.options.allowCredentials ?? []).toEqual([]);
    expect(JSON.stringify(named.body)).not.toContain(authenticator.id);
    expect(named.body.options.userVerification).toBe('required');
    // Known with passkeys, known without, unknown, and no email at all: the same options but the challenge.
    const without = await call(server, 'POST', ApiPaths.webauthnPreLogin, { body: { email: noPasskeys.email } });
    const unknown = await call(server, 'POST', ApiPaths.webauthnPreLogin, { body: { email: 'nobody-here@example.com' } });
    const anonymous = await call(server, 'POST', ApiPaths.webauthnPreLogin, { body: {} });
    for (const other of [without, unknown, anonymous]) {
      expect(other.status).toBe(200);
      expect(shape(other.body.options)).toEqual(shape(named.body.options));
    }
    expect(anonymous.body.options.challenge).not.toBe(named.body.options.challenge);
    // The discoverable passkey still signs in after a named prelogin.
    const { res } = await signInWithPasskey(server, authenticator, {}, user.email);
    expect(res.status).toBe(200);
  });

  it('refuses a challenge the server never issued', async () => {
    const server = await h.start(ROOMY);
    const user = await signUpAndActivate(server);
    const authenticator = new SoftAuthenticator();
    const reg = await register(server, user.accessToken, authenticator, { challenge: Buffer.alloc(32, 7).toString('base64url') });
    expect(reg.status).toBe(400);
    expect(reg.body.errorCode).toBe(ErrorCodes.passkeyChallengeInvalid);
    expect((await register(server, user.accessToken, authenticator)).status).toBe(201);
    const { res } = await signInWithPasskey(server, authenticator, { challenge: Buffer.alloc(32, 9).toString('base64url') });
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe(ErrorCodes.passkeyChallengeInvalid);
  });

  it('refuses a wrong origin and a wrong RP ID hash, at registration and at sign-in', async () => {
    const server = await h.start(ROOMY);
    const user = await signUpAndActivate(server);
    const authenticator = new SoftAuthenticator();
    for (const bad of [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }, { type: 'webauthn.get' }, { userVerified: false }]) {
      const reg = await register(server, user.accessToken, authenticator, bad);
      expect(reg.status, JSON.stringify(bad)).toBe(400);
      expect(reg.body.errorCode).toBe(ErrorCodes.passkeyVerificationFailed);
    }
    expect((await call(server, 'GET', ApiPaths.webauthnDevices, { token: user.accessToken })).body.devices).toEqual([]);
    expect((await register(server, user.accessToken, authenticator)).status).toBe(201);
    for (const bad of [{ origin: 'https://evil.example' }, { origin: 'http://app.test:3000' }, { rpId: 'evil.example' }, { corruptSignature: true }, { userVerified: false }]) {
      const { res } = await signInWithPasskey(server, authenticator, bad);
      expect(res.status, JSON.stringify(bad)).toBe(401);
      expect(res.body.errorCode).toBe(ErrorCodes.passkeyVerificationFailed);
      expect(res.refreshCookie).toBeUndefined();
    }
  });

  it('a challenge is single-use: replaying a valid assertion fails', async () => {
    const server = await h.start(ROOMY);
    const user = await signUpAndActivate(server);
    const authenticator = new SoftAuthenticator();
    await register(server, user.accessToken, authenticator);
    const { credential, res } = await signInWithPasskey(server, authenticator);
    expect(res.status).toBe(200);
    const replay = await call(server, 'POST', ApiPaths.webauthnPostLogin, { body: { credential } });
    expect(replay.status).toBe(400);
    expect(replay.body.errorCode).toBe(ErrorCodes.passkeyChallengeInvalid);
  });

  it('a challenge expires after five minutes', async () => {
    const clock = movableClock();
    const server = await h.start(ROOMY, { clock });
    const user = await signUpAndActivate(server);
    const authenticator = new SoftAuthenticator();
    await register(server, user.accessToken, authenticator);
    const pre = await call(server, 'POST', ApiPaths.webauthnPreLogin, { body: {} });
    clock.advance(WEBAUTHN_CHALLENGE_TTL_MS + 1);
    const res = await call(server, 'POST', ApiPaths.webauthnPostLogin, { body: { credential: authenticator.get(pre.body.options) } });
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe(ErrorCodes.passkeyChallengeInvalid);
  });

  it('refuses a signature counter that did not grow (cloned authenticator)', async () => {
    const server = await h.start(ROOMY);
    const user = await signUpAndActivate(server);
    const authenticator = new SoftAuthenticator();
    await register(server, user.accessToken, authenticator);
    expect((await signInWithPasskey(server, authenticator, { counter: 5 })).res.status).toBe(200);
    for (const counter of [5, 3]) {
      const { res } = await signInWithPasskey(server, authenticator, { counter });
      expect(res.status).toBe(401);
      expect(res.body.errorCode).toBe(ErrorCodes.passkeyVerificationFailed);
    }
    expect((await signInWithPasskey(server, authenticator, { counter: 6 })).res.status).toBe(200);
  });

  it('refuses an unknown credential, and one its owner removed', async () => {
    const server = await h.start(ROOMY);
    const user = await signUpAndActivate(server);
    const stranger = await signInWithPasskey(server, new SoftAuthenticator());
    expect(stranger.res.status).toBe(401);
    expect(stranger.res.body.errorCode).toBe(ErrorCodes.passkeyNotFound);

    const authenticator = new SoftAuthenticator();
    const device = await register(server, user.accessToken, authenticator);
    const other = await signUpAndActivate(server);
    // Someone else cannot remove it.
    expect((await call(server, 'DELETE', devicePath(device.body.id), { token: other.accessToken })).status).toBe(404);
    expect((await call(server, 'DELETE', devicePath(device.body.id), { token: user.accessToken })).status).toBe(200);
    expect((await call(server, 'GET', ApiPaths.webauthnDevices, { token: user.accessToken })).body.devices).toEqual([]);
    const removed = await signInWithPasskey(server, authenticator);
    expect(removed.res.status).toBe(401);
    expect(removed.res.body.errorCode).toBe(ErrorCodes.passkeyNotFound);
  });

  it("binds challenges: a registration to its session, a named prelogin to that user's passkeys", async () => {
    const server = await h.start(ROOMY);
    const alice = await signUpAndActivate(server);
    const bob = await signUpAndActivate(server);
    const alicesKey = new SoftAuthenticator();
    const options = await call(server, 'POST', ApiPaths.webauthnDevices, { token: alice.accessToken });
    const stolen = await call(server, 'POST', ApiPaths.webauthnDevicesVerify, { token: bob.accessToken, body: { credential: alicesKey.create(options.body.options) } });
    expect(stolen.status).toBe(400);
    expect(stolen.body.errorCode).toBe(ErrorCodes.passkeyChallengeInvalid);

    await register(server, alice.accessToken, alicesKey);
    const { res } = await signInWithPasskey(server, alicesKey, {}, bob.email);
    expect(res.status).toBe(401);
  });

  it('needs a signed-in user to list, register or remove passkeys, and an allowed Origin to sign in', async () => {
    const server = await h.start(ROOMY);
    expect((await call(server, 'GET', ApiPaths.webauthnDevices)).status).toBe(401);
    expect((await call(server, 'POST', ApiPaths.webauthnDevices)).status).toBe(401);
    expect((await call(server, 'DELETE', devicePath('x'))).status).toBe(401);
    // prelogin needs no body at all (discoverable credentials).
    expect((await call(server, 'POST', ApiPaths.webauthnPreLogin)).status).toBe(200);
    expect((await call(server, 'POST', ApiPaths.webauthnPreLogin, { body: { email: '' } })).status).toBe(400);
    const foreign = await call(server, 'POST', ApiPaths.webauthnPreLogin, { body: {}, headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
  });

  it('passkey sign-in counts against the per-IP sign-in limit', async () => {
    // Its own client address: counters in the database outlive the other tests' servers.
    const server = await h.start({ RATE_LIMIT_LOGIN_PER_IP: '3/600', TRUST_PROXY: 'true' });
    const headers = { 'x-forwarded-for': `203.0.113.${Math.floor(Math.random() * 250)}` };
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await call(server, 'POST', ApiPaths.webauthnPreLogin, { body: {}, headers })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
