/** The password field: show/hide, the policy shown before the user fails it, and the strength meter only where a password is chosen. */
import { fireEvent, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { autoCleanup, json, mountLoginBox, sampleVendor } from '../test/harness';

const type = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });
const POLICY = { allowPassphrases: true, maxLength: 128, minLength: 10, minPhraseLength: 20, minOptionalTestsToPass: 3 };

autoCleanup();

describe('password field', () => {
  it('shows and hides the password with a labelled toggle', async () => {
    const { view } = await mountLoginBox('/account/sign-up');
    const password = view.getByLabelText('Password') as HTMLInputElement;
    expect(password.type).toBe('password');
    const toggle = view.getByRole('button', { name: 'Show password' });
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(toggle);
    expect(password.type).toBe('text');
    expect(view.getByRole('button', { name: 'Hide password' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(view.getByRole('button', { name: 'Hide password' }));
    expect(password.type).toBe('password');
  });

  it('lists the policy under the field before anything is typed, ticks met rules, and refuses a short password at the field', async () => {
    const { view, calls } = await mountLoginBox('/account/sign-up', {}, { vendor: { ...sampleVendor, passwordConfig: POLICY } });
    const rules = await view.findByRole('list', { name: 'Password requirements' });
    const items = () => [...rules.querySelectorAll('li')].map((li) => `${li.hasAttribute('data-met') ? '✓' : '·'} ${li.textContent}`);
    expect(items()).toEqual(['· At least 10 characters', '· At least 3 of: lowercase letter, uppercase letter, number, symbol', '· Or a passphrase of 20 or more characters']);
    const password = view.getByLabelText('Password');
    expect(password.getAttribute('aria-describedby')).toContain(rules.id);
    type(password, 'Short1!');
    expect(items()[1]).toMatch(/^✓/);
    expect(items()[0]).toMatch(/^·/);
    type(view.getByLabelText('Name'), 'Ada');
    type(view.getByLabelText('Company name'), 'Acme');
    type(view.getByLabelText('Email'), 'ada@example.com');
    fireEvent.click(view.getByRole('button', { name: 'Sign up' }));
    await waitFor(() => expect(password.getAttribute('aria-invalid')).toBe('true'));
    expect(view.getByText('Use at least 10 characters.')).toBeTruthy();
    expect(calls.some((c) => c.key.includes('signUp'))).toBe(false);
  });

  it('rates a new password with zxcvbn on sign-up (names a common one), and shows no meter on sign-in', async () => {
    const { view } = await mountLoginBox('/account/sign-up');
    type(view.getByLabelText('Password'), 'password');
    expect(await view.findByText(/Strength: too weak\. This is a commonly used password\./, {}, { timeout: 5000 })).toBeTruthy();
    type(view.getByLabelText('Password'), 'violet anchor drizzle 58 lantern');
    expect(await view.findByText(/Strength: strong\./, {}, { timeout: 5000 })).toBeTruthy();
  });

  it('has no strength meter and no policy on the sign-in password', async () => {
    const { view, shadow } = await mountLoginBox('/account/login', { 'POST /identity/resources/auth/v1/user': () => json({}) });
    type(view.getByLabelText('Email'), 'ada@example.com');
    fireEvent.click(view.getByRole('button', { name: 'Continue' }));
    type(await view.findByLabelText('Password'), 'password');
    expect(view.getByRole('button', { name: 'Show password' })).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(shadow.querySelector('.gh-strength')).toBeNull();
    expect(view.queryByRole('list', { name: 'Password requirements' })).toBeNull();
  });
});
