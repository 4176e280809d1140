import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { autoCleanup, json, mountLoginBox, renderLoginBox, sampleMe, type Routes } from '../../test/harness';

const P = {
  login: 'POST /identity/resources/auth/v1/user',
  smsSend: 'POST /identity/resources/auth/v1/user/mfa/sms',
  reset: 'POST /identity/resources/users/v1/phone/reset',
  resetVerify: 'POST /identity/resources/users/v1/phone/reset/verify',
  change: 'PUT /identity/resources/users/v1/phone/change',
  verify: 'POST /identity/resources/users/v1/phone/verify',
};
const masked = '+44•••••0958';
const MFA_TOKEN = 'T'.repeat(43);
const HINT = /If your phone also confirms your sign-ins, sign in with your password first/;
const NEEDS_PASSWORD = "Your phone also confirms your sign-ins, so it can only be replaced after your password. Sign in with your password first, then choose 'Lost your phone?'. If you cannot, sign in with one of your recovery codes.";
/** A password sign-in waiting for the texted code of the account's only phone. */
const smsSignIn = () =>
  json({
    accessToken: '', expiresIn: 0, expires: '', mfaRequired: true, mfaToken: MFA_TOKEN, mfaEnrolled: true,
    mfaDevices: { webauthn: [], phones: [{ id: 'p1', phoneNumber: masked, createdAt: '' }], authenticators: [], emails: [] },
    mfaStrategies: [{ strategy: 'SMS', isActive: true }], allowRememberDevice: false, rememberDeviceDays: 0,
  });

autoCleanup();

const setup = (routes: Routes) => renderLoginBox('/account/reset-phone-number', routes, { vendor: { allowSignUps: false }, gatehouse: { storage: null } });

describe('reset phone number route', () => {
  it('ResetPhoneNumber -> VerifyResetPhoneNumber -> ChangePhoneNumber: email, emailed code, new number, texted code', async () => {
    const { calls, navigate } = setup({
      [P.reset]: () => json({ resetPhoneNumberToken: 'R'.repeat(43) }),
      [P.resetVerify]: (b) => (b.code === '111111' ? json({ changePhoneNumberToken: 'C'.repeat(43) }) : json({ errors: ['The code is invalid or has expired'], errorCode: 'ER-01309' }, 400)),
      [P.change]: () => json({ changePhoneId: 'I'.repeat(43), phoneNumber: masked }),
      [P.verify]: () => json({ phoneNumber: masked }),
    });
    expect(await screen.findByRole('heading', { name: 'Reset phone number' })).toBeTruthy();
    // Opened directly: it says where a phone that confirms sign-ins is reset from.
    expect(screen.getByText(HINT)).toBeTruthy();
    const email = screen.getByLabelText('Email');
    expect(email.getAttribute('autocomplete')).toBe('username');
    await waitFor(() => expect(document.activeElement).toBe(email));
    fireEvent.change(email, { target: { value: 'ada@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Email me a code' }));

    // The same words whether or not the account exists.
    expect((await screen.findByRole('status')).textContent).toContain('If ada@example.com belongs to an account with a phone number');
    const emailCode = screen.getByLabelText('Email code');
    expect(emailCode.getAttribute('autocomplete')).toBe('one-time-code');
    fireEvent.change(emailCode, { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The code is invalid or has expired');
    fireEvent.change(screen.getByLabelText('Email code'), { target: { value: '111111' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));

    const phone = await screen.findByLabelText('New phone number');
    // No sign-in was waiting: nothing but the emailed code goes.
    expect(calls.filter((c) => c.key === P.resetVerify).at(-1)!.body).toEqual({ resetPhoneNumberToken: 'R'.repeat(43), code: '111111' });
    expect(phone.getAttribute('type')).toBe('tel');
    expect(phone.getAttribute('autocomplete')).toBe('tel');
    fireEvent.change(phone, { target: { value: '+44 20 7946 0958' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    const smsCode = await screen.findByLabelText('Text message code');
    expect(screen.getByRole('status').textContent).toContain(masked);
    expect(calls.find((c) => c.key === P.change)!.body).toEqual({ changePhoneNumberToken: 'C'.repeat(43), phoneNumber: '+44 20 7946 0958' });
    fireEvent.change(smsCode, { target: { value: '222222' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change phone number' }));

    expect(await screen.findByRole('heading', { name: 'Phone number changed' })).toBeTruthy();
    expect(calls.find((c) => c.key === P.verify)!.body).toEqual({ changePhoneId: 'I'.repeat(43), code: '222222' });
    fireEvent.click(screen.getByRole('link', { name: 'Sign in' }));
    expect(navigate).toHaveBeenCalledWith('/account/login');
  });

  it('"Lost your phone?" on the SMS step of a password sign-in: the reset sends that sign-in\'s mfaToken (from the store, never the URL) with the emailed code', async () => {
    const { store, calls, navigate } = await mountLoginBox(
      '/account/login',
      {
        [P.login]: smsSignIn,
        [P.smsSend]: () => json({ otcToken: 'otc-1', phoneNumber: masked }),
        [P.reset]: () => json({ resetPhoneNumberToken: 'R'.repeat(43) }),
        [P.resetVerify]: () => json({ changePhoneNumberToken: 'C'.repeat(43) }),
        [P.change]: () => json({ changePhoneId: 'I'.repeat(43), phoneNumber: masked }),
        [P.verify]: () => json({ phoneNumber: masked }),
      },
      { shadow: false, me: sampleMe, vendor: { allowSignUps: false }, gatehouse: { storage: null } },
    );
    await act(async () => {
      await store.preLogin('ada@example.com');
      await store.login({ email: 'ada@example.com', password: 'pw' });
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Text me a code' }));
    await screen.findByLabelText('Text message code');
    fireEvent.click(screen.getByRole('link', { name: 'Lost your phone?' }));

    expect(await screen.findByRole('heading', { name: 'Reset phone number' })).toBeTruthy();
    expect(navigate).toHaveBeenCalledWith('/account/reset-phone-number');
    expect(window.location.href).not.toContain(MFA_TOKEN.slice(0, 8));
    // Started from the sign-in: the email is carried over and the "sign in first" hint is not needed.
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('ada@example.com');
    expect(screen.queryByText(HINT)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Email me a code' }));
    fireEvent.change(await screen.findByLabelText('Email code'), { target: { value: '111111' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));

    fireEvent.change(await screen.findByLabelText('New phone number'), { target: { value: '+44 20 7946 0958' } });
    expect(calls.find((c) => c.key === P.resetVerify)!.body).toEqual({ resetPhoneNumberToken: 'R'.repeat(43), code: '111111', mfaToken: MFA_TOKEN });
    expect(calls.find((c) => c.key === P.reset)!.body).toEqual({ email: 'ada@example.com' });
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    fireEvent.change(await screen.findByLabelText('Text message code'), { target: { value: '222222' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change phone number' }));
    expect(await screen.findByRole('heading', { name: 'Phone number changed' })).toBeTruthy();
    // The sign-in starts over with the new phone.
    expect(store.getSnapshot().login.step).toBe('preLogin');
    expect(store.getSnapshot().mfa.mfaToken).toBeNull();
  });

  it('opened directly for an account whose phone confirms sign-ins: the refusal is announced with the way out, and "Back to sign in"', async () => {
    const { navigate } = setup({
      [P.reset]: () => json({ resetPhoneNumberToken: 'R'.repeat(43) }),
      [P.resetVerify]: () => json({ errors: [NEEDS_PASSWORD], errorCode: 'ER-01310' }, 403),
    });
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'ada@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Email me a code' }));
    fireEvent.change(await screen.findByLabelText('Email code'), { target: { value: '111111' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toBe(NEEDS_PASSWORD);
    expect(screen.getByLabelText('Email code')).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Back to sign in' }));
    expect(navigate).toHaveBeenCalledWith('/account/login');
  });

  it('"Use a different number" goes back to the number while a code is out', async () => {
    const { calls } = setup({
      [P.reset]: () => json({ resetPhoneNumberToken: 'R'.repeat(43) }),
      [P.resetVerify]: () => json({ changePhoneNumberToken: 'C'.repeat(43) }),
      [P.change]: () => json({ changePhoneId: 'I'.repeat(43), phoneNumber: masked }),
    });
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'ada@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Email me a code' }));
    fireEvent.change(await screen.findByLabelText('Email code'), { target: { value: '111111' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    fireEvent.change(await screen.findByLabelText('New phone number'), { target: { value: '+44 20 7946 0000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Use a different number' }));
    const phone = await screen.findByLabelText('New phone number');
    fireEvent.change(phone, { target: { value: '+44 20 7946 0958' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByLabelText('Text message code')).toBeTruthy();
    expect(calls.filter((c) => c.key === P.change).map((c) => c.body.phoneNumber)).toEqual(['+44 20 7946 0000', '+44 20 7946 0958']);
  });
});
