import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGatehouse } from '../create-gatehouse';
import { createFetchStub, json, type Handler } from '../../testing/fetch-stub';
import { createManualTimers } from '../../testing/manual-timers';
import type { GatehouseStore } from '../../core/types';
import { AuthContextClasses } from '../../wire/auth/claims';
import { readClaims } from './mfa';

const P = {
  login: 'POST /identity/resources/auth/v1/user',
  me: 'GET /identity/resources/users/v2/me',
  verify: 'POST /identity/resources/auth/v1/user/mfa/verify',
  recover: 'POST /identity/resources/auth/v1/user/mfa/recover',
  emailSend: 'POST /identity/resources/auth/v1/user/mfa/emailcode',
  emailVerify: 'POST /identity/resources/auth/v1/user/mfa/emailcode/verify',
  loginEnroll: 'POST /identity/resources/auth/v1/user/mfa/authenticator/enroll',
  loginEnrollVerify: 'POST /identity/resources/auth/v1/user/mfa/authenticator/enroll/verify',
  stepUp: 'POST /identity/resources/auth/v1/user/step-up/generate',
  logout: 'POST /identity/resources/auth/v1/logout',
};
const NOW = 1_700_000_000_000;
const me = { id: 'u1', email: 'ada@example.com', name: 'Ada', username: null, verified: true, tenantId: 't1', tenantIds: ['t1'], tenants: [], roles: [], permissions: [] };
const devices = { webauthn: [], phones: [], authenticators: [{ id: 'd1', createdAt: '2026-01-01T00:00:00.000Z' }], emails: [] };

function jwt(claims: Record<string, unknown>): string {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b64({ alg: 'ES256' })}.${b64(claims)}.sig`;
}
const pwdToken = jwt({ sub: 'u1', acr: AuthContextClasses.password, amr: ['pwd'], auth_time: NOW / 1000 - 3600 });
const mfaToken = jwt({ sub: 'u1', acr: AuthContextClasses.mfa, amr: ['pwd', 'mfa', 'otp'], auth_time: NOW / 1000 });
const session = (accessToken: string) => json({ accessToken, expiresIn: 300, expires: '', mfaRequired: false });
const mfaRequired = (enrolled = true): Handler => () =>
  json({ accessToken: '', expiresIn: 0, expires: '', mfaRequired: true, mfaToken: 'T'.repeat(43), mfaEnrolled: enrolled, mfaDevices: devices, mfaStrategies: [{ strategy: 'AuthenticatorApp', isActive: true }], allowRememberDevice: true, rememberDeviceDays: 30 });

let current: GatehouseStore | null = null;
afterEach(() => {
  current?.dispose();
  current = null;
});

function setup(routes: Record<string, Handler | Handler[]>) {
  const stub = createFetchStub({ [P.me]: () => json(me), ...routes });
  const clock = createManualTimers(NOW);
  const navigate = vi.fn();
  const { store } = createGatehouse({
    baseUrl: 'http://api.test', clientId: 'c', fetch: stub.fetch, getLocationSearch: () => '', retry: { attempts: 1, delayMs: 1 },
    navigate, storage: null, now: clock.now, timers: clock.timers, getCurrentUrl: () => 'https://app.example.com/account/login',
  });
  current = store;
  return { store, stub, clock, navigate, snap: () => store.getSnapshot() };
}

describe('MFA flow at sign-in', () => {
  it('keeps the session unset on mfaRequired and moves to loginWithTwoFactor / verify with the devices', async () => {
    const { store, snap } = setup({ [P.login]: mfaRequired() });
    await store.login({ email: 'ada@example.com', password: 'pw' });
    expect(snap().isAuthenticated).toBe(false);
    expect(store.getAccessToken()).toBeNull();
    expect(snap().login).toMatchObject({ step: 'loginWithTwoFactor', mfaToken: 'T'.repeat(43) });
    expect(snap().mfa).toMatchObject({ step: 'verify', context: 'login', mfaDevices: devices, allowRememberDevice: true, rememberDeviceDays: 30 });
  });

  it('verifies the code with the mfaToken, then signs in and navigates', async () => {
    const { store, stub, snap, navigate } = setup({ [P.login]: mfaRequired(), [P.verify]: () => session(mfaToken) });
    await store.login({ email: 'ada@example.com', password: 'pw' });
    await store.verifyMfa({ code: ' 123456 ', rememberDevice: true });
    expect(stub.callsTo(P.verify)[0]!.body).toEqual({ mfaToken: 'T'.repeat(43), value: '123456', rememberDevice: true });
    expect(snap().isAuthenticated).toBe(true);
    expect(snap().login.step).toBe('success');
    expect(navigate).toHaveBeenCalledWith('/');
  });

  it('shows the server message on a wrong code and stays on the step', async () => {
    const { store, snap } = setup({ [P.login]: mfaRequired(), [P.verify]: () => json({ errors: ['Invalid code, please try again'] }, { status: 400 }) });
    await store.login({ email: 'ada@example.com', password: 'pw' });
    await store.verifyMfa({ code: '000000' });
    expect(snap().mfa).toMatchObject({ step: 'verify', loading: false, error: 'Invalid code, please try again' });
    expect(snap().isAuthenticated).toBe(false);
  });

  it('recoverTwoFactor: a recovery code finishes the sign-in', async () => {
    const { store, stub, snap } = setup({ [P.login]: mfaRequired(), [P.recover]: () => session(mfaToken) });
    await store.login({ email: 'ada@example.com', password: 'pw' });
    store.setLoginMfaStep('recoverTwoFactor');
    expect(snap().login.step).toBe('recoverTwoFactor');
    await store.recoverMfa('ABCDE-FGHJK');
    expect(stub.callsTo(P.recover)[0]!.body).toEqual({ mfaToken: 'T'.repeat(43), recoveryCode: 'ABCDE-FGHJK' });
    expect(snap().isAuthenticated).toBe(true);
  });

  it('EmailCode: pre-verify then verify with the otcToken', async () => {
    const { store, stub, snap } = setup({ [P.login]: mfaRequired(), [P.emailSend]: () => json({ otcToken: 'otc-1' }), [P.emailVerify]: () => session(mfaToken) });
    await store.login({ email: 'ada@example.com', password: 'pw' });
    await store.sendMfaEmailCode();
    expect(snap().mfa).toMatchObject({ step: 'emailVerifyCode', otcToken: 'otc-1' });
    await store.verifyMfaEmailCode({ code: '654321' });
    expect(stub.callsTo(P.emailVerify)[0]!.body).toEqual({ mfaToken: 'T'.repeat(43), otcToken: 'otc-1', code: '654321', rememberDevice: false });
    expect(snap().isAuthenticated).toBe(true);
  });

  it('forceTwoFactor: enrol with the mfaToken, show the recovery codes once, navigate after "saved"', async () => {
    const { store, snap, navigate } = setup({
      [P.login]: mfaRequired(false),
      [P.loginEnroll]: () => json({ qrCode: 'data:image/png;base64,AAAA', uri: 'otpauth://totp/x?secret=ABC', secret: 'ABC' }),
      [P.loginEnrollVerify]: () => json({ accessToken: mfaToken, expiresIn: 300, expires: '', mfaRequired: false, recoveryCodes: ['AAAAA-BBBBB'] }),
    });
    await store.login({ email: 'ada@example.com', password: 'pw' });
    expect(snap().login.step).toBe('forceTwoFactor');
    await store.startAuthenticatorEnrollment();
    expect(snap().mfa).toMatchObject({ step: 'authenticatorApp', qrCode: 'data:image/png;base64,AAAA', secret: 'ABC', uri: 'otpauth://totp/x?secret=ABC' });
    await store.verifyAuthenticatorEnrollment('123456');
    expect(snap().mfa).toMatchObject({ step: 'recoveryCode', recoveryCodes: ['AAAAA-BBBBB'], secret: null });
    expect(navigate).not.toHaveBeenCalled();
    store.confirmRecoveryCodesSaved();
    expect(snap().mfa.recoveryCodes).toEqual([]);
    expect(navigate).toHaveBeenCalledWith('/');
  });
});

describe('step-up flow', () => {
  function signedIn(token: string, routes: Record<string, Handler | Handler[]>) {
    const t = setup(routes);
    t.store.hydrate({ login: { accessToken: token, expiresIn: 300, expires: '', mfaRequired: false }, me: me as never });
    return t;
  }

  it('is done at once when the token is already stepped up within maxAge', async () => {
    const { store, stub, snap, navigate } = signedIn(mfaToken, {});
    await store.startStepUp({ maxAge: 300 });
    expect(snap().mfa.steppedUp).toBe(true);
    expect(stub.callsTo(P.stepUp)).toHaveLength(0);
    expect(navigate).toHaveBeenCalledWith('/');
  });

  it('asks for a code otherwise, then takes the upgraded token and navigates after the MFA delay (1000 ms)', async () => {
    const { store, snap, navigate, clock } = signedIn(pwdToken, {
      [P.stepUp]: () => json({ mfaToken: 'S'.repeat(43), mfaDevices: devices, mfaStrategies: [] }),
      [P.verify]: () => session(mfaToken),
    });
    await store.startStepUp({ maxAge: 300 });
    expect(snap().mfa).toMatchObject({ context: 'stepUp', step: 'verify', mfaToken: 'S'.repeat(43) });
    await store.verifyMfa({ code: '123456' });
    expect(snap().mfa.steppedUp).toBe(true);
    expect(store.getAccessToken()).toBe(mfaToken);
    expect(navigate).not.toHaveBeenCalled();
    await clock.advance(999);
    expect(navigate).not.toHaveBeenCalled();
    await clock.advance(1);
    expect(navigate).toHaveBeenCalledWith('/');
  });

  it('shows noMFAEnrolledStepUp when the server says MFA is not enrolled', async () => {
    const { store, snap } = signedIn(pwdToken, { [P.stepUp]: () => json({ errors: ['MFA is not enrolled'], errorCode: 'ER-01303' }, { status: 400 }) });
    await store.startStepUp({ maxAge: 300 });
    expect(snap().mfa).toMatchObject({ step: 'noMFAEnrolledStepUp', loading: false });
    expect(snap().isAuthenticated).toBe(true);
  });

  it('signs the user out on any other step-up failure', async () => {
    const { store, snap, stub, navigate } = signedIn(pwdToken, { [P.stepUp]: () => json({ errors: ['boom'] }, { status: 500 }), [P.logout]: () => json({}) });
    await store.startStepUp({ maxAge: 300 });
    expect(stub.callsTo(P.logout)).toHaveLength(1);
    expect(snap().isAuthenticated).toBe(false);
    expect(navigate).toHaveBeenCalledWith('/account/login');
  });

  it('readClaims decodes a token payload and tolerates garbage', () => {
    expect(readClaims(mfaToken)).toMatchObject({ acr: AuthContextClasses.mfa });
    expect(readClaims('x.@@@.y')).toBeNull();
    expect(readClaims(null)).toBeNull();
  });
});
