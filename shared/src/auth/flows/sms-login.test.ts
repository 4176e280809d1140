import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGatehouse } from '../create-gatehouse';
import { createFetchStub, json, type Handler } from '../../testing/fetch-stub';
import { createManualTimers } from '../../testing/manual-timers';
import type { GatehouseStore } from '../../core/types';
import { PHONE_SIGNUP_REQUIRED_MESSAGE } from '../../wire/users/sign-up-strategies';

const P = {
  vendor: 'GET /vendors/public',
  me: 'GET /identity/resources/users/v2/me',
  smsPre: 'POST /identity/resources/auth/v1/passwordless/smscode/prelogin',
  smsPost: 'POST /identity/resources/auth/v1/passwordless/smscode/postlogin',
  phoneSignUp: 'POST /identity/resources/users/v1/signUp/phoneNumber',
  emailSignUp: 'POST /identity/resources/users/v1/signUp',
};
const NOW = 1_700_000_000_000;
const me = { id: 'u1', email: null, name: 'Grace', username: null, verified: true, tenantId: 't1', tenantIds: ['t1'], tenants: [], roles: [], permissions: [], phoneNumber: '+447700900123' };
const vendor = (loginStrategy: string): Handler => () =>
  json({ name: 'Acme', allowSignUps: true, loginStrategy, signUpStrategies: { email: { enabled: false, required: false }, phoneNumber: { enabled: true, required: true } }, passwordConfig: { allowPassphrases: false, maxLength: 128, minLength: 8, minPhraseLength: 20, minOptionalTestsToPass: 0 } });
const session = () => json({ accessToken: 'a.b.c', expiresIn: 300, expires: '', mfaRequired: false });
const masked = () => json({ phoneNumber: '+44•••••0123' });
const INVALID = () => json({ errors: ['The code is invalid or has expired'], errorCode: 'ER-01502' }, { status: 400 });

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
  return { store, stub, navigate, snap: () => store.getSnapshot() };
}

describe('SMS sign-in flow', () => {
  it('SmsCodeV2: preLogin texts a code to the typed number and shows where it went; the code signs in', async () => {
    const { store, stub, snap, navigate } = await setup('SmsCodeV2', { [P.smsPre]: masked, [P.smsPost]: session });
    await store.preLogin(' +44 7700 900123 ');
    expect(stub.callsTo(P.smsPre)[0]!.body).toEqual({ phoneNumber: '+44 7700 900123' });
    expect(snap().login).toMatchObject({ step: 'loginWithSmsOtc', mode: 'login', email: '+44 7700 900123', phoneNumber: '+44•••••0123', loading: false, error: null });
    await store.loginWithSmsOtc(' 123456 ');
    expect(stub.callsTo(P.smsPost)[0]!.body).toEqual({ phoneNumber: '+44 7700 900123', code: '123456' });
    expect(snap().isAuthenticated).toBe(true);
    expect(snap().login.step).toBe('success');
    expect(navigate).toHaveBeenCalledWith('/');
  });

  it('SmsCode sends the email and UsernameAndSms the username (an email typed there stays an email); no number is shown', async () => {
    const byEmail = await setup('SmsCode', { [P.smsPre]: () => json({}), [P.smsPost]: session });
    await byEmail.store.preLogin('ada@example.com');
    expect(byEmail.stub.callsTo(P.smsPre)[0]!.body).toEqual({ email: 'ada@example.com' });
    expect(byEmail.snap().login.step).toBe('loginWithSmsOtc');
    expect(byEmail.snap().login.phoneNumber).toBeUndefined();
    await byEmail.store.loginWithSmsOtc('123456');
    expect(byEmail.stub.callsTo(P.smsPost)[0]!.body).toEqual({ email: 'ada@example.com', code: '123456' });
    byEmail.store.dispose();

    const byUsername = await setup('UsernameAndSms', { [P.smsPre]: () => json({}) });
    await byUsername.store.preLogin('ada');
    await byUsername.store.preLogin('ada@example.com');
    expect(byUsername.stub.callsTo(P.smsPre).map((c) => c.body)).toEqual([{ username: 'ada' }, { email: 'ada@example.com' }]);
  });

  it('a wrong code keeps the step and shows the server message; a code sent while one is checked is ignored', async () => {
    let release: (r: Response) => void = () => undefined;
    const { store, stub, snap } = await setup('SmsCodeV2', { [P.smsPre]: masked, [P.smsPost]: [() => new Promise<Response>((r) => (release = r)), INVALID] });
    await store.preLogin('+447700900123');
    const first = store.loginWithSmsOtc('111111');
    await vi.waitFor(() => expect(stub.callsTo(P.smsPost)).toHaveLength(1));
    await store.loginWithSmsOtc('222222');
    release(INVALID());
    await first;
    expect(stub.callsTo(P.smsPost)).toHaveLength(1);
    expect(snap().login).toMatchObject({ step: 'loginWithSmsOtc', loading: false, error: 'The code is invalid or has expired' });
  });

  it('a code answered mfaRequired moves to the second factor without a session', async () => {
    const mfa = () => json({ accessToken: '', expiresIn: 0, expires: '', mfaRequired: true, mfaToken: 'M'.repeat(43), mfaEnrolled: true });
    const { store, snap } = await setup('SmsCodeV2', { [P.smsPre]: masked, [P.smsPost]: mfa });
    await store.preLogin('+447700900123');
    await store.loginWithSmsOtc('123456');
    expect(snap().isAuthenticated).toBe(false);
    expect(snap().login).toMatchObject({ step: 'loginWithTwoFactor', mfaToken: 'M'.repeat(43) });
  });

  it('a refused preLogin (rate limit) stays on preLogin with the message', async () => {
    const { store, snap } = await setup('SmsCodeV2', { [P.smsPre]: () => json({ errors: ['Too many attempts. Try again in 5 minutes.'] }, { status: 429 }) });
    await store.preLogin('+447700900123');
    expect(snap().login).toMatchObject({ step: 'preLogin', loading: false, error: 'Too many attempts. Try again in 5 minutes.' });
  });
});

describe('sign-up by phone number', () => {
  it(`refuses an empty phone number with '${PHONE_SIGNUP_REQUIRED_MESSAGE}' before any call`, async () => {
    const { store, stub, snap } = await setup('SmsCodeV2');
    await store.signUpWithPhone({ phoneNumber: '  ', name: 'Grace' });
    expect(snap().signUp).toMatchObject({ stage: 'SignUp', error: PHONE_SIGNUP_REQUIRED_MESSAGE, loading: false });
    expect(stub.callsTo(P.phoneSignUp)).toHaveLength(0);
  });

  it('signs up, shows VerifyPhone while the code is texted, then loginWithQuickSmsOtc (registerQuickLogin) whose code signs in', async () => {
    let release: (r: Response) => void = () => undefined;
    const { store, stub, snap, navigate } = await setup('SmsCodeV2', {
      [P.phoneSignUp]: () => json({ shouldActivate: true, userId: 'u1', tenantId: 't1' }),
      [P.smsPre]: () => new Promise<Response>((r) => (release = r)),
      [P.smsPost]: session,
    });
    const done = store.signUpWithPhone({ phoneNumber: ' +44 7700 900123 ', name: 'Grace', companyName: 'Navy' });
    await vi.waitFor(() => expect(snap().signUp.stage).toBe('VerifyPhone'));
    expect(stub.callsTo(P.phoneSignUp)[0]!.body).toEqual({ phoneNumber: '+44 7700 900123', name: 'Grace', companyName: 'Navy' });
    expect(snap().signUp).toMatchObject({ loading: true, phoneNumber: '+44 7700 900123' });
    expect(stub.callsTo(P.emailSignUp)).toHaveLength(0);
    release(masked());
    await done;
    expect(stub.callsTo(P.smsPre)[0]!.body).toEqual({ phoneNumber: '+44 7700 900123' });
    expect(snap().login).toMatchObject({ step: 'loginWithQuickSmsOtc', mode: 'registerQuickLogin', phoneNumber: '+44•••••0123' });
    expect(snap().signUp.stage).toBe('SignUp');
    expect(navigate).toHaveBeenCalledWith('/account/login');

    await store.loginWithSmsOtc('654321');
    expect(stub.callsTo(P.smsPost)[0]!.body).toEqual({ phoneNumber: '+44 7700 900123', code: '654321' });
    expect(snap().isAuthenticated).toBe(true);
    expect(snap().user?.email).toBeNull();
    expect(navigate).toHaveBeenLastCalledWith('/');
  });

  it('a refused sign-up stays on SignUp with the server message', async () => {
    const { store, stub, snap } = await setup('SmsCodeV2', { [P.phoneSignUp]: () => json({ errors: ['User already exists'] }, { status: 409 }) });
    await store.signUpWithPhone({ phoneNumber: '+447700900123' });
    expect(snap().signUp).toMatchObject({ stage: 'SignUp', loading: false, error: 'User already exists' });
    expect(stub.callsTo(P.smsPre)).toHaveLength(0);
  });

  it('when texting the code fails, VerifyPhone keeps the message and sendSignUpPhoneCode tries again', async () => {
    const limited = () => json({ errors: ['Too many attempts. Try again in 1 minute.'] }, { status: 429 });
    const { store, snap, navigate } = await setup('SmsCodeV2', { [P.phoneSignUp]: () => json({ shouldActivate: true, userId: 'u1', tenantId: 't1' }), [P.smsPre]: [limited, masked] });
    await store.signUpWithPhone({ phoneNumber: '+447700900123' });
    expect(snap().signUp).toMatchObject({ stage: 'VerifyPhone', loading: false, error: 'Too many attempts. Try again in 1 minute.' });
    expect(navigate).not.toHaveBeenCalled();
    await store.sendSignUpPhoneCode();
    expect(snap().login.step).toBe('loginWithQuickSmsOtc');
    expect(navigate).toHaveBeenCalledWith('/account/login');
  });

  it('resending from loginWithQuickSmsOtc keeps the registerQuickLogin step', async () => {
    const { store, stub, snap } = await setup('SmsCodeV2', { [P.phoneSignUp]: () => json({ shouldActivate: true, userId: 'u1', tenantId: 't1' }), [P.smsPre]: masked });
    await store.signUpWithPhone({ phoneNumber: '+447700900123' });
    await store.smsPreLogin(snap().login.email, { mode: snap().login.mode });
    expect(stub.callsTo(P.smsPre)).toHaveLength(2);
    expect(snap().login).toMatchObject({ step: 'loginWithQuickSmsOtc', mode: 'registerQuickLogin' });
  });
});
