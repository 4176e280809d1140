import { fireEvent, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { autoCleanup, fieldErrorOf, json, ME_ROUTE, mountLoginBox, sampleMe, sampleVendor } from '../../test/harness';

const P = {
  smsPre: 'POST /identity/resources/auth/v1/passwordless/smscode/prelogin',
  smsPost: 'POST /identity/resources/auth/v1/passwordless/smscode/postlogin',
  phoneSignUp: 'POST /identity/resources/users/v1/signUp/phoneNumber',
  emailSignUp: 'POST /identity/resources/users/v1/signUp',
};
const session = () => json({ accessToken: 'a.b.c', expiresIn: 300, expires: '', mfaRequired: false });
const masked = () => json({ phoneNumber: '+44•••••0123' });
const phoneOnly = { ...sampleVendor, loginStrategy: 'SmsCodeV2', signUpStrategies: { email: { enabled: false, required: false }, phoneNumber: { enabled: true, required: true } } };
const bothOptional = { ...sampleVendor, loginStrategy: 'SmsCodeV2', signUpStrategies: { email: { enabled: true, required: false }, phoneNumber: { enabled: true, required: false } } };
const phoneMe = { ...sampleMe, email: null, phoneNumber: '+447700900123' };

autoCleanup();

const type = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });

describe('SMS sign-in screens', () => {
  it('SmsCodeV2: a Phone number field (tel), then the masked number and a one-time-code field that signs in', async () => {
    const { view, calls, navigate, shadow } = await mountLoginBox('/account/login', { [P.smsPre]: masked, [P.smsPost]: session }, { vendor: phoneOnly, me: phoneMe });
    const phone = (await view.findByLabelText('Phone number')) as HTMLInputElement;
    expect(phone.type).toBe('tel');
    expect(phone.autocomplete).toBe('tel');
    type(phone, '+44 7700 900123');
    fireEvent.submit(phone.form!);
    expect(await view.findByRole('heading', { name: 'Check your phone' })).toBeTruthy();
    expect(view.getByText(/\+44•••••0123/)).toBeTruthy();
    const code = view.getByLabelText('SMS code') as HTMLInputElement;
    expect(code.autocomplete).toBe('one-time-code');
    expect(code.inputMode).toBe('numeric');
    // The step's first field takes focus.
    await waitFor(() => expect(shadow.activeElement).toBe(code));
    type(code, '12a3456');
    expect(code.value).toBe('123456');
    fireEvent.submit(code.form!);
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/'));
    expect(calls.find((c) => c.key === P.smsPre)!.body).toEqual({ phoneNumber: '+44 7700 900123' });
    expect(calls.find((c) => c.key === P.smsPost)!.body).toEqual({ phoneNumber: '+44 7700 900123', code: '123456' });
  });

  it('SmsCode: an Email field; the step names no number, resends on request and goes back', async () => {
    const { view, calls } = await mountLoginBox('/account/login', { [P.smsPre]: () => json({}) }, { vendor: { ...sampleVendor, loginStrategy: 'SmsCode' } });
    const email = (await view.findByLabelText('Email')) as HTMLInputElement;
    type(email, 'ada@example.com');
    fireEvent.submit(email.form!);
    expect(await view.findByRole('heading', { name: 'Check your phone' })).toBeTruthy();
    expect(view.getByText(/has an account with a verified phone number, we texted a 6-digit code/)).toBeTruthy();
    fireEvent.click(view.getByRole('button', { name: 'Text me a new code' }));
    expect((await view.findByRole('status')).textContent).toContain('A new code is on its way');
    expect(calls.filter((c) => c.key === P.smsPre).map((c) => c.body)).toEqual([{ email: 'ada@example.com' }, { email: 'ada@example.com' }]);
    fireEvent.click(view.getByRole('button', { name: 'Use a different account' }));
    expect(((await view.findByLabelText('Email')) as HTMLInputElement).value).toBe('ada@example.com');
  });

  it('a wrong code is announced in an alert and the step stays', async () => {
    const { view } = await mountLoginBox(
      '/account/login',
      { [P.smsPre]: masked, [P.smsPost]: () => json({ errors: ['The code is invalid or has expired'], errorCode: 'ER-01502' }, 400) },
      { vendor: phoneOnly },
    );
    const phone = await view.findByLabelText('Phone number');
    type(phone, '+447700900123');
    fireEvent.submit((phone as HTMLInputElement).form!);
    const code = await view.findByLabelText('SMS code');
    type(code, '000000');
    fireEvent.submit((code as HTMLInputElement).form!);
    expect((await view.findByRole('alert')).textContent).toBe('The code is invalid or has expired');
    expect(view.getByRole('heading', { name: 'Check your phone' })).toBeTruthy();
  });
});

describe('sign-up by phone number', () => {
  it('phone only: Phone number (no email, no password) -> VerifyPhone while the code is texted -> loginWithQuickSmsOtc -> signed in', async () => {
    let release: (r: Response) => void = () => undefined;
    const { view, calls, navigate } = await mountLoginBox(
      '/account/sign-up',
      {
        [P.phoneSignUp]: () => json({ shouldActivate: true, userId: 'u1', tenantId: 't1' }),
        [P.smsPre]: () => new Promise<Response>((r) => (release = r)),
        [P.smsPost]: session,
        [ME_ROUTE]: () => json(phoneMe),
      },
      { vendor: phoneOnly },
    );
    const phone = (await view.findByLabelText('Phone number')) as HTMLInputElement;
    expect(phone.required).toBe(true);
    expect(phone.autocomplete).toBe('tel');
    expect(view.queryByLabelText(/Email/)).toBeNull();
    expect(view.queryByLabelText('Password')).toBeNull();
    type(view.getByLabelText('Name'), 'Grace Hopper');
    type(view.getByLabelText('Company name'), 'Navy Labs');
    type(phone, '+44 7700 900123');
    fireEvent.submit(phone.form!);

    expect(await view.findByRole('heading', { name: 'Verify your phone number' })).toBeTruthy();
    expect(view.getByRole('status').textContent).toContain('+44 7700 900123');
    expect(calls.find((c) => c.key === P.phoneSignUp)!.body).toEqual({ phoneNumber: '+44 7700 900123', name: 'Grace Hopper', companyName: 'Navy Labs' });
    release(masked());

    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/account/login'));
    const code = (await view.findByLabelText('SMS code')) as HTMLInputElement;
    expect(view.getByText(/Enter it to confirm the number and finish signing up/)).toBeTruthy();
    expect(view.getByText(/\+44•••••0123/)).toBeTruthy();
    type(code, '654321');
    fireEvent.click(view.getByRole('button', { name: 'Verify and sign in' }));
    await waitFor(() => expect(navigate).toHaveBeenLastCalledWith('/'));
    expect(calls.find((c) => c.key === P.smsPost)!.body).toEqual({ phoneNumber: '+44 7700 900123', code: '654321' });
    expect(calls.some((c) => c.key === P.emailSignUp)).toBe(false);
  });

  it('a phone sign-up without a number says so at the phone field and calls nothing', async () => {
    const { view, calls } = await mountLoginBox('/account/sign-up', {}, { vendor: phoneOnly });
    const phone = (await view.findByLabelText('Phone number')) as HTMLInputElement;
    // Submitted around the browser's own required check (e.g. a script), the store still refuses it.
    fireEvent.submit(phone.form!);
    await waitFor(() => expect(fieldErrorOf(phone)).toBe('Enter your phone number.'));
    expect(calls.some((c) => c.key === P.phoneSignUp)).toBe(false);
  });

  it('email and phone optional: both fields; an email (with a password) signs up by email, with the phone as a profile field', async () => {
    const { view, calls } = await mountLoginBox('/account/sign-up', { [P.emailSignUp]: () => json({ shouldActivate: true, userId: 'u1', tenantId: 't1' }) }, { vendor: bothOptional });
    const email = (await view.findByLabelText('Email (optional)')) as HTMLInputElement;
    const phone = view.getByLabelText('Phone number (optional)') as HTMLInputElement;
    expect([email.required, phone.required]).toEqual([false, false]);
    // No email typed: a phone sign-up, which has no password.
    expect(view.queryByLabelText('Password')).toBeNull();
    type(view.getByLabelText('Name'), 'Ada');
    type(view.getByLabelText('Company name'), 'Engines');
    type(email, 'ada@example.com');
    type(phone, '+44 20 7946 0958');
    type(view.getByLabelText('Password'), 'correct horse battery');
    fireEvent.submit(email.form!);
    expect(await view.findByRole('heading', { name: 'Check your email' })).toBeTruthy();
    expect(calls.find((c) => c.key === P.emailSignUp)!.body).toEqual({ name: 'Ada', companyName: 'Engines', email: 'ada@example.com', password: 'correct horse battery', phoneNumber: '+44 20 7946 0958' });
  });

  it('when texting the code fails, VerifyPhone shows why and "Text me the code" tries again', async () => {
    const limited = () => json({ errors: ['Too many attempts. Try again in 1 minute.'], errorCode: 'ER-01019' }, 429);
    let texts = 0;
    const { view, navigate } = await mountLoginBox(
      '/account/sign-up',
      { [P.phoneSignUp]: () => json({ shouldActivate: true, userId: 'u1', tenantId: 't1' }), [P.smsPre]: () => (texts++ === 0 ? limited() : masked()) },
      { vendor: phoneOnly },
    );
    const phone = (await view.findByLabelText('Phone number')) as HTMLInputElement;
    type(view.getByLabelText('Name'), 'Grace');
    type(view.getByLabelText('Company name'), 'Navy');
    type(phone, '+447700900123');
    fireEvent.submit(phone.form!);
    expect((await view.findByRole('alert')).textContent).toBe('Too many attempts. Try again in 1 minute.');
    expect(view.getByRole('heading', { name: 'Verify your phone number' })).toBeTruthy();
    fireEvent.click(view.getByRole('button', { name: 'Text me the code' }));
    expect(await view.findByLabelText('SMS code')).toBeTruthy();
    expect(navigate).toHaveBeenCalledWith('/account/login');
    expect(texts).toBe(2);
  });

  it('the default strategies keep the email form (no phone field)', async () => {
    const { view } = await mountLoginBox('/account/sign-up');
    expect(await view.findByLabelText('Email')).toBeTruthy();
    expect(view.queryByLabelText(/Phone number/)).toBeNull();
  });

  it('"Back to sign up" leaves loginWithQuickSmsOtc for the sign-up route', async () => {
    const { view, navigate } = await mountLoginBox('/account/sign-up', { [P.phoneSignUp]: () => json({ shouldActivate: true, userId: 'u1', tenantId: 't1' }), [P.smsPre]: masked }, { vendor: phoneOnly });
    const phone = (await view.findByLabelText('Phone number')) as HTMLInputElement;
    type(view.getByLabelText('Name'), 'Grace');
    type(view.getByLabelText('Company name'), 'Navy');
    type(phone, '+447700900123');
    fireEvent.submit(phone.form!);
    fireEvent.click(await view.findByRole('button', { name: 'Back to sign up' }));
    expect(navigate).toHaveBeenLastCalledWith('/account/sign-up');
    expect(await view.findByRole('heading', { name: 'Create your account' })).toBeTruthy();
  });
});
