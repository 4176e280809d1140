import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGatehouse } from '../create-gatehouse';
import { createFetchStub, json, type Handler } from '../../testing/fetch-stub';
import type { CaptchaPolicy, CaptchaTokenProvider, GatehouseStore } from '../../core/types';
import { createGatehouseError } from '../../errors';

const P = {
  policy: 'GET /identity/resources/configurations/v1/captcha-policy/public',
  vendor: 'GET /vendors/public',
  me: 'GET /identity/resources/users/v2/me',
  login: 'POST /identity/resources/auth/v1/user',
  signUp: 'POST /identity/resources/users/v1/signUp',
  strategies: 'GET /identity/resources/users/v1/passwords/recovery/strategies',
  resetEmail: 'POST /identity/resources/users/v2/passwords/reset/email',
  linkPre: 'POST /identity/resources/auth/v1/passwordless/magiclink/prelogin',
};
const ON: CaptchaPolicy = { enabled: true, siteKey: 'site-1', minScore: 0.5, scriptUrl: 'https://captcha.test/api.js' };
const OFF: CaptchaPolicy = { enabled: false, siteKey: null, minScore: 0.5, scriptUrl: null };
const me = { id: 'u1', email: 'ada@example.com', name: 'Ada', tenantId: 't1', tenantIds: ['t1'], tenants: [], roles: [], permissions: [] };
const vendor = (loginStrategy = 'EmailAndPassword'): Handler => () =>
  json({ name: 'Acme', allowSignUps: true, loginStrategy, signUpStrategies: { email: { enabled: true, required: true }, phoneNumber: { enabled: false, required: false } }, passwordConfig: { allowPassphrases: false, maxLength: 128, minLength: 8, minPhraseLength: 20, minOptionalTestsToPass: 0 } });
const session = () => json({ accessToken: 'a.b.c', expiresIn: 300, expires: '', mfaRequired: false });

let current: GatehouseStore | null = null;
afterEach(() => {
  current?.dispose();
  current = null;
});

function setup(routes: Record<string, Handler | Handler[]>) {
  const stub = createFetchStub({ [P.me]: () => json(me), [P.vendor]: vendor(), [P.login]: session, ...routes });
  const { store } = createGatehouse({ baseUrl: 'http://api.test', clientId: 'c', fetch: stub.fetch, navigate: vi.fn(), getLocationSearch: () => '', retry: { attempts: 1, delayMs: 1 }, storage: null });
  current = store;
  return { store, stub, snap: () => store.getSnapshot() };
}

/** A provider standing in for the login box's reCAPTCHA client: records what it was asked. */
function recordingProvider() {
  const asked: Array<{ siteKey: string | null; action: string | undefined }> = [];
  const provider: CaptchaTokenProvider = async (policy, action) => {
    asked.push({ siteKey: policy.siteKey, action });
    return action ? `token-for-${action}` : undefined;
  };
  return { asked, provider };
}

describe('captcha policy in the store', () => {
  it('swallows a failed policy load (null), asks again next time, then keeps the policy', async () => {
    const { store, stub } = setup({ [P.policy]: [() => json({ errors: ['down'] }, { status: 500 }), () => json(ON)] });
    expect(await store.loadCaptchaPolicy()).toBeNull();
    expect(await store.loadCaptchaPolicy()).toEqual(ON);
    expect(await store.loadCaptchaPolicy()).toEqual(ON);
    expect(stub.callsTo(P.policy)).toHaveLength(2);
  });

  it('does not fetch the policy until a protected call (or the preLogin head start) needs it', async () => {
    const { store, stub } = setup({ [P.policy]: () => json(OFF) });
    await store.loadVendor();
    expect(stub.callsTo(P.policy)).toHaveLength(0);
    await store.preLogin('ada@example.com');
    await vi.waitFor(() => expect(stub.callsTo(P.policy)).toHaveLength(1));
  });

  it('with the policy off, signs in without asking the provider and without a token', async () => {
    const { store, stub, snap } = setup({ [P.policy]: () => json(OFF) });
    const { asked, provider } = recordingProvider();
    store.setCaptchaProvider(provider);
    await store.login({ email: 'ada@example.com', password: 'pw' });
    expect(snap().isAuthenticated).toBe(true);
    expect(stub.callsTo(P.login)[0]!.body).toEqual({ email: 'ada@example.com', password: 'pw' });
    expect(asked).toEqual([]);
  });

  it('with a failed policy load, signs in without captcha (the seed swallows it)', async () => {
    const { store, stub, snap } = setup({ [P.policy]: () => json({ errors: ['down'] }, { status: 503 }) });
    store.setCaptchaProvider(recordingProvider().provider);
    await store.login({ email: 'ada@example.com', password: 'pw' });
    expect(snap().isAuthenticated).toBe(true);
    expect(stub.callsTo(P.login)[0]!.body).toEqual({ email: 'ada@example.com', password: 'pw' });
  });

  it('with the policy on, sends the provider token of the login action; preLogin warms the provider up first', async () => {
    const { store, stub } = setup({ [P.policy]: () => json(ON) });
    const { asked, provider } = recordingProvider();
    store.setCaptchaProvider(provider);
    await store.loadVendor();
    await store.preLogin('ada@example.com');
    await vi.waitFor(() => expect(asked).toEqual([{ siteKey: 'site-1', action: undefined }]));
    await store.login({ email: 'ada@example.com', password: 'pw' });
    expect(asked.at(-1)).toEqual({ siteKey: 'site-1', action: 'login' });
    expect(stub.callsTo(P.login)[0]!.body).toEqual({ email: 'ada@example.com', password: 'pw', recaptchaToken: 'token-for-login' });
  });

  it('shows the provider failure on the login step and sends nothing', async () => {
    const { store, stub, snap } = setup({ [P.policy]: () => json(ON) });
    store.setCaptchaProvider(async () => {
      throw createGatehouseError('The captcha could not be loaded.', 400);
    });
    await store.login({ email: 'ada@example.com', password: 'pw' });
    expect(snap().login).toMatchObject({ loading: false, error: 'The captcha could not be loaded.' });
    expect(stub.callsTo(P.login)).toHaveLength(0);
  });

  it('a head start that fails is swallowed (the submit asks again)', async () => {
    const { store } = setup({ [P.policy]: () => json(ON) });
    let calls = 0;
    store.setCaptchaProvider(async () => {
      calls += 1;
      throw createGatehouseError('no script', 400);
    });
    await store.loadVendor();
    await store.preLogin('ada@example.com');
    await vi.waitFor(() => expect(calls).toBe(1));
    expect(store.getSnapshot().login).toMatchObject({ step: 'loginWithPassword', error: null });
  });

  it('sends a signup token with the sign-up, and shows a provider failure on the sign-up form', async () => {
    const { store, stub, snap } = setup({ [P.policy]: () => json(ON), [P.signUp]: () => json({ shouldActivate: true, userId: 'u1', tenantId: 't1' }) });
    store.setCaptchaProvider(recordingProvider().provider);
    await store.signUp({ email: 'ada@example.com', password: 'pw-long-enough' });
    expect(stub.callsTo(P.signUp)[0]!.body).toMatchObject({ email: 'ada@example.com', recaptchaToken: 'token-for-signup' });

    store.setCaptchaProvider(async () => {
      throw createGatehouseError('The captcha could not be loaded.', 400);
    });
    await store.signUp({ email: 'bob@example.com', password: 'pw-long-enough' });
    expect(snap().signUp).toMatchObject({ loading: false, error: 'The captcha could not be loaded.' });
    expect(stub.callsTo(P.signUp)).toHaveLength(1);
  });

  it('sends forgot_password tokens with reset requests and passwordless_login tokens with magic-link requests', async () => {
    const { store, stub } = setup({
      [P.policy]: () => json(ON),
      [P.strategies]: () => json({ strategies: [{ strategy: 'email', isActive: true }] }),
      [P.resetEmail]: () => json({}),
      [P.linkPre]: () => json({}),
      [P.vendor]: vendor('MagicLink'),
    });
    store.setCaptchaProvider(recordingProvider().provider);
    await store.startPasswordRecovery('ada@example.com');
    expect(stub.callsTo(P.resetEmail)[0]!.body).toEqual({ identifier: 'ada@example.com', identifierType: 'email', recaptchaToken: 'token-for-forgot_password' });
    await store.loadVendor();
    await store.preLogin('ada@example.com');
    expect(stub.callsTo(P.linkPre)[0]!.body).toEqual({ email: 'ada@example.com', recaptchaToken: 'token-for-passwordless_login' });
  });

  it('with no provider set (a host without the login box), calls go out without a token for the server to refuse', async () => {
    const { store, stub } = setup({ [P.policy]: () => json(ON) });
    await store.login({ email: 'ada@example.com', password: 'pw' });
    expect(stub.callsTo(P.login)[0]!.body).toEqual({ email: 'ada@example.com', password: 'pw' });
  });
});
