/**
 * Activation by the emailed code (activateWithOTCUrl): the address and the 6 digits sign the user
 * in; a browser that did not sign up is asked to choose the password; a wrong code is said at the
 * form in the user's words; our own validation comes first.
 */
import { fireEvent, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { autoCleanup, json, mountLoginBox, sampleMe } from '../test/harness';

const P = {
  activateCode: 'POST /identity/resources/users/v1/activate/code',
  me: 'GET /identity/resources/users/v2/me',
};
const session = { accessToken: 'a.e30.b', expiresIn: 300, expires: '', mfaRequired: false };

autoCleanup();

async function fillAndSubmit(view: Awaited<ReturnType<typeof mountLoginBox>>['view'], code: string) {
  const field = (await view.findByLabelText('Code')) as HTMLInputElement;
  fireEvent.change(field, { target: { value: code } });
  fireEvent.submit(field.form!);
}

describe('activation by code', () => {
  it('signs in with the address from the link and the code, then shows "Account activated" with Continue', async () => {
    const bodies: unknown[] = [];
    const { view, navigate } = await mountLoginBox('/account/activate/code?email=ada%40example.com', {
      [P.activateCode]: (body) => {
        bodies.push(body);
        return json(session);
      },
      [P.me]: () => json(sampleMe),
    });
    expect(await view.findByRole('heading', { name: 'Enter your activation code' })).toBeTruthy();
    expect((view.getByLabelText('Email') as HTMLInputElement).value).toBe('ada@example.com');
    await fillAndSubmit(view, '123456');
    expect(await view.findByRole('heading', { name: 'Account activated' })).toBeTruthy();
    expect(bodies).toEqual([{ email: 'ada@example.com', code: '123456' }]);
    fireEvent.click(view.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/'));
  });

  it('asks for a password when the server says this browser must choose one, and sends it with the code', async () => {
    const bodies: unknown[] = [];
    const { view } = await mountLoginBox('/account/activate/code?email=ada%40example.com', {
      [P.activateCode]: (body) => {
        bodies.push(body);
        return bodies.length === 1 ? json({ errors: ['Password is required'], errorCode: 'ER-01010' }, 400) : json(session);
      },
      [P.me]: () => json(sampleMe),
    });
    await fillAndSubmit(view, '123456');
    const password = (await view.findByLabelText('Password')) as HTMLInputElement;
    expect(view.getByText('This browser did not create the account: choose its password to finish.')).toBeTruthy();
    fireEvent.change(password, { target: { value: 'a brand new passphrase 7' } });
    fireEvent.change(view.getByLabelText('Confirm password'), { target: { value: 'a brand new passphrase 7' } });
    fireEvent.submit(password.form!);
    expect(await view.findByRole('heading', { name: 'Account activated' })).toBeTruthy();
    expect(bodies).toEqual([
      { email: 'ada@example.com', code: '123456' },
      { email: 'ada@example.com', code: '123456', password: 'a brand new passphrase 7' },
    ]);
  });

  it('refuses fewer than 6 digits at the code field without a call, and words a refused code for people', async () => {
    let calls = 0;
    const { view } = await mountLoginBox('/account/activate/code?email=ada%40example.com', {
      [P.activateCode]: () => {
        calls += 1;
        return json({ errors: ['Invalid or expired code'], errorCode: 'ER-02704' }, 400);
      },
    });
    await fillAndSubmit(view, '12');
    const code = view.getByLabelText('Code') as HTMLInputElement;
    expect(code.getAttribute('aria-invalid')).toBe('true');
    expect(view.getByText('Enter the 6 digits of the code.')).toBeTruthy();
    expect(calls).toBe(0);
    await fillAndSubmit(view, '654321');
    expect(await view.findByText('The code is invalid or has expired')).toBeTruthy();
    expect(calls).toBe(1);
    expect(view.queryByLabelText('Password')).toBeNull();
  });
});
