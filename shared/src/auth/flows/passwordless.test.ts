import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGatehouse } from '../create-gatehouse';
import { createFetchStub, json, type Handler } from '../../testing/fetch-stub';
import { createManualTimers } from '../../testing/manual-timers';
import type { GatehouseStore } from '../../core/types';

const P = {
  vendor: 'GET /vendors/public',
  me: 'GET /identity/resources/users/v2/me',
  linkPre: 'POST /identity/resources/auth/v1/passwordless/magiclink/prelogin',
  linkPost: 'POST /identity/resources/auth/v1/passwordless/magiclink/postlogin',
  codePre: 'POST /identity/resources/auth/v1/passwordless/code/prelogin',
  codePost: 'POST /identity/resources/auth/v1/passwordless/code/postlogin',
  login: 'POST /identity/resources/auth/v1/user',
};
const NOW = 1_700_000_000_000;
const me = { id: 'u1', email: 'ada@example.com', name: 'Ada', username: null, verified: true, tenantId: 't1', tenantIds: ['t1'], tenants: [], roles: [], permissions: [] };
const vendor = (loginStrategy: string): Handler => () =>
  json({ name: 'Acme', allowSignUps: true, loginStrategy, signUpStrategies: { email: { enabled: true, required: true }, phoneNumber: { enabled: false, required: false } }, passwordConfig: { allowPassphrases: false, maxLength: 128, minLength: 8, minPhraseLength: 20, minOptionalTestsToPass: 0 } });
const session = () => json({ accessToken: 'a.b.c', expiresIn: 300, expires: '', mfaRequired: false });

let current: GatehouseStore | null = null;
afterEach(() => {
  current?.dispose();
  current = null;
});

async function setup(strategy: string, routes: Record<string, Handler | Handler[]> = {}) {
  const stub = createFetchStub({ [P.me]: () => json(me), [P.vendor]: vendor(strategy), ...routes });
  const clock = createManualTimers(NOW);
  const navigate = vi.fn();
  const { store } = createGatehouse({
    baseUrl: 'http://api.test', clientId: 'c', fetch: stub.fetch, getLocationSearch: () => '', retry: { attempts: 1, delayMs: 1 },
    navigate, storage: null, now: clock.now, timers: clock.timers, getCurrentUrl: () => 'https://app.example.com/account/login',
  });
  current = store;
  await store.loadVendor();
  return { store, stub, clock, navigate, snap: () => store.getSnapshot() };
}

describe('passwordless flow', () => {
  it('MagicLink: preLogin emails a link and moves to magicLinkPreLoginSuccess (no password step)', async () => {
    const { store, stub, snap } = await setup('MagicLink', { [P.linkPre]: () => json({}) });
    await store.preLogin(' ada@example.com ');
    expect(stub.callsTo(P.linkPre)[0]!.body).toEqual({ email: 'ada@example.com' });
    expect(snap().login).toMatchObject({ step: 'magicLinkPreLoginSuccess', email: 'ada@example.com', loading: false, error: null });
  });

  it('the magic-link callback signs in, shows magicLinkPostLoginSuccess for 5000 ms, then navigates', async () => {
    const { store, stub, snap, clock, navigate } = await setup('MagicLink', { [P.linkPost]: session });
    await store.magicLinkPostLogin('tok');
    expect(stub.callsTo(P.linkPost)[0]!.body).toEqual({ token: 'tok' });
    expect(snap().isAuthenticated).toBe(true);
    expect(snap().login.step).toBe('magicLinkPostLoginSuccess');
    await clock.advance(4999);
    expect(navigate).not.toHaveBeenCalled();
    await clock.advance(1);
    expect(navigate).toHaveBeenCalledWith('/');
    // The same token is not sent twice (a second effect run of the callback route).
    await store.magicLinkPostLogin('tok');
    expect(stub.callsTo(P.linkPost)).toHaveLength(1);
  });

  it('an invalid magic link shows the server message and signs nobody in', async () => {
    const { store, snap } = await setup('MagicLink', { [P.linkPost]: () => json({ errors: ['The sign-in link is invalid or has expired'] }, { status: 400 }) });
    await store.magicLinkPostLogin('old');
    expect(snap().isAuthenticated).toBe(false);
    expect(snap().login).toMatchObject({ step: 'preLogin', loading: false, error: 'The sign-in link is invalid or has expired' });
  });

  it('a magic link answered mfaRequired goes to the login route for the second factor, without a session', async () => {
    const mfa = () => json({ accessToken: '', expiresIn: 0, expires: '', mfaRequired: true, mfaToken: 'M'.repeat(43), mfaEnrolled: true });
    const { store, snap, navigate } = await setup('MagicLink', { [P.linkPost]: mfa });
    await store.magicLinkPostLogin('tok');
    expect(snap().isAuthenticated).toBe(false);
    expect(snap().login).toMatchObject({ step: 'loginWithTwoFactor', mfaToken: 'M'.repeat(43) });
    expect(navigate).toHaveBeenCalledWith('/account/login');
  });

  it('Code: preLogin moves to loginWithOtc; the code signs in like a password (success, navigation)', async () => {
    const { store, stub, snap, navigate } = await setup('Code', { [P.codePre]: () => json({}), [P.codePost]: session });
    await store.preLogin('ada@example.com');
    expect(snap().login.step).toBe('loginWithOtc');
    await store.loginWithOtc(' 123456 ');
    expect(stub.callsTo(P.codePost)[0]!.body).toEqual({ email: 'ada@example.com', code: '123456' });
    expect(snap().isAuthenticated).toBe(true);
    expect(snap().login.step).toBe('success');
    expect(navigate).toHaveBeenCalledWith('/');
  });

  it('Code: a wrong code keeps the step and shows the server message', async () => {
    const { store, snap } = await setup('Code', { [P.codePre]: () => json({}), [P.codePost]: () => json({ errors: ['The code is invalid or has expired'] }, { status: 400 }) });
    await store.preLogin('ada@example.com');
    await store.loginWithOtc('000000');
    expect(snap().login).toMatchObject({ step: 'loginWithOtc', loading: false, error: 'The code is invalid or has expired' });
  });

  it('UsernameAndCode sends a username; an email typed there is still sent as an email', async () => {
    const { store, stub } = await setup('UsernameAndCode', { [P.codePre]: () => json({}), [P.codePost]: session });
    await store.preLogin('ada');
    await store.loginWithOtc('123456');
    expect(stub.callsTo(P.codePre)[0]!.body).toEqual({ username: 'ada' });
    expect(stub.callsTo(P.codePost)[0]!.body).toEqual({ username: 'ada', code: '123456' });
    store.resetLogin();
    await store.preLogin('ada@example.com');
    expect(stub.callsTo(P.codePre)[1]!.body).toEqual({ email: 'ada@example.com' });
  });

  it('EmailAndPassword keeps the password step and never loads the passwordless calls', async () => {
    const { store, stub, snap } = await setup('EmailAndPassword');
    await store.preLogin('ada@example.com');
    expect(snap().login.step).toBe('loginWithPassword');
    expect(stub.callsTo(P.linkPre)).toHaveLength(0);
  });
});
