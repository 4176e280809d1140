/**
 * The seed's fixed waits stay, with a way through: a success state with its heading and a Continue
 * button that goes at once; a password reset signs the user in; the recovery chooser has one Back.
 */
import { fireEvent, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { autoCleanup, json, mountLoginBox, sampleMe } from '../test/harness';

const P = {
  strategy: 'GET /identity/resources/users/v1/activate/strategy',
  activate: 'POST /identity/resources/users/v1/activate',
  me: 'GET /identity/resources/users/v2/me',
  resetVerify: 'POST /identity/resources/users/v1/passwords/reset/verify',
  strategies: 'GET /identity/resources/users/v1/passwords/recovery/strategies',
  unlock: 'POST /identity/resources/auth/v1/user/unlock',
};
const session = { accessToken: 'a.e30.b', expiresIn: 300, expires: '', mfaRequired: false };

autoCleanup();

describe('success states', () => {
  it('activation: "Account activated" and Continue goes on before the 5 s wait', async () => {
    const { view, navigate } = await mountLoginBox('/account/activate?userId=u1&token=tk', { [P.strategy]: () => json({ shouldSetPassword: false }), [P.activate]: () => json(session), [P.me]: () => json(sampleMe) });
    expect(await view.findByRole('heading', { name: 'Account activated' })).toBeTruthy();
    expect(view.getByRole('status').textContent).toContain('Your account is activated.');
    expect(navigate).not.toHaveBeenCalled();
    const started = Date.now();
    fireEvent.click(view.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/'));
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('a password reset that the server answers like a login signs the user in, with Continue', async () => {
    const { view, navigate, store } = await mountLoginBox('/account/reset-password?userId=u1&token=tok', { [P.resetVerify]: () => json(session), [P.me]: () => json(sampleMe) });
    const fresh = (await view.findByLabelText('New password')) as HTMLInputElement;
    fireEvent.change(fresh, { target: { value: 'a new passphrase 1' } });
    fireEvent.change(view.getByLabelText('Confirm new password'), { target: { value: 'a new passphrase 1' } });
    fireEvent.submit(fresh.form!);
    expect(await view.findByRole('heading', { name: 'Password reset' })).toBeTruthy();
    await waitFor(() => expect(view.getByRole('status').textContent).toContain('Your password has been reset and you are signed in.'));
    expect(store.getSnapshot().isAuthenticated).toBe(true);
    fireEvent.click(view.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(navigate).toHaveBeenCalled());
  });

  it('the recovery chooser offers its two ways side by side and exactly one Back', async () => {
    const { view, shadow } = await mountLoginBox('/account/forget-password', { [P.strategies]: () => json({ strategies: [{ strategy: 'email', isActive: true }, { strategy: 'sms', isActive: true }] }) });
    const email = view.getByLabelText('Email') as HTMLInputElement;
    fireEvent.change(email, { target: { value: 'ada@example.com' } });
    fireEvent.submit(email.form!);
    await view.findByRole('button', { name: 'Text me a code' });
    const choices = shadow.querySelector('.gh-choices')!;
    expect([...choices.children].map((b) => b.textContent)).toEqual(['Email me a reset link', 'Text me a code']);
    expect(view.getAllByRole('button', { name: 'Back' })).toHaveLength(1);
    expect(view.queryByRole('link', { name: 'Back to sign in' })).toBeNull();
    fireEvent.click(view.getByRole('button', { name: 'Back' }));
    expect(await view.findByLabelText('Email')).toBeTruthy();
  });
});
