import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGatehouse } from '../create-gatehouse';
import { createFetchStub, json, type Handler } from '../../testing/fetch-stub';
import type { GatehouseStore } from '../../core/types';

const P = {
  login: 'POST /identity/resources/auth/v1/user',
  reset: 'POST /identity/resources/users/v1/phone/reset',
  resetVerify: 'POST /identity/resources/users/v1/phone/reset/verify',
  change: 'PUT /identity/resources/users/v1/phone/change',
  add: 'POST /identity/resources/users/v1/phone',
  verify: 'POST /identity/resources/users/v1/phone/verify',
};
const RESET = 'R'.repeat(43);
const CHANGE = 'C'.repeat(43);
const CHANGE_ID = 'I'.repeat(43);
const masked = '+44•••••0958';

let current: GatehouseStore | null = null;
afterEach(() => {
  current?.dispose();
  current = null;
});

function setup(routes: Record<string, Handler | Handler[]>) {
  const stub = createFetchStub(routes);
  const { store } = createGatehouse({ baseUrl: 'http://api.test', clientId: 'c', fetch: stub.fetch, getLocationSearch: () => '', retry: { attempts: 1, delayMs: 1 }, navigate: vi.fn(), storage: null });
  current = store;
  return { store, stub, snap: () => store.getSnapshot().resetPhoneNumber };
}

describe('reset phone number flow', () => {
  it('ResetPhoneNumber -> VerifyResetPhoneNumber -> ChangePhoneNumber -> done from "Lost your phone?": the pending sign-in\'s mfaToken goes with the emailed code, and no reset token enters the snapshot', async () => {
    const { store, stub, snap } = setup({
      // A sign-in waiting for the lost phone's code: the user leaves it for the reset.
      [P.login]: () => json({ accessToken: '', expiresIn: 0, expires: '', mfaRequired: true, mfaToken: 'M'.repeat(43), mfaEnrolled: true, mfaDevices: { webauthn: [], phones: [], authenticators: [], emails: [] }, mfaStrategies: [], allowRememberDevice: false, rememberDeviceDays: 0 }),
      [P.reset]: () => json({ resetPhoneNumberToken: RESET }),
      [P.resetVerify]: () => json({ changePhoneNumberToken: CHANGE }),
      [P.change]: () => json({ changePhoneId: CHANGE_ID, phoneNumber: masked }),
      [P.verify]: () => json({ phoneNumber: masked }),
    });
    await store.login({ email: 'ada@example.com', password: 'pw' });
    expect(store.getSnapshot().login.step).toBe('loginWithTwoFactor');
    expect(snap().step).toBe('ResetPhoneNumber');
    await store.resetPhoneNumber(' ada@example.com ');
    expect(stub.callsTo(P.reset)[0]!.body).toEqual({ email: 'ada@example.com' });
    expect(snap()).toMatchObject({ step: 'VerifyResetPhoneNumber', email: 'ada@example.com', loading: false, error: null });
    await store.verifyResetPhoneNumber('123456');
    // The password sign-in waiting for the lost phone's code proves the password to the server.
    expect(stub.callsTo(P.resetVerify)[0]!.body).toEqual({ resetPhoneNumberToken: RESET, code: '123456', mfaToken: 'M'.repeat(43) });
    expect(snap().step).toBe('ChangePhoneNumber');
    expect(snap().phoneNumber).toBeUndefined();
    await store.changePhoneNumber('+44 20 7946 0958');
    expect(stub.callsTo(P.change)[0]!.body).toEqual({ changePhoneNumberToken: CHANGE, phoneNumber: '+44 20 7946 0958' });
    expect(snap()).toMatchObject({ step: 'ChangePhoneNumber', phoneNumber: masked, done: false });
    await store.verifyPhoneNumber(' 654321 ');
    expect(stub.callsTo(P.verify)[0]!.body).toEqual({ changePhoneId: CHANGE_ID, code: '654321' });
    expect(snap()).toMatchObject({ done: true, phoneNumber: masked, loading: false });
    // Signed out: the next sign-in starts from the identifier, not from the abandoned MFA step.
    expect(store.getSnapshot().login).toMatchObject({ step: 'preLogin', email: 'ada@example.com' });
    expect(store.getSnapshot().mfa.mfaToken).toBeNull();
    expect(JSON.stringify(store.getSnapshot())).not.toMatch(/RRRR|CCCC|IIII|MMMM/);
  });

  it('opened directly (no sign-in waiting) it sends no mfaToken; the server\'s refusal for an SMS second factor is shown on the step', async () => {
    const needsPassword = "Your phone also confirms your sign-ins, so it can only be replaced after your password. Sign in with your password first, then choose 'Lost your phone?'. If you cannot, sign in with one of your recovery codes.";
    const { store, stub, snap } = setup({
      [P.reset]: () => json({ resetPhoneNumberToken: RESET }),
      [P.resetVerify]: () => json({ errors: [needsPassword], errorCode: 'ER-01310' }, { status: 403 }),
    });
    await store.resetPhoneNumber('ada@example.com');
    await store.verifyResetPhoneNumber('123456');
    expect(stub.callsTo(P.resetVerify)[0]!.body).toEqual({ resetPhoneNumberToken: RESET, code: '123456' });
    expect(snap()).toMatchObject({ step: 'VerifyResetPhoneNumber', loading: false, error: needsPassword });
  });

  it('a sign-in that expired meanwhile is refused: the error is shown and the next sign-in starts from the identifier', async () => {
    const stale = "Your sign-in has expired or is for another account. Sign in with your password again, then choose 'Lost your phone?'. If you cannot, sign in with one of your recovery codes.";
    const { store, stub, snap } = setup({
      [P.login]: () => json({ accessToken: '', expiresIn: 0, expires: '', mfaRequired: true, mfaToken: 'M'.repeat(43), mfaEnrolled: true, mfaDevices: { webauthn: [], phones: [], authenticators: [], emails: [] }, mfaStrategies: [], allowRememberDevice: false, rememberDeviceDays: 0 }),
      [P.reset]: () => json({ resetPhoneNumberToken: RESET }),
      [P.resetVerify]: () => json({ errors: [stale], errorCode: 'ER-01302' }, { status: 401 }),
    });
    await store.login({ email: 'ada@example.com', password: 'pw' });
    await store.resetPhoneNumber('ada@example.com');
    await store.verifyResetPhoneNumber('123456');
    expect(stub.callsTo(P.resetVerify)[0]!.body).toMatchObject({ mfaToken: 'M'.repeat(43) });
    expect(snap()).toMatchObject({ step: 'VerifyResetPhoneNumber', loading: false, error: stale });
    expect(store.getSnapshot().login).toMatchObject({ step: 'preLogin', email: 'ada@example.com' });
    expect(store.getSnapshot().mfa.mfaToken).toBeNull();
    // A new code for the same reset no longer carries the dead sign-in.
    await store.resetPhoneNumber('ada@example.com');
    await store.verifyResetPhoneNumber('654321');
    expect(stub.callsTo(P.resetVerify)[1]!.body).toEqual({ resetPhoneNumberToken: RESET, code: '654321' });
  });

  it('shows the server message and stays on the step; an empty email is caught before any call', async () => {
    const { store, stub, snap } = setup({
      [P.reset]: () => json({ resetPhoneNumberToken: RESET }),
      [P.resetVerify]: () => json({ errors: ['The code is invalid or has expired'], errorCode: 'ER-01309' }, { status: 400 }),
    });
    await store.resetPhoneNumber('  ');
    expect(snap().error).toBe('Email is required');
    expect(stub.calls).toHaveLength(0);
    await store.resetPhoneNumber('ada@example.com');
    await store.verifyResetPhoneNumber('000000');
    expect(snap()).toMatchObject({ step: 'VerifyResetPhoneNumber', loading: false, error: 'The code is invalid or has expired' });
  });

  it('a signed-in change (no reset) posts the new number to phone, then verifies it', async () => {
    const { store, stub, snap } = setup({ [P.add]: () => json({ changePhoneId: CHANGE_ID, phoneNumber: masked }), [P.verify]: () => json({ phoneNumber: masked }) });
    await store.changePhoneNumber('+442079460958');
    expect(stub.callsTo(P.add)[0]!.body).toEqual({ phoneNumber: '+442079460958' });
    expect(stub.callsTo(P.change)).toHaveLength(0);
    await store.verifyPhoneNumber('111111');
    expect(snap().done).toBe(true);
  });
});
