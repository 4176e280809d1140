import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGatehouse } from '../create-gatehouse';
import { createFetchStub, json, type Handler } from '../../testing/fetch-stub';
import { createManualTimers } from '../../testing/manual-timers';
import type { GatehouseStore } from '../../core/types';
import { identifierTypeOf } from './recovery';

const P = {
  strategies: 'GET /identity/resources/users/v1/passwords/recovery/strategies',
  resetV1: 'POST /identity/resources/users/v1/passwords/reset',
  verify: 'POST /identity/resources/users/v1/passwords/reset/verify',
  change: 'POST /identity/resources/users/v1/passwords/change',
  me: 'GET /identity/resources/users/v2/me',
  email: 'POST /identity/resources/users/v2/passwords/reset/email',
  sms: 'POST /identity/resources/users/v2/passwords/reset/sms',
  smsVerify: 'POST /identity/resources/users/v2/passwords/reset/sms/verify',
};

const strategies = (email: boolean, sms: boolean): Handler => () =>
  json({ strategies: [{ strategy: 'email', isActive: email }, { strategy: 'sms', isActive: sms }] });
const ok: Handler = () => json({});
const serverError: Handler = () => json({ errors: ['boom'] }, { status: 500 });

let current: GatehouseStore | null = null;
afterEach(() => {
  current?.dispose();
  current = null;
});

function setup(routes: Record<string, Handler | Handler[]>) {
  const stub = createFetchStub(routes);
  const clock = createManualTimers();
  const navigate = vi.fn();
  const { store } = createGatehouse({
    baseUrl: 'http://api.test', clientId: 'c', fetch: stub.fetch, getLocationSearch: () => '', retry: { attempts: 1, delayMs: 1 },
    navigate, storage: null, now: clock.now, timers: clock.timers, getCurrentUrl: () => 'https://app.example.com/account/forget-password',
  });
  current = store;
  return { store, stub, clock, navigate, fp: () => store.getSnapshot().forgotPassword };
}

describe('recovery flow: choosing the channel', () => {
  it('starts on forgotPassword and shows passwordRecoverySelector when email and SMS are both active', async () => {
    const { store, stub, fp } = setup({ [P.strategies]: strategies(true, true) });
    expect(fp()).toEqual({ step: 'forgotPassword', identifier: '', loading: false, error: null });
    await store.startPasswordRecovery(' ada@example.com ');
    expect(fp()).toMatchObject({ step: 'passwordRecoverySelector', identifier: 'ada@example.com', loading: false, error: null });
    expect(stub.callsTo(P.email)).toHaveLength(0);
  });

  it('sends the email at once when only email is active (forgotPasswordEmailSuccess)', async () => {
    const { store, stub, fp } = setup({ [P.strategies]: strategies(true, false), [P.email]: ok });
    await store.startPasswordRecovery('ada@example.com');
    expect(fp().step).toBe('forgotPasswordEmailSuccess');
    expect(stub.callsTo(P.email)[0]!.body).toEqual({ identifier: 'ada@example.com', identifierType: 'email' });
  });

  it('texts at once when only SMS is active (resetPasswordViaSms), with the identifier type guessed', async () => {
    const { store, stub, fp } = setup({ [P.strategies]: strategies(false, true), [P.sms]: () => json({ sessionId: 's-1' }) });
    await store.startPasswordRecovery('+44 20 7946 0958');
    expect(fp()).toMatchObject({ step: 'resetPasswordViaSms', sessionId: 's-1' });
    expect(stub.callsTo(P.sms)[0]!.body).toEqual({ identifier: '+44 20 7946 0958', identifierType: 'phoneNumber' });
  });

  it("says 'No active password recovery methods found.' when none is active", async () => {
    const { store, fp } = setup({ [P.strategies]: strategies(false, false) });
    await store.startPasswordRecovery('ada@example.com');
    expect(fp()).toMatchObject({ step: 'forgotPassword', loading: false, error: 'No active password recovery methods found.' });
  });

  it("says 'An error occurred while determining recovery strategy' when the strategies cannot be read", async () => {
    const { store, fp } = setup({ [P.strategies]: serverError });
    await store.startPasswordRecovery('ada@example.com');
    expect(fp().error).toBe('An error occurred while determining recovery strategy');
  });

  it('asks for an identifier before calling anything', async () => {
    const { store, stub, fp } = setup({});
    await store.startPasswordRecovery('  ');
    expect(fp().error).toBe('Email is required');
    expect(stub.calls).toHaveLength(0);
  });

  it('guesses identifier types', () => {
    expect(identifierTypeOf('a@b.co')).toBe('email');
    expect(identifierTypeOf('(555) 123-4567')).toBe('phoneNumber');
    expect(identifierTypeOf('ada')).toBe('username');
  });
});

describe('recovery flow: seed messages on failure', () => {
  it("v1 forgotPassword: success step, else 'Unknown error occurred' (server 4xx sentences shown as they are)", async () => {
    const { store, fp } = setup({ [P.resetV1]: [ok, serverError, () => json({ errors: ['Too many attempts. Try again in 5 minutes.'], errorCode: 'ER-01019' }, { status: 429 })] });
    await store.forgotPassword('ada@example.com');
    expect(fp()).toMatchObject({ step: 'forgotPasswordEmailSuccess', identifier: 'ada@example.com' });
    store.resetForgotPassword();
    expect(fp()).toEqual({ step: 'forgotPassword', identifier: 'ada@example.com', loading: false, error: null });
    await store.forgotPassword('ada@example.com');
    expect(fp()).toMatchObject({ step: 'forgotPassword', error: 'Unknown error occurred', loading: false });
    await store.forgotPassword('ada@example.com');
    expect(fp().error).toBe('Too many attempts. Try again in 5 minutes.');
  });

  it("email and SMS sends: 'An error occurred while sending recovery email' / '...sms'", async () => {
    const { store, fp } = setup({ [P.email]: serverError, [P.sms]: serverError });
    await store.sendRecoveryEmail('ada@example.com');
    expect(fp().error).toBe('An error occurred while sending recovery email');
    await store.sendRecoverySms();
    expect(fp()).toMatchObject({ identifier: 'ada@example.com', error: 'An error occurred while sending recovery sms' });
  });

  it("SMS verification: no session id -> 'Session ID not found in state for verifying password via sms.'", async () => {
    const { store, stub, fp } = setup({});
    await store.verifyPasswordViaSms('123456');
    expect(fp().error).toBe('Session ID not found in state for verifying password via sms.');
    expect(stub.calls).toHaveLength(0);
  });

  it("SMS verification: a response without userId or token -> 'Invalid response from server: missing userId or token'", async () => {
    const { store, fp } = setup({ [P.sms]: () => json({ sessionId: 's-1' }), [P.smsVerify]: () => json({ userId: 'u1' }) });
    await store.sendRecoverySms('ada@example.com');
    await store.verifyPasswordViaSms('123456');
    expect(fp()).toMatchObject({ step: 'resetPasswordViaSms', error: 'Invalid response from server: missing userId or token' });
  });

  it("SMS verification: a failure -> 'An error occurred while verifying password via sms'; a 400 shows the server's sentence", async () => {
    const { store, fp } = setup({
      [P.sms]: () => json({ sessionId: 's-1' }),
      [P.smsVerify]: [serverError, () => json({ errors: ['The code is invalid or has expired'], errorCode: 'ER-01402' }, { status: 400 })],
    });
    await store.sendRecoverySms('ada@example.com');
    await store.verifyPasswordViaSms('123456');
    expect(fp().error).toBe('An error occurred while verifying password via sms');
    await store.verifyPasswordViaSms('123456');
    expect(fp()).toMatchObject({ step: 'resetPasswordViaSms', sessionId: 's-1', error: 'The code is invalid or has expired' });
  });
});

describe('recovery flow: the whole SMS path, reset and change', () => {
  it('sms -> code -> resetPasswordPage -> resetPasswordSuccess, forgetting the token', async () => {
    const { store, stub, fp } = setup({
      [P.strategies]: strategies(true, true),
      [P.sms]: () => json({ sessionId: 's-1' }),
      [P.smsVerify]: () => json({ userId: 'u1', token: 'reset-token' }),
      [P.verify]: ok,
    });
    await store.startPasswordRecovery('ada@example.com');
    await store.sendRecoverySms();
    await store.verifyPasswordViaSms(' 123456 ');
    expect(stub.callsTo(P.smsVerify)[0]!.body).toEqual({ otcToken: '123456', sessionId: 's-1' });
    expect(fp()).toMatchObject({ step: 'resetPasswordPage', userId: 'u1', token: 'reset-token' });
    await store.resetPassword({ userId: 'u1', token: 'reset-token', password: 'new passphrase' });
    expect(stub.callsTo(P.verify)[0]!.body).toEqual({ userId: 'u1', token: 'reset-token', password: 'new passphrase' });
    expect(fp()).toEqual({ step: 'resetPasswordSuccess', identifier: 'ada@example.com', loading: false, error: null });
  });

  it("resetPassword shows the server's policy sentence with its code and stays on the page", async () => {
    const { store, fp } = setup({ [P.verify]: () => json({ errors: ['Password must be at least 8 characters long'], errorCode: 'ER-01010' }, { status: 400 }) });
    await store.resetPassword({ userId: 'u1', token: 't', password: 'short' });
    expect(fp()).toMatchObject({ step: 'forgotPassword', loading: false, error: 'Password must be at least 8 characters long', errorCode: 'ER-01010' });
  });

  it('a reset answered like a login signs the user in, shows success, and goes on after 5 s or at once with continueNow', async () => {
    const me = { id: 'u1', email: 'ada@example.com', name: 'Ada', tenantId: 't1', tenantIds: ['t1'], tenants: [], roles: [], permissions: [] };
    const { store, fp, clock, navigate } = setup({
      [P.verify]: () => json({ accessToken: 'new-session', expiresIn: 300, expires: '', mfaRequired: false }),
      [P.me]: () => json(me),
    });
    await store.resetPassword({ userId: 'u1', token: 't', password: 'new passphrase' });
    expect(fp()).toMatchObject({ step: 'resetPasswordSuccess', signedIn: true });
    expect(store.getSnapshot().isAuthenticated).toBe(true);
    expect(navigate).not.toHaveBeenCalled();
    await clock.advance(4_999);
    expect(navigate).not.toHaveBeenCalled();
    store.continueNow();
    expect(navigate).toHaveBeenCalledWith('/');
    // The delayed navigation was taken: it does not happen a second time.
    await clock.advance(10_000);
    expect(navigate).toHaveBeenCalledTimes(1);
  });

  it('a reset whose account has MFA signs nothing in and asks for the second factor on the login route', async () => {
    const { store, fp, clock, navigate } = setup({
      [P.verify]: () => json({ accessToken: '', expiresIn: 0, expires: '', mfaRequired: true, mfaToken: 'M'.repeat(43), mfaEnrolled: true, mfaDevices: { webauthn: [], phones: [], authenticators: [{ id: 'a', createdAt: '' }], emails: [] }, mfaStrategies: [] }),
    });
    await store.resetPassword({ userId: 'u1', token: 't', password: 'new passphrase' });
    expect(fp()).toMatchObject({ step: 'resetPasswordSuccess' });
    expect(fp().signedIn).toBeUndefined();
    expect(store.getSnapshot().isAuthenticated).toBe(false);
    expect(store.getSnapshot().login.step).toBe('loginWithTwoFactor');
    await clock.advance(1_000);
    expect(navigate).toHaveBeenCalledWith('/account/login');
  });

  it('changePassword posts current and new password and rejects with the GatehouseError', async () => {
    const { store, stub } = setup({ [P.change]: [ok, () => json({ errors: ['The current password is incorrect'], errorCode: 'ER-01403' }, { status: 400 })] });
    await store.changePassword({ password: 'old', newPassword: 'new passphrase' });
    expect(stub.callsTo(P.change)[0]!.body).toEqual({ password: 'old', newPassword: 'new passphrase' });
    await expect(store.changePassword({ password: 'bad', newPassword: 'new passphrase' })).rejects.toMatchObject({ kind: 'GatehouseError', statusCode: 400, message: 'The current password is incorrect' });
  });
});
