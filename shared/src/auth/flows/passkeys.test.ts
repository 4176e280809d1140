import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createGatehouse } from '../create-gatehouse';
import { createFetchStub, json, type Handler } from '../../testing/fetch-stub';
import { createManualTimers } from '../../testing/manual-timers';
import type { GatehouseStore } from '../../core/types';
import { PASSKEYS_DONT_SHOW_AGAIN_KEY, PREFERRED_LOGIN_METHOD_KEY, shouldPromptPasskeys, type PasskeyPromptFacts } from '../passkeys-prompt';
import { PASSKEY_CANCELLED_MESSAGE } from './passkeys';

const P = {
  login: 'POST /identity/resources/auth/v1/user',
  me: 'GET /identity/resources/users/v2/me',
  vendor: 'GET /vendors/public',
  preLogin: 'POST /identity/resources/auth/v1/webauthn/prelogin',
  postLogin: 'POST /identity/resources/auth/v1/webauthn/postlogin',
  devices: 'GET /identity/resources/users/webauthn/v1/devices',
  registerOptions: 'POST /identity/resources/users/webauthn/v1/devices',
  registerVerify: 'POST /identity/resources/users/webauthn/v1/devices/verify',
  remove: 'DELETE /identity/resources/users/webauthn/v1/devices/d1',
};
const me = {
  id: 'u1', email: 'ada@example.com', name: 'Ada', username: null, verified: true, tenantId: 't1', tenantIds: ['t1'], tenants: [],
  phoneNumber: null, address: null, jobTitle: null, profilePictureUrl: null, roles: [], permissions: [], superUser: false,
  mfaEnrolled: false, metadata: null, createdAt: '2026-01-01T00:00:00Z', lastLogin: null,
};
const loginResponse = { accessToken: 'tok', expiresIn: 300, expires: '', mfaRequired: false, tenantId: 't1', userId: 'u1' };
const vendor = (isActive: boolean) => ({
  name: 'Gatehouse', allowSignUps: true, loginStrategy: 'EmailAndPassword',
  signUpStrategies: { email: { enabled: true, required: true }, phoneNumber: { enabled: false, required: false } },
  passwordConfig: { allowPassphrases: true, maxLength: 128, minLength: 8, minPhraseLength: 20, minOptionalTestsToPass: 0 },
  secondaryLoginStrategies: [{ strategy: 'Passkeys', isActive }],
});
const device = { id: 'd1', name: null, deviceType: 'multiDevice', backedUp: true, transports: ['internal'], createdAt: '2026-01-01T00:00:00Z', lastUsedAt: null };
const FLAG_ON = { 'show-passkeys-new': 'on' };

function memoryStorage(initial: Record<string, string> = {}) {
  const map = new Map(Object.entries(initial));
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k), map };
}

let current: GatehouseStore | null = null;
let local = memoryStorage();
beforeEach(() => {
  local = memoryStorage();
  vi.stubGlobal('localStorage', local);
});
afterEach(() => {
  current?.dispose();
  current = null;
  vi.unstubAllGlobals();
});

function setup(routes: Record<string, Handler | Handler[]>, flags: Record<string, string> = FLAG_ON) {
  const stub = createFetchStub(routes);
  const clock = createManualTimers();
  const navigate = vi.fn();
  const { store } = createGatehouse({
    baseUrl: 'http://api.test', clientId: 'c', fetch: stub.fetch, getLocationSearch: () => '', retry: { delayMs: 1 }, flags,
    navigate, storage: memoryStorage(), now: clock.now, timers: clock.timers, getCurrentUrl: () => 'https://app.example.com/account/login',
  });
  current = store;
  return { store, stub, navigate, snap: () => store.getSnapshot() };
}

describe('shouldPromptPasskeys (seed 000 section 4.2)', () => {
  const all: PasskeyPromptFacts = { flags: FLAG_ON, secondaryLoginStrategies: [{ strategy: 'Passkeys', isActive: true }], preferredLoginMethod: null, dontShowAgain: false, deviceCount: 0 };

  it('prompts when all five conditions hold', () => {
    expect(shouldPromptPasskeys(all)).toBe(true);
    expect(shouldPromptPasskeys({ ...all, preferredLoginMethod: 'Password' })).toBe(true);
  });

  it.each<[string, Partial<PasskeyPromptFacts>]>([
    ['the flag is missing', { flags: {} }],
    ["the flag is not exactly 'on'", { flags: { 'show-passkeys-new': 'true' } }],
    ['the passkeys strategy is inactive', { secondaryLoginStrategies: [{ strategy: 'Passkeys', isActive: false }] }],
    ['there is no passkeys strategy', { secondaryLoginStrategies: [{ strategy: 'MagicLink', isActive: true }] }],
    ['the policy is unknown', { secondaryLoginStrategies: undefined }],
    ['passkeys are the preferred method', { preferredLoginMethod: 'Passkeys' }],
    ["'don't show again' was chosen", { dontShowAgain: true }],
    ['the user has a device', { deviceCount: 1 }],
  ])('does not prompt when %s', (_, change) => {
    expect(shouldPromptPasskeys({ ...all, ...change })).toBe(false);
  });
});

describe('passkeys flow', () => {
  it('signs in with a passkey: prelogin options go to the ceremony, its credential to postlogin, then the session', async () => {
    const credential = { id: 'c1', rawId: 'c1', type: 'public-key', response: { clientDataJSON: 'a', authenticatorData: 'b', signature: 'c' }, clientExtensionResults: {} };
    const { store, stub, navigate, snap } = setup({
      [P.preLogin]: () => json({ options: { challenge: 'ch', allowCredentials: [] } }),
      [P.postLogin]: () => json(loginResponse),
      [P.me]: () => json(me),
    });
    const ceremony = vi.fn(async () => credential as never);
    await store.loginWithPasskey(ceremony);
    expect(ceremony).toHaveBeenCalledWith({ challenge: 'ch', allowCredentials: [] });
    expect(stub.calls.find((c) => c.url.pathname.endsWith('/webauthn/prelogin'))?.body).toEqual({});
    expect(stub.calls.find((c) => c.url.pathname.endsWith('/webauthn/postlogin'))?.body).toEqual({ credential });
    expect(snap()).toMatchObject({ isAuthenticated: true, login: { step: 'success' } });
    expect(navigate).toHaveBeenCalledWith('/');
    // Passkeys became the preferred method, so no prompt and no device lookup followed.
    expect(local.map.get(PREFERRED_LOGIN_METHOD_KEY)).toBe('Passkeys');
    expect(stub.calls.some((c) => c.url.pathname.endsWith('/webauthn/v1/devices'))).toBe(false);
  });

  it('sends the identifier when given, and shows a cancelled ceremony as a plain sentence', async () => {
    const { store, stub, snap } = setup({ [P.preLogin]: () => json({ options: { challenge: 'ch' } }) });
    await store.loginWithPasskey(async () => {
      throw Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' });
    }, ' ada@example.com ');
    expect(stub.calls[0]?.body).toEqual({ email: 'ada@example.com' });
    expect(snap()).toMatchObject({ isAuthenticated: false, login: { loading: false, error: PASSKEY_CANCELLED_MESSAGE } });
  });

  it('shows the server error of a refused assertion', async () => {
    const { store, snap } = setup({
      [P.preLogin]: () => json({ options: { challenge: 'ch' } }),
      [P.postLogin]: () => json({ errors: ['This passkey is not registered'], errorCode: 'ER-01203' }, { status: 401 }),
    });
    await store.loginWithPasskey(async () => ({}) as never);
    expect(snap().login.error).toBe('This passkey is not registered');
  });

  it('after a password sign-in goes to promptPasskeys when all conditions hold; "Not now" then navigates', async () => {
    const { store, navigate, snap } = setup({ [P.login]: () => json(loginResponse), [P.me]: () => json(me), [P.vendor]: () => json(vendor(true)), [P.devices]: () => json({ devices: [] }) });
    await store.login({ email: 'ada@example.com', password: 'pw' });
    expect(snap()).toMatchObject({ isAuthenticated: true, login: { step: 'promptPasskeys' }, passkeys: { devices: [] } });
    expect(navigate).not.toHaveBeenCalled();
    store.dismissPasskeyPrompt();
    expect(snap().login.step).toBe('success');
    expect(navigate).toHaveBeenCalledWith('/');
    expect(local.map.has(PASSKEYS_DONT_SHOW_AGAIN_KEY)).toBe(false);
  });

  it('"Don\'t show again" is remembered and skips the prompt next time', async () => {
    const routes = { [P.login]: () => json(loginResponse), [P.me]: () => json(me), [P.vendor]: () => json(vendor(true)), [P.devices]: () => json({ devices: [] }) };
    const first = setup(routes);
    await first.store.login({ email: 'ada@example.com', password: 'pw' });
    first.store.dismissPasskeyPrompt({ dontShowAgain: true });
    expect(local.map.get(PASSKEYS_DONT_SHOW_AGAIN_KEY)).toBe('true');
    first.store.dispose();
    const second = setup(routes);
    await second.store.login({ email: 'ada@example.com', password: 'pw' });
    expect(second.snap().login.step).toBe('success');
    expect(second.stub.calls.some((c) => c.url.pathname.endsWith('/webauthn/v1/devices'))).toBe(false);
  });

  it.each([
    ['the flag is off', {}, vendor(true), { devices: [] }],
    ['the policy has no active passkeys strategy', FLAG_ON, vendor(false), { devices: [] }],
    ['the user already has a passkey', FLAG_ON, vendor(true), { devices: [device] }],
  ])('skips the prompt when %s', async (_, flags, vendorConfig, devices) => {
    const { store, navigate, snap } = setup({ [P.login]: () => json(loginResponse), [P.me]: () => json(me), [P.vendor]: () => json(vendorConfig), [P.devices]: () => json(devices) }, flags);
    await store.login({ email: 'ada@example.com', password: 'pw' });
    expect(snap().login.step).toBe('success');
    expect(navigate).toHaveBeenCalledWith('/');
  });

  it('a failing device lookup never holds up the sign-in', async () => {
    const { store, snap } = setup({ [P.login]: () => json(loginResponse), [P.me]: () => json(me), [P.vendor]: () => json(vendor(true)), [P.devices]: () => json({ errors: ['boom'] }, { status: 500 }) });
    await store.login({ email: 'ada@example.com', password: 'pw' });
    expect(snap().login.step).toBe('success');
  });

  it('registers a passkey: creation options to the ceremony, its credential to verify; lists and removes', async () => {
    const credential = { id: 'c1', rawId: 'c1', type: 'public-key', response: { clientDataJSON: 'a', attestationObject: 'b' }, clientExtensionResults: {} };
    const { store, stub, snap } = setup({
      [P.registerOptions]: () => json({ options: { challenge: 'reg' } }),
      [P.registerVerify]: () => json(device, { status: 201 }),
      [P.devices]: [() => json({ devices: [device] }), () => json({ devices: [] })],
      [P.remove]: () => json({}),
    });
    const ceremony = vi.fn(async () => credential as never);
    expect(await store.registerPasskey(ceremony)).toBe(true);
    expect(ceremony).toHaveBeenCalledWith({ challenge: 'reg' });
    expect(stub.calls.find((c) => c.url.pathname.endsWith('/devices/verify'))?.body).toEqual({ credential });
    expect(snap().passkeys).toMatchObject({ registered: true, loading: false, devices: [device] });
    expect(local.map.get(PREFERRED_LOGIN_METHOD_KEY)).toBe('Passkeys');
    await store.loadPasskeys();
    expect(snap().passkeys.devices).toEqual([device]);
    await store.removePasskey('d1');
    expect(snap().passkeys.devices).toEqual([]);
    expect(local.map.has(PREFERRED_LOGIN_METHOD_KEY)).toBe(false);
  });

  it('a refused registration keeps the error and stores nothing', async () => {
    const { store, snap } = setup({ [P.registerOptions]: () => json({ options: { challenge: 'reg' } }), [P.registerVerify]: () => json({ errors: ['Passkey verification failed'] }, { status: 400 }) });
    expect(await store.registerPasskey(async () => ({}) as never)).toBe(false);
    expect(snap().passkeys).toMatchObject({ registered: false, error: 'Passkey verification failed' });
    expect(local.map.has(PREFERRED_LOGIN_METHOD_KEY)).toBe(false);
  });
});
