import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGatehouse } from './create-gatehouse';
import { createFetchStub, json, type Handler } from '../testing/fetch-stub';
import { createManualTimers } from '../testing/manual-timers';
import type { GatehouseStore } from '../core/types';

const P = {
  login: 'POST /identity/resources/auth/v1/user',
  signUp: 'POST /identity/resources/users/v1/signUp',
  strategy: 'GET /identity/resources/users/v1/activate/strategy',
  activate: 'POST /identity/resources/users/v1/activate',
  me: 'GET /identity/resources/users/v2/me',
  sso: 'POST /identity/resources/auth/v2/user/sso/prelogin',
};
const me = { id: 'u1', email: 'ada@example.com', name: 'Ada', tenantId: 't1', tenantIds: ['t1'], tenants: [], roles: [], permissions: [] };

let current: GatehouseStore | null = null;
afterEach(() => {
  current?.dispose();
  current = null;
});

function setup(routes: Record<string, Handler | Handler[]>) {
  const stub = createFetchStub({ [P.sso]: () => json({ address: null, type: null }), ...routes });
  const clock = createManualTimers();
  const navigate = vi.fn();
  const { store } = createGatehouse({
    baseUrl: 'http://api.test', clientId: 'c', fetch: stub.fetch, getLocationSearch: () => '', retry: { attempts: 1, delayMs: 1 },
    navigate, storage: null, now: clock.now, timers: clock.timers, getCurrentUrl: () => 'https://app.example.com/account/login',
  });
  current = store;
  return { store, clock, navigate, snap: () => store.getSnapshot() };
}

describe('error codes in the snapshot', () => {
  it('a refused sign-in keeps the errorCode beside the message, so the UI can word it (unverified account)', async () => {
    const { store, snap } = setup({ [P.login]: () => json({ errors: ['Please verify your email address first'], errorCode: 'ER-01007', errorContext: { resendActivation: true } }, { status: 400 }) });
    await store.preLogin('ada@example.com');
    await store.login({ email: 'ada@example.com', password: 'right password' });
    expect(snap().login).toMatchObject({ step: 'loginWithPassword', error: 'Please verify your email address first', errorCode: 'ER-01007' });
  });

  it('a later error without a code, or a cleared error, drops the earlier code', async () => {
    const { store, snap } = setup({
      [P.login]: [() => json({ errors: ['User is not verified'], errorCode: 'ER-01007' }, { status: 400 }), () => json({ errors: ['boom'] }, { status: 500 })],
    });
    await store.preLogin('ada@example.com');
    await store.login({ email: 'ada@example.com', password: 'x' });
    expect(snap().login.errorCode).toBe('ER-01007');
    await store.login({ email: 'ada@example.com', password: 'x' });
    expect(snap().login.error).not.toBeNull();
    expect(snap().login.errorCode).not.toBe('ER-01007');
  });

  it('sign-up keeps the code of "User already exists"', async () => {
    const { store, snap } = setup({ [P.signUp]: () => json({ errors: ['User already exists'], errorCode: 'ER-01008' }, { status: 409 }) });
    await store.signUp({ email: 'ada@example.com', password: 'pw', name: 'Ada' });
    expect(snap().signUp).toMatchObject({ stage: 'SignUp', error: 'User already exists', errorCode: 'ER-01008' });
  });
});

describe('continueNow: the way through a success state', () => {
  it('activation success goes to the app at once instead of after 5 s, and only once', async () => {
    const { store, clock, navigate, snap } = setup({
      [P.strategy]: () => json({ shouldSetPassword: false }),
      [P.activate]: () => json({ accessToken: 'a', expiresIn: 300, expires: '', mfaRequired: false }),
      [P.me]: () => json(me),
    });
    await store.startActivation({ userId: 'u1', token: 't' });
    expect(snap().activate.step).toBe('success');
    expect(navigate).not.toHaveBeenCalled();
    store.continueNow();
    expect(navigate).toHaveBeenCalledWith('/');
    await clock.advance(6_000);
    expect(navigate).toHaveBeenCalledTimes(1);
  });

  it('without a pending wait it does nothing; the wait alone still navigates after 5 s', async () => {
    const { store, clock, navigate } = setup({
      [P.strategy]: () => json({ shouldSetPassword: false }),
      [P.activate]: () => json({ accessToken: 'a', expiresIn: 300, expires: '', mfaRequired: false }),
      [P.me]: () => json(me),
    });
    store.continueNow();
    expect(navigate).not.toHaveBeenCalled();
    await store.startActivation({ userId: 'u1', token: 't' });
    await clock.advance(4_999);
    expect(navigate).not.toHaveBeenCalled();
    await clock.advance(1);
    expect(navigate).toHaveBeenCalledWith('/');
  });
});

describe('activation by the emailed code (activateWithOTCUrl)', () => {
  const activateCode = 'POST /identity/resources/users/v1/activate/code';

  it('signs in with the code and shows the success state, whose Continue goes at once', async () => {
    const bodies: unknown[] = [];
    const { store, navigate, snap } = setup({
      [activateCode]: (req) => {
        bodies.push(req.body);
        return json({ accessToken: 'a', expiresIn: 300, expires: '', mfaRequired: false });
      },
      [P.me]: () => json(me),
    });
    await store.activateWithCode({ email: 'ada@example.com', code: '123456' });
    expect(bodies).toEqual([{ email: 'ada@example.com', code: '123456' }]);
    expect(snap().activate.step).toBe('success');
    expect(snap().isAuthenticated).toBe(true);
    store.continueNow();
    expect(navigate).toHaveBeenCalledWith('/');
  });

  it('keeps the form with the error code when the server refuses, so the screen can ask for a password or a new code', async () => {
    const { store, snap } = setup({
      [activateCode]: [
        () => json({ errors: ['Password is required'], errorCode: 'ER-01010' }, { status: 400 }),
        () => json({ errors: ['Invalid or expired code'], errorCode: 'ER-02704' }, { status: 400 }),
      ],
    });
    await store.activateWithCode({ email: 'ada@example.com', code: '123456' });
    expect(snap().activate).toMatchObject({ step: 'activatingForm', loading: false, errorCode: 'ER-01010' });
    await store.activateWithCode({ email: 'ada@example.com', code: '000000', password: 'a new password 42' });
    expect(snap().activate).toMatchObject({ step: 'activatingForm', error: 'Invalid or expired code', errorCode: 'ER-02704' });
    expect(snap().isAuthenticated).toBe(false);
  });
});
