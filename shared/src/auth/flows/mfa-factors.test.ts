import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGatehouse } from '../create-gatehouse';
import { createFetchStub, json, type Handler } from '../../testing/fetch-stub';
import { createManualTimers } from '../../testing/manual-timers';
import type { GatehouseStore, PasskeyLoginCeremony, PasskeyRegistrationCeremony } from '../../core/types';
import { AuthContextClasses } from '../../wire/auth/claims';
import { SECURITY_KEY_CANCELLED_MESSAGE } from './mfa-factors';

const P = {
  login: 'POST /identity/resources/auth/v1/user',
  me: 'GET /identity/resources/users/v2/me',
  smsSend: 'POST /identity/resources/auth/v1/user/mfa/sms',
  smsVerify: 'POST /identity/resources/auth/v1/user/mfa/sms/verify',
  smsLoginEnroll: 'POST /identity/resources/auth/v1/user/mfa/sms/enroll',
  smsLoginEnrollVerify: 'POST /identity/resources/auth/v1/user/mfa/sms/enroll/verify',
  keyOptions: 'POST /identity/resources/auth/v1/user/mfa/webauthn',
  keyVerify: 'POST /identity/resources/auth/v1/user/mfa/webauthn/verify',
  keyEnroll: 'POST /identity/resources/users/v1/mfa/webauthn/enroll',
  keyEnrollVerify: 'POST /identity/resources/users/v1/mfa/webauthn/enroll/verify',
  smsDisable: 'POST /identity/resources/users/v1/mfa/sms/p1/disable',
  smsDisableVerify: 'POST /identity/resources/users/v1/mfa/sms/p1/disable/verify',
  keyDisable: 'POST /identity/resources/users/v1/mfa/webauthn/k1/disable',
  keyDisableVerify: 'POST /identity/resources/users/v1/mfa/webauthn/k1/disable/verify',
  devices: 'GET /identity/resources/users/v1/mfa/devices',
  strategies: 'GET /identity/resources/configurations/v1/mfa-strategies',
  stepUp: 'POST /identity/resources/auth/v1/user/step-up/generate',
};
const NOW = 1_700_000_000_000;
const TOKEN = 'T'.repeat(43);
const me = { id: 'u1', email: 'ada@example.com', name: 'Ada', username: null, verified: true, tenantId: 't1', tenantIds: ['t1'], tenants: [], roles: [], permissions: [] };
const phones = [{ id: 'p1', phoneNumber: '+44•••••0958', createdAt: '2026-01-01T00:00:00.000Z' }];
const keys = [{ id: 'k1', deviceType: 'usb-key', createdAt: '2026-01-01T00:00:00.000Z' }];
const devices = { webauthn: keys, phones, authenticators: [], emails: [] };

function jwt(claims: Record<string, unknown>): string {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b64({ alg: 'ES256' })}.${b64(claims)}.sig`;
}
const pwdToken = jwt({ sub: 'u1', acr: AuthContextClasses.password, amr: ['pwd'], auth_time: NOW / 1000 });
const smsToken = jwt({ sub: 'u1', acr: AuthContextClasses.mfa, amr: ['pwd', 'mfa', 'sms'], auth_time: NOW / 1000 });
const session = (accessToken: string) => json({ accessToken, expiresIn: 300, expires: '', mfaRequired: false });
const mfaRequired = (enrolled = true): Handler => () =>
  json({ accessToken: '', expiresIn: 0, expires: '', mfaRequired: true, mfaToken: TOKEN, mfaEnrolled: enrolled, mfaDevices: enrolled ? devices : { webauthn: [], phones: [], authenticators: [], emails: [] }, mfaStrategies: [{ strategy: 'SMS', isActive: true }], allowRememberDevice: true, rememberDeviceDays: 30 });
const sent = (otcToken = 'otc-1') => json({ otcToken, phoneNumber: '+44•••••0958' });
const requestOptions = { challenge: 'c2lnbi1tZQ', allowCredentials: [{ id: 'a2V5', type: 'public-key' }] };

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

async function signIn(store: GatehouseStore) {
  await store.login({ email: 'ada@example.com', password: 'pw' });
}

describe('SMS second factor in the store', () => {
  it('texts a code (smsVerifyCode, masked number), then the right code signs in; no session before it', async () => {
    const { store, stub, snap, navigate } = setup({ [P.login]: mfaRequired(), [P.smsSend]: () => sent(), [P.smsVerify]: () => session(smsToken) });
    await signIn(store);
    await store.sendMfaSmsCode();
    expect(stub.callsTo(P.smsSend)[0]!.body).toEqual({ mfaToken: TOKEN });
    expect(snap().mfa).toMatchObject({ step: 'smsVerifyCode', otcToken: 'otc-1', phoneNumber: '+44•••••0958', loading: false });
    expect(snap().isAuthenticated).toBe(false);
    await store.verifyMfaSmsCode({ code: ' 123456 ', rememberDevice: true });
    expect(stub.callsTo(P.smsVerify)[0]!.body).toEqual({ mfaToken: TOKEN, otcToken: 'otc-1', code: '123456', rememberDevice: true });
    expect(snap().isAuthenticated).toBe(true);
    expect(snap().login.step).toBe('success');
    expect(navigate).toHaveBeenCalledWith('/');
  });

  it('a wrong code stays on smsVerifyCode with the server message', async () => {
    const { store, snap } = setup({ [P.login]: mfaRequired(), [P.smsSend]: () => sent(), [P.smsVerify]: () => json({ errors: ['Invalid code, please try again'], errorCode: 'ER-01301' }, { status: 400 }) });
    await signIn(store);
    await store.sendMfaSmsCode();
    await store.verifyMfaSmsCode({ code: '000000' });
    expect(snap().mfa).toMatchObject({ step: 'smsVerifyCode', loading: false, error: 'Invalid code, please try again' });
    expect(snap().isAuthenticated).toBe(false);
  });

  it('forceTwoFactor: smsSetPhoneNumber -> smsVerifyCode -> recoveryCode, signed in by the enrolment answer', async () => {
    const { store, stub, snap, navigate } = setup({
      [P.login]: mfaRequired(false),
      [P.smsLoginEnroll]: () => sent('otc-enrol'),
      [P.smsLoginEnrollVerify]: () => json({ accessToken: smsToken, expiresIn: 300, expires: '', mfaRequired: false, recoveryCodes: ['AAAAA-BBBBB'] }),
    });
    await signIn(store);
    expect(snap().login.step).toBe('forceTwoFactor');
    store.setMfaStep('smsSetPhoneNumber');
    await store.startSmsEnrollment(' +44 20 7946 0958 ');
    expect(stub.callsTo(P.smsLoginEnroll)[0]!.body).toEqual({ mfaToken: TOKEN, phoneNumber: '+44 20 7946 0958' });
    expect(snap().mfa).toMatchObject({ step: 'smsVerifyCode', otcToken: 'otc-enrol' });
    await store.verifyMfaSmsCode({ code: '123456' });
    expect(stub.callsTo(P.smsLoginEnrollVerify)[0]!.body).toEqual({ mfaToken: TOKEN, otcToken: 'otc-enrol', code: '123456' });
    expect(snap().mfa).toMatchObject({ step: 'recoveryCode', recoveryCodes: ['AAAAA-BBBBB'], mfaToken: null });
    expect(snap().isAuthenticated).toBe(true);
    expect(navigate).not.toHaveBeenCalled();
    store.confirmRecoveryCodesSaved();
    expect(navigate).toHaveBeenCalledWith('/');
  });

  it('step-up with a texted code takes the upgraded token and navigates after the MFA delay', async () => {
    const { store, snap, navigate, clock } = setup({
      [P.stepUp]: () => json({ mfaToken: 'S'.repeat(43), mfaDevices: devices, mfaStrategies: [] }),
      [P.smsSend]: () => sent(),
      [P.smsVerify]: () => session(smsToken),
    });
    store.hydrate({ login: { accessToken: pwdToken, expiresIn: 300, expires: '', mfaRequired: false }, me: me as never });
    await store.startStepUp({ maxAge: 300 });
    await store.sendMfaSmsCode();
    await store.verifyMfaSmsCode({ code: '123456' });
    expect(snap().mfa.steppedUp).toBe(true);
    expect(store.getAccessToken()).toBe(smsToken);
    await clock.advance(999);
    expect(navigate).not.toHaveBeenCalled();
    await clock.advance(1);
    expect(navigate).toHaveBeenCalledWith('/');
  });
});

describe('WebAuthn second factor in the store', () => {
  it('runs the ceremony with the server options and posts the credential with the mfaToken', async () => {
    const credential = { id: 'a2V5', rawId: 'a2V5', type: 'public-key', response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' }, clientExtensionResults: {} };
    const ceremony = vi.fn<PasskeyLoginCeremony>(async () => credential as never);
    const { store, stub, snap } = setup({ [P.login]: mfaRequired(), [P.keyOptions]: () => json({ options: requestOptions }), [P.keyVerify]: () => session(smsToken) });
    await signIn(store);
    await store.verifyMfaWebAuthn(ceremony);
    expect(ceremony).toHaveBeenCalledWith(requestOptions);
    expect(stub.callsTo(P.keyVerify)[0]!.body).toEqual({ mfaToken: TOKEN, credential, rememberDevice: false });
    expect(snap().isAuthenticated).toBe(true);
  });

  it('a cancelled browser dialog becomes a plain sentence and nothing is posted', async () => {
    const { store, stub, snap } = setup({ [P.login]: mfaRequired(), [P.keyOptions]: () => json({ options: requestOptions }) });
    await signIn(store);
    await store.verifyMfaWebAuthn(async () => {
      throw Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' });
    });
    expect(snap().mfa).toMatchObject({ loading: false, error: SECURITY_KEY_CANCELLED_MESSAGE });
    expect(stub.callsTo(P.keyVerify)).toHaveLength(0);
  });

  it('the signed-in user enrols a cross-platform key and sees the recovery codes of a first factor', async () => {
    const ceremony = vi.fn<PasskeyRegistrationCeremony>(async () => ({ id: 'bmV3', rawId: 'bmV3', type: 'public-key', response: { clientDataJSON: 'e30', attestationObject: 'AA' } }) as never);
    const { store, stub, snap } = setup({
      [P.stepUp]: () => json({ errors: ['MFA is not enrolled'], errorCode: 'ER-01303' }, { status: 400 }),
      [P.keyEnroll]: () => json({ options: { challenge: 'Y2hhbA', rp: { name: 'Gatehouse' }, user: { id: 'dTE', name: 'ada', displayName: 'Ada' }, pubKeyCredParams: [] } }),
      [P.keyEnrollVerify]: () => json({ recoveryCodes: ['CCCCC-DDDDD'] }),
    });
    store.hydrate({ login: { accessToken: pwdToken, expiresIn: 300, expires: '', mfaRequired: false }, me: me as never });
    await store.startStepUp({ maxAge: 300 });
    expect(snap().mfa.step).toBe('noMFAEnrolledStepUp');
    await store.enrollMfaWebAuthn(ceremony, 'cross-platform');
    expect(stub.callsTo(P.keyEnroll)[0]!.body).toEqual({ deviceType: 'cross-platform' });
    expect(stub.callsTo(P.keyEnrollVerify)[0]!.body).toMatchObject({ credential: { id: 'bmV3' } });
    expect(snap().mfa).toMatchObject({ step: 'recoveryCode', recoveryCodes: ['CCCCC-DDDDD'], context: 'stepUp' });
  });
});

describe('MFA devices and strategies in the store', () => {
  it('removes a phone with the code texted to it, and a key with its own assertion; the list reloads', async () => {
    const after = { ...devices, phones: [], webauthn: [] };
    const { store, stub, snap } = setup({
      [P.devices]: [() => json(devices), () => json({ ...devices, phones: [] }), () => json(after)],
      [P.smsDisable]: () => sent('otc-rm'),
      [P.smsDisableVerify]: () => json({}),
      [P.keyDisable]: () => json({ options: requestOptions }),
      [P.keyDisableVerify]: () => json({}),
    });
    store.hydrate({ login: { accessToken: pwdToken, expiresIn: 300, expires: '', mfaRequired: false }, me: me as never });
    await store.loadMfaDevices();
    await store.removeMfaDevice('p1');
    expect(snap().mfa).toMatchObject({ step: 'smsVerifyCode', otcToken: 'otc-rm' });
    await store.verifyMfaSmsCode({ code: '123456' });
    expect(stub.callsTo(P.smsDisableVerify)[0]!.body).toEqual({ otcToken: 'otc-rm', code: '123456' });
    expect(snap().mfa).toMatchObject({ step: 'verify', mfaDevices: { phones: [] } });

    const ceremony = vi.fn<PasskeyLoginCeremony>(async () => ({ id: 'a2V5' }) as never);
    await store.removeMfaDevice('k1', ceremony);
    expect(ceremony).toHaveBeenCalledWith(requestOptions);
    expect(stub.callsTo(P.keyDisableVerify)[0]!.body).toEqual({ credential: { id: 'a2V5' } });
    expect(snap().mfa.mfaDevices).toEqual(after);
  });

  it('loadMfaStrategies puts the MFA strategies config into the MFA state, and a failure changes nothing', async () => {
    const strategies = [{ strategy: 'SMS', isActive: false }, { strategy: 'AuthenticatorApp', isActive: true }];
    const ok = setup({ [P.strategies]: () => json({ strategies }) });
    await ok.store.loadMfaStrategies();
    expect(ok.snap().mfa.mfaStrategies).toEqual(strategies);
    ok.store.dispose();
    const failing = setup({ [P.strategies]: () => json({ errors: ['boom'] }, { status: 500 }) });
    await failing.store.loadMfaStrategies();
    expect(failing.snap().mfa).toMatchObject({ mfaStrategies: [], error: null });
  });
});
