import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GatehouseStore, MfaDevices } from '@gatehouse/shared';
import { autoCleanup, json, renderLoginBox, sampleMe, type Routes } from '../../../test/harness';

// The real ceremony needs a browser with WebAuthn (covered by e2e/mfa-sms-webauthn.e2e.test.ts); here
// the screens' wiring is under test, so the lazily loaded ceremony module is replaced, as in passkeys.test.tsx.
const ceremonies = vi.hoisted(() => ({
  passkeyLogin: vi.fn(async (options: unknown) => ({ id: 'k1', rawId: 'k1', type: 'public-key', response: { clientDataJSON: 'a', authenticatorData: 'b', signature: 'c' }, clientExtensionResults: {}, options })),
  passkeyRegistration: vi.fn(async (options: unknown) => ({ id: 'k1', rawId: 'k1', type: 'public-key', response: { clientDataJSON: 'a', attestationObject: 'b' }, clientExtensionResults: {}, options })),
}));
vi.mock('../../passkeys/ceremonies', () => ceremonies);

const P = {
  login: 'POST /identity/resources/auth/v1/user',
  smsSend: 'POST /identity/resources/auth/v1/user/mfa/sms',
  smsVerify: 'POST /identity/resources/auth/v1/user/mfa/sms/verify',
  smsEnroll: 'POST /identity/resources/auth/v1/user/mfa/sms/enroll',
  smsEnrollVerify: 'POST /identity/resources/auth/v1/user/mfa/sms/enroll/verify',
  keyOptions: 'POST /identity/resources/auth/v1/user/mfa/webauthn',
  keyVerify: 'POST /identity/resources/auth/v1/user/mfa/webauthn/verify',
  keyEnroll: 'POST /identity/resources/auth/v1/user/mfa/webauthn/enroll',
  keyEnrollVerify: 'POST /identity/resources/auth/v1/user/mfa/webauthn/enroll/verify',
  stepUp: 'POST /identity/resources/auth/v1/user/step-up/generate',
  strategies: 'GET /identity/resources/configurations/v1/mfa-strategies',
};
const none: MfaDevices = { webauthn: [], phones: [], authenticators: [], emails: [] };
const strategies = (active: string[]) => ['AuthenticatorApp', 'WebAuthnPlatform', 'WebAuthnCrossPlatform', 'SMS', 'EmailCode'].map((strategy) => ({ strategy, isActive: active.includes(strategy) }));
const mfaRequired = (devices: MfaDevices, active: string[], enrolled = true) => () =>
  json({ accessToken: '', expiresIn: 0, expires: '', mfaRequired: true, mfaToken: 'T'.repeat(43), mfaEnrolled: enrolled, mfaDevices: devices, mfaStrategies: strategies(active), allowRememberDevice: true, rememberDeviceDays: 30 });
const session = () => json({ accessToken: 'x.eyJhY3IiOiJ1cm46Z2F0ZWhvdXNlOmFjcjptZmEifQ.y', expiresIn: 300, expires: '', mfaRequired: false });
const enrolledSession = () => json({ accessToken: 'x.e30.y', expiresIn: 300, expires: '', mfaRequired: false, recoveryCodes: ['AAAAA-BBBBB', 'CCCCC-DDDDD'] });

afterEach(() => {
  ceremonies.passkeyLogin.mockClear();
  ceremonies.passkeyRegistration.mockClear();
});
autoCleanup();

const setup = (path: string, routes: Routes) => renderLoginBox(path, routes, { me: sampleMe, vendor: { allowSignUps: false }, gatehouse: { storage: null } });

async function signInWithPassword(store: GatehouseStore) {
  await act(async () => {
    await store.preLogin('ada@example.com');
    await store.login({ email: 'ada@example.com', password: 'pw' });
  });
}

describe('SMS and security keys in the login box', () => {
  it('forceTwoFactor offers only the methods that are on; SMS: a tel field, then a one-time-code field, then the recovery codes', async () => {
    const { store, calls, navigate } = setup('/account/login', {
      [P.login]: mfaRequired(none, ['AuthenticatorApp', 'SMS'], false),
      [P.smsEnroll]: () => json({ otcToken: 'otc-1', phoneNumber: '+44•••••0958' }),
      [P.smsEnrollVerify]: (b) => (b.code === '123456' ? enrolledSession() : json({ errors: ['Invalid code, please try again'] }, 400)),
    });
    await signInWithPassword(store);
    expect(await screen.findByRole('heading', { name: 'Set up two-factor authentication' })).toBeTruthy();
    const smsChoice = await screen.findByRole('button', { name: 'Set up text message codes' });
    expect(screen.getByRole('button', { name: 'Set up authenticator app' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Set up a security key' })).toBeNull();
    fireEvent.click(smsChoice);

    const phone = await screen.findByLabelText('Phone number');
    expect(phone.getAttribute('type')).toBe('tel');
    expect(phone.getAttribute('autocomplete')).toBe('tel');
    await waitFor(() => expect(document.activeElement).toBe(phone));
    fireEvent.change(phone, { target: { value: '+44 20 7946 0958' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));

    const code = await screen.findByLabelText('Text message code');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(screen.getByRole('status').textContent).toContain('+44•••••0958');
    expect(calls.find((c) => c.key === P.smsEnroll)!.body).toEqual({ mfaToken: 'T'.repeat(43), phoneNumber: '+44 20 7946 0958' });
    fireEvent.change(code, { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify and enable' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid code, please try again');
    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify and enable' }));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(list.textContent).toContain('AAAAA-BBBBB');
    fireEvent.click(screen.getByLabelText('I have saved my recovery codes'));
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(navigate).toHaveBeenCalledWith('/');
  });

  it('forceTwoFactor with a security key runs the creation ceremony on the server options (deviceType cross-platform)', async () => {
    const { store, calls } = setup('/account/login', {
      [P.login]: mfaRequired(none, ['WebAuthnCrossPlatform', 'WebAuthnPlatform'], false),
      [P.keyEnroll]: () => json({ options: { challenge: 'reg' } }),
      [P.keyEnrollVerify]: () => enrolledSession(),
    });
    await signInWithPassword(store);
    fireEvent.click(await screen.findByRole('button', { name: 'Set up a security key' }));
    expect(await screen.findByRole('list', { name: 'Recovery codes' })).toBeTruthy();
    expect(calls.find((c) => c.key === P.keyEnroll)!.body).toEqual({ mfaToken: 'T'.repeat(43), deviceType: 'cross-platform' });
    expect(ceremonies.passkeyRegistration).toHaveBeenCalledWith({ challenge: 'reg' });
    expect(calls.find((c) => c.key === P.keyEnrollVerify)!.body.credential.id).toBe('k1');
    expect(store.getSnapshot().isAuthenticated).toBe(true);
  });

  it('an account with only a phone: "Text me a code", the texted code signs in, "Lost your phone?" leads to the reset route', async () => {
    const phones = { ...none, phones: [{ id: 'p1', phoneNumber: '+44•••••0958', createdAt: '' }] };
    const { store, calls, navigate } = setup('/account/login', {
      [P.login]: mfaRequired(phones, ['SMS']),
      [P.smsSend]: () => json({ otcToken: 'otc-2', phoneNumber: '+44•••••0958' }),
      [P.smsVerify]: () => session(),
    });
    await signInWithPassword(store);
    // No authenticator app: no app code field, the phone is the way in.
    expect(screen.queryByLabelText('Authentication code')).toBeNull();
    fireEvent.click(await screen.findByRole('button', { name: 'Text me a code' }));
    const code = await screen.findByLabelText('Text message code');
    const lost = screen.getByRole('link', { name: 'Lost your phone?' });
    expect(lost.getAttribute('href')).toBe('/account/reset-phone-number');
    fireEvent.change(code, { target: { value: '654321' } });
    fireEvent.click(screen.getByLabelText('Remember this device for 30 days'));
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(store.getSnapshot().isAuthenticated).toBe(true));
    expect(calls.find((c) => c.key === P.smsVerify)!.body).toEqual({ mfaToken: 'T'.repeat(43), otcToken: 'otc-2', code: '654321', rememberDevice: true });
    // Navigation follows the passkey-prompt check, whose chunk loads on first use.
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/'));
  });

  it('an account with an app and a key offers "Use your security key" next to the code field', async () => {
    const both = { ...none, authenticators: [{ id: 'a1', createdAt: '' }], webauthn: [{ id: 'k1', deviceType: 'usb-key', createdAt: '' }] };
    const { store, calls } = setup('/account/login', {
      [P.login]: mfaRequired(both, ['AuthenticatorApp', 'WebAuthnCrossPlatform']),
      [P.keyOptions]: () => json({ options: { challenge: 'get' } }),
      [P.keyVerify]: () => session(),
    });
    await signInWithPassword(store);
    expect(await screen.findByLabelText('Authentication code')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Use your security key' }));
    await waitFor(() => expect(store.getSnapshot().isAuthenticated).toBe(true));
    expect(ceremonies.passkeyLogin).toHaveBeenCalledWith({ challenge: 'get' });
    expect(calls.find((c) => c.key === P.keyVerify)!.body).toMatchObject({ mfaToken: 'T'.repeat(43), credential: { id: 'k1' } });
  });

  it('step-up without a factor (noMFAEnrolledStepUp) offers the methods of the MFA strategies config', async () => {
    const { store } = setup('/account/step-up?maxAge=300', {
      [P.stepUp]: () => json({ errors: ['MFA is not enrolled'], errorCode: 'ER-01303' }, 400),
      [P.strategies]: () => json({ strategies: strategies(['AuthenticatorApp', 'SMS', 'WebAuthnPlatform']) }),
    });
    await act(async () => store.hydrate({ login: { accessToken: 'a.e30.b', expiresIn: 300, expires: '', mfaRequired: false }, me: sampleMe as never }));
    expect(await screen.findByRole('button', { name: 'Set up this device' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Set up text message codes' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Set up a security key' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Set up text message codes' }));
    expect(await screen.findByLabelText('Phone number')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Choose another method' }));
    expect(await screen.findByRole('button', { name: 'Set up authenticator app' })).toBeTruthy();
  });
});
