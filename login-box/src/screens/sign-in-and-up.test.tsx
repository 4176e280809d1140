/**
 * Issue 11 section 2 in the login box: the unactivated account with the right password, the
 * sign-up success choices, errors at their fields in words a person uses, and "Sign in instead".
 */
import { fireEvent, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { autoCleanup, fieldErrorOf, json, mountLoginBox } from '../test/harness';

const P = {
  login: 'POST /identity/resources/auth/v1/user',
  signUp: 'POST /identity/resources/users/v1/signUp',
  resend: 'POST /identity/resources/users/v1/activate/reset',
};
const type = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });

autoCleanup();
beforeEach(() => window.sessionStorage.clear());

async function toPasswordStep(view: Awaited<ReturnType<typeof mountLoginBox>>['view'], email = 'ada@example.com') {
  type(view.getByLabelText('Email'), email);
  fireEvent.click(view.getByRole('button', { name: 'Continue' }));
  return (await view.findByLabelText('Password')) as HTMLInputElement;
}

describe('an account not activated yet', () => {
  it('with the right password is told to verify the email and can have the activation email sent again', async () => {
    const { view, calls } = await mountLoginBox('/account/login', {
      [P.login]: () => json({ errors: ['Please verify your email address first: open the activation link we sent you, or ask for a new one'], errorCode: 'ER-01007', errorContext: { resendActivation: true } }, 400),
      [P.resend]: () => new Response(null, { status: 204 }),
    });
    type(await toPasswordStep(view), 'the right one');
    fireEvent.click(view.getByRole('button', { name: 'Sign in' }));
    const notice = await view.findByRole('alert');
    expect(notice.textContent).toContain('Please verify your email address first. Open the activation link we sent to ada@example.com');
    fireEvent.click(view.getByRole('button', { name: 'Resend activation email' }));
    expect(await view.findByText(/We sent a new activation link to ada@example.com/)).toBeTruthy();
    expect(calls.find((c) => c.key === P.resend)!.body).toEqual({ email: 'ada@example.com' });
  });

  it('with a wrong password gets the generic message and no resend offer', async () => {
    const { view } = await mountLoginBox('/account/login', { [P.login]: () => json({ errors: ['Invalid email or password'], errorCode: 'ER-01006' }, 401) });
    type(await toPasswordStep(view), 'wrong');
    fireEvent.click(view.getByRole('button', { name: 'Sign in' }));
    expect((await view.findByRole('alert')).textContent).toBe('Invalid email or password');
    expect(view.queryByRole('button', { name: 'Resend activation email' })).toBeNull();
  });
});

describe('errors at their fields', () => {
  it('validates without browser bubbles: the message under the field, aria-invalid, aria-describedby, focus on the first invalid field', async () => {
    const { view, shadow, calls } = await mountLoginBox('/account/sign-up');
    const form = view.getByRole('button', { name: 'Sign up' }).closest('form')!;
    expect(form.noValidate).toBe(true);
    type(view.getByLabelText('Name'), 'Ada');
    type(view.getByLabelText('Email'), 'not-an-email');
    fireEvent.submit(form);
    const company = view.getByLabelText('Company name');
    await waitFor(() => expect(fieldErrorOf(company)).toBe('Enter your company’s name.'));
    expect(fieldErrorOf(view.getByLabelText('Email'))).toBe('Enter an email address like name@example.com.');
    expect(fieldErrorOf(view.getByLabelText('Name'))).toBeNull();
    await waitFor(() => expect(shadow.activeElement).toBe(company));
    expect(view.queryByRole('alert')).toBeNull();
    expect(calls.some((c) => c.key === P.signUp)).toBe(false);
    // Fixing a field clears its error at once.
    type(company, 'Acme');
    expect(fieldErrorOf(company)).toBeNull();
  });

  it('puts a server validation error on the field it names, in words, never the raw "email: Invalid email address"', async () => {
    const { view, shadow } = await mountLoginBox('/account/sign-up', { [P.signUp]: () => json({ errors: ['email: Invalid email address'], errorCode: 'ER-01001' }, 400) });
    type(view.getByLabelText('Name'), 'Ada');
    type(view.getByLabelText('Company name'), 'Acme');
    type(view.getByLabelText('Email'), 'ada@example.com');
    type(view.getByLabelText('Password'), 'a long enough passphrase');
    fireEvent.click(view.getByRole('button', { name: 'Sign up' }));
    const email = view.getByLabelText('Email');
    await waitFor(() => expect(fieldErrorOf(email)).toBe('Enter an email address like name@example.com.'));
    expect(shadow.textContent).not.toContain('email: Invalid email address');
    await waitFor(() => expect(shadow.activeElement).toBe(email));
  });

  it('offers "Sign in instead" at the email when the user already exists', async () => {
    const { view } = await mountLoginBox('/account/sign-up', { [P.signUp]: () => json({ errors: ['User already exists'], errorCode: 'ER-01008' }, 409) });
    type(view.getByLabelText('Name'), 'Ada');
    type(view.getByLabelText('Company name'), 'Acme');
    type(view.getByLabelText('Email'), 'ada@example.com');
    type(view.getByLabelText('Password'), 'a long enough passphrase');
    fireEvent.click(view.getByRole('button', { name: 'Sign up' }));
    await waitFor(() => expect(fieldErrorOf(view.getByLabelText('Email'))).toBe('An account with this email already exists.'));
    expect(view.getByRole('link', { name: 'Sign in instead' }).getAttribute('href')).toBe('/account/login');
  });
});

describe('sign-up success', () => {
  it('offers Resend and Use a different email', async () => {
    const { view, calls, shadow } = await mountLoginBox('/account/sign-up', {
      [P.signUp]: () => json({ shouldActivate: true, userId: 'u1' }),
      [P.resend]: () => new Response(null, { status: 204 }),
    });
    type(view.getByLabelText('Name'), 'Ada');
    type(view.getByLabelText('Company name'), 'Acme');
    type(view.getByLabelText('Email'), 'ada@example.com');
    type(view.getByLabelText('Password'), 'a long enough passphrase');
    fireEvent.click(view.getByRole('button', { name: 'Sign up' }));
    expect(await view.findByRole('heading', { name: 'Check your email' })).toBeTruthy();
    fireEvent.click(view.getByRole('button', { name: 'Resend' }));
    expect(await view.findByText('We sent a new activation link to ada@example.com.')).toBeTruthy();
    expect(calls.find((c) => c.key === P.resend)!.body).toEqual({ email: 'ada@example.com' });
    fireEvent.click(view.getByRole('button', { name: 'Use a different email' }));
    const email = (await view.findByLabelText('Email')) as HTMLInputElement;
    expect(email.value).toBe('');
    expect((view.getByLabelText('Name') as HTMLInputElement).value).toBe('Ada');
    await waitFor(() => expect(shadow.activeElement).toBe(email));
  });
});
