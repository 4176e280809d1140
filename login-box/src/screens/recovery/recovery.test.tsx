import { fireEvent, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { autoCleanup, fieldErrorOf, json, mountLoginBox as mountAt } from '../../test/harness';

const P = {
  strategies: 'GET /identity/resources/users/v1/passwords/recovery/strategies',
  sms: 'POST /identity/resources/users/v2/passwords/reset/sms',
  smsVerify: 'POST /identity/resources/users/v2/passwords/reset/sms/verify',
  verify: 'POST /identity/resources/users/v1/passwords/reset/verify',
  vendor: 'GET /vendors/public',
};

autoCleanup();

const type = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });

describe('forgot password screen', () => {
  it('email -> channel choice -> SMS code -> new password -> success, with labels, autocomplete and focused alerts', async () => {
    const { view, shadow, calls } = await mountAt('/account/forget-password', {
      [P.strategies]: () => json({ strategies: [{ strategy: 'email', isActive: true }, { strategy: 'sms', isActive: true }] }),
      [P.sms]: () => json({ sessionId: 's-1' }),
      [P.smsVerify]: (body) => ((body as { otcToken: string }).otcToken === '123456' ? json({ userId: 'u1', token: 't1' }) : json({ errors: ['The code is invalid or has expired'], errorCode: 'ER-01402' }, 400)),
      [P.verify]: () => json({}),
    });
    expect(view.getByRole('heading', { name: 'Forgot password?' })).toBeTruthy();
    const email = view.getByLabelText('Email') as HTMLInputElement;
    await waitFor(() => expect(shadow.activeElement).toBe(email));
    type(email, 'ada@example.com');
    fireEvent.submit(email.form!);
    const textMe = await view.findByRole('button', { name: 'Text me a code' });
    expect(view.getByRole('group')).toBeTruthy();
    await waitFor(() => expect(shadow.activeElement).toBe(view.getByRole('button', { name: 'Email me a reset link' })));
    fireEvent.click(textMe);

    const code = (await view.findByLabelText('Code')) as HTMLInputElement;
    expect(code.autocomplete).toBe('one-time-code');
    expect(code.inputMode).toBe('numeric');
    await waitFor(() => expect(shadow.activeElement).toBe(code));
    type(code, '12-34-50');
    expect(code.value).toBe('123450');
    fireEvent.submit(code.form!);
    // The wording of server errors comes with a lazy chunk: wait for the alert to settle on it.
    await waitFor(() => expect(view.getByRole('alert').textContent).toBe('The code is invalid or has expired'));
    await waitFor(() => expect(shadow.activeElement).toBe(view.getByRole('alert')));

    type(code, '123456');
    fireEvent.submit(code.form!);
    const fresh = (await view.findByLabelText('New password')) as HTMLInputElement;
    expect(fresh.autocomplete).toBe('new-password');
    expect((view.getByLabelText('Confirm new password') as HTMLInputElement).autocomplete).toBe('new-password');
    type(fresh, 'new passphrase 1');
    type(view.getByLabelText('Confirm new password'), 'new passphrase 1');
    fireEvent.submit(fresh.form!);
    await waitFor(() => expect(view.getAllByRole('status').map((el: HTMLElement) => el.textContent).join(' ')).toContain('Your password has been reset'));
    expect(calls.find((c) => c.key === P.verify)!.body).toEqual({ userId: 'u1', token: 't1', password: 'new passphrase 1' });
  });
});

describe('reset password screen', () => {
  it('explains an incomplete link and offers a new one', async () => {
    const { view } = await mountAt('/account/reset-password?userId=u1', {});
    expect((await view.findByRole('alert')).textContent).toContain('incomplete');
    expect(view.getByRole('link', { name: 'Request a new one' }).getAttribute('href')).toBe('/account/forget-password');
  });

  it("checks the confirmation locally, shows the server's refusal, then succeeds", async () => {
    let answer = json({ errors: ['The password reset link is invalid or has expired'], errorCode: 'ER-01401' }, 400);
    const { view, calls } = await mountAt('/account/reset-password?userId=u1&token=tok', { [P.verify]: () => answer });
    const fresh = (await view.findByLabelText('New password')) as HTMLInputElement;
    type(fresh, 'new passphrase 1');
    type(view.getByLabelText('Confirm new password'), 'different');
    fireEvent.submit(fresh.form!);
    await waitFor(() => expect(fieldErrorOf(view.getByLabelText('Confirm new password'))).toBe('Passwords do not match'));
    expect(calls.some((c) => c.key === P.verify)).toBe(false);
    type(view.getByLabelText('Confirm new password'), 'new passphrase 1');
    fireEvent.submit(fresh.form!);
    await waitFor(() => expect(view.getByRole('alert').textContent).toBe('The password reset link is invalid or has expired'));
    answer = json({});
    fireEvent.submit(fresh.form!);
    expect((await view.findByRole('status')).textContent).toContain('Your password has been reset');
    expect(view.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/account/login');
  });
});

describe('login screen', () => {
  it("offers 'Forgot password?' on the password step", async () => {
    const { view, navigate } = await mountAt('/account/login', {});
    expect(view.queryByRole('link', { name: 'Forgot password?' })).toBeNull();
    const email = view.getByLabelText('Email');
    type(email, 'ada@example.com');
    fireEvent.submit((email as HTMLInputElement).form!);
    const link = await view.findByRole('link', { name: 'Forgot password?' });
    expect(link.getAttribute('href')).toBe('/account/forget-password');
    fireEvent.click(link);
    expect(navigate).toHaveBeenCalledWith('/account/forget-password');
    expect(await view.findByRole('heading', { name: 'Forgot password?' })).toBeTruthy();
    expect((view.getByLabelText('Email') as HTMLInputElement).value).toBe('ada@example.com');
  });
});
