import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { GatehouseStore } from '@gatehouse/shared';
import { autoCleanup, json, renderLoginBox, sampleMe, type Routes } from '../../test/harness';

const P = {
  login: 'POST /identity/resources/auth/v1/user',
  me: 'GET /identity/resources/users/v2/me',
  verify: 'POST /identity/resources/auth/v1/user/mfa/verify',
  recover: 'POST /identity/resources/auth/v1/user/mfa/recover',
  enroll: 'POST /identity/resources/auth/v1/user/mfa/authenticator/enroll',
  enrollVerify: 'POST /identity/resources/auth/v1/user/mfa/authenticator/enroll/verify',
  stepUp: 'POST /identity/resources/auth/v1/user/step-up/generate',
  vendor: 'GET /vendors/public',
};
const devices = { webauthn: [], phones: [], authenticators: [{ id: 'd1', createdAt: '' }], emails: [] };
const mfaRequired = (enrolled: boolean) => json({ accessToken: '', expiresIn: 0, expires: '', mfaRequired: true, mfaToken: 'T'.repeat(43), mfaEnrolled: enrolled, mfaDevices: enrolled ? devices : { webauthn: [], phones: [], authenticators: [], emails: [] }, mfaStrategies: [], allowRememberDevice: true, rememberDeviceDays: 30 });
const session = json.bind(null, { accessToken: 'x.eyJhY3IiOiJ1cm46Z2F0ZWhvdXNlOmFjcjptZmEifQ.y', expiresIn: 300, expires: '', mfaRequired: false });

autoCleanup();

const setup = (path: string, routes: Routes) => renderLoginBox(path, routes, { me: sampleMe, vendor: { allowSignUps: false }, gatehouse: { storage: null } });

async function signInWithPassword(store: GatehouseStore) {
  await act(async () => {
    await store.preLogin('ada@example.com');
    await store.login({ email: 'ada@example.com', password: 'pw' });
  });
}

describe('MFA step in the login box', () => {
  it('asks for the code in an accessible one-time-code field and signs in after verify', async () => {
    const { store, calls, navigate } = setup('/account/login', { [P.login]: () => mfaRequired(true), [P.verify]: (b) => (b.value === '123456' ? session() : json({ errors: ['Invalid code, please try again'] }, 400)) });
    await signInWithPassword(store);
    const field = await screen.findByLabelText('Authentication code');
    expect(field.getAttribute('autocomplete')).toBe('one-time-code');
    expect(field.getAttribute('inputmode')).toBe('numeric');
    await waitFor(() => expect(document.activeElement).toBe(field));
    expect(store.getSnapshot().isAuthenticated).toBe(false);

    fireEvent.change(field, { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Invalid code, please try again');

    fireEvent.change(field, { target: { value: '12 34-56' } });
    expect((field as HTMLInputElement).value).toBe('123456');
    fireEvent.click(screen.getByLabelText('Remember this device for 30 days'));
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(store.getSnapshot().isAuthenticated).toBe(true));
    expect(calls.find((c) => c.key === P.verify && c.body.value === '123456')!.body.rememberDevice).toBe(true);
    // Navigation follows the passkey-prompt check, whose chunk loads on first use.
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/'));
  });

  it('recoverTwoFactor: "Use a recovery code" shows the recovery form', async () => {
    const { store, calls } = setup('/account/login', { [P.login]: () => mfaRequired(true), [P.recover]: () => session() });
    await signInWithPassword(store);
    fireEvent.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    const field = await screen.findByLabelText('Recovery code');
    fireEvent.change(field, { target: { value: 'ABCDE-FGHJK' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(store.getSnapshot().isAuthenticated).toBe(true));
    expect(calls.find((c) => c.key === P.recover)!.body.recoveryCode).toBe('ABCDE-FGHJK');
  });

  it('forceTwoFactor: shows QR image, secret and URI, then the recovery codes once until confirmed', async () => {
    const { store, navigate } = setup('/account/login', {
      [P.login]: () => mfaRequired(false),
      [P.enroll]: () => json({ qrCode: 'data:image/png;base64,iVBORw0KGgo=', uri: 'otpauth://totp/Gatehouse:ada?secret=JBSWY3DPEHPK3PXP', secret: 'JBSWY3DPEHPK3PXP' }),
      [P.enrollVerify]: () => json({ accessToken: 'a.e30.b', expiresIn: 300, expires: '', mfaRequired: false, recoveryCodes: ['AAAAA-BBBBB', 'CCCCC-DDDDD'] }),
    });
    await signInWithPassword(store);
    const img = await screen.findByRole('img', { name: /QR code/ });
    expect(img.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    expect((screen.getByLabelText('Secret key') as HTMLInputElement).value).toBe('JBSWY3DPEHPK3PXP');
    expect((screen.getByLabelText('Setup link (otpauth URI)') as HTMLInputElement).value).toContain('otpauth://');
    fireEvent.change(screen.getByLabelText('Code from the app'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify and enable' }));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(list.textContent).toContain('AAAAA-BBBBB');
    const next = screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement;
    expect(next.disabled).toBe(true);
    fireEvent.click(screen.getByLabelText('I have saved my recovery codes'));
    fireEvent.click(next);
    expect(navigate).toHaveBeenCalledWith('/');
    expect(store.getSnapshot().mfa.recoveryCodes).toEqual([]);
  });

  it('step-up route: noMFAEnrolledStepUp offers enrolment', async () => {
    const { store } = setup('/account/step-up?maxAge=300', { [P.stepUp]: () => json({ errors: ['MFA is not enrolled'], errorCode: 'ER-01303' }, 400) });
    await act(async () => store.hydrate({ login: { accessToken: 'a.e30.b', expiresIn: 300, expires: '', mfaRequired: false }, me: sampleMe as never }));
    expect(await screen.findByRole('button', { name: 'Set up authenticator app' })).toBeTruthy();
    expect(store.getSnapshot().mfa.step).toBe('noMFAEnrolledStepUp');
  });
});
