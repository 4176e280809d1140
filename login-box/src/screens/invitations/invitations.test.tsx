import { fireEvent, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { autoCleanup, fieldErrorOf, json, ME_ROUTE, mountLoginBox, sampleMe } from '../../test/harness';

const P = {
  verify: 'POST /identity/resources/users/v1/invitation/verify',
  accept: 'POST /identity/resources/users/v1/invitation/accept',
  acceptCode: 'POST /identity/resources/users/v1/invitation/accept/code',
  resend: 'POST /identity/resources/users/v1/invitation/reset',
};
const greeting = (extra: Record<string, unknown> = {}) => () => json({ name: 'Grace', email: 'grace@example.com', tenantName: 'Acme', shouldSetPassword: true, codeRequired: false, ...extra });
const signedIn = () => json({ outcome: 'signedIn', tenantId: 't1', authResponse: { accessToken: 'a.b.c', expiresIn: 300, expires: '', mfaRequired: false } });

autoCleanup();

const type = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });

describe('accept invitation screen', () => {
  it('greets the invitee by name, asks a new account for a password and signs it in', async () => {
    const { view, calls } = await mountLoginBox('/account/invitation/accept?userId=u1&token=tok', { [P.verify]: greeting(), [P.accept]: signedIn, [ME_ROUTE]: () => json(sampleMe) });
    expect(await view.findByText(/Hi Grace, you’re invited to join/)).toBeTruthy();
    expect(view.getByText(/invited to join Acme\./)).toBeTruthy();
    const email = view.getByLabelText('Email') as HTMLInputElement;
    expect(email.readOnly).toBe(true);
    expect(email.autocomplete).toBe('username');
    const password = view.getByLabelText('Password') as HTMLInputElement;
    expect(password.autocomplete).toBe('new-password');
    // The first editable field has focus.
    await waitFor(() => expect(password.getRootNode() instanceof ShadowRoot ? (password.getRootNode() as ShadowRoot).activeElement : document.activeElement).toBe(password));
    type(password, 'a good passphrase');
    type(view.getByLabelText('Confirm password'), 'a good passphrase');
    fireEvent.click(view.getByRole('button', { name: 'Accept invitation' }));
    expect((await view.findByRole('status')).textContent).toContain('Welcome to Acme! Your account is ready');
    expect(calls.find((c) => c.key === P.accept)!.body).toEqual({ userId: 'u1', token: 'tok', password: 'a good passphrase' });
    expect(calls.filter((c) => c.key === P.verify)).toHaveLength(1);
  });

  it('shows a loading status, and greets nobody, until the link is verified', async () => {
    let answer: (response: Response) => void = () => undefined;
    const { view } = await mountLoginBox('/account/invitation/accept?userId=u1&token=tok', { [P.verify]: () => new Promise<Response>((resolve) => (answer = resolve)) });
    expect((await view.findByRole('status')).textContent).toContain('Checking your invitation…');
    expect(view.queryByText(/invited to join/)).toBeNull();
    expect(view.queryByRole('button', { name: 'Accept invitation' })).toBeNull();
    answer(greeting()());
    expect(await view.findByText(/Hi Grace, you’re invited to join/)).toBeTruthy();
  });

  it('catches mismatched passwords before any call, and shows a refused password in an alert on the form', async () => {
    const { view, calls } = await mountLoginBox('/account/invitation/accept?userId=u1&token=tok', {
      [P.verify]: greeting(),
      [P.accept]: () => json({ errors: ['This password appears in a list of breached passwords'], errorCode: 'ER-01603' }, 400),
    });
    const password = await view.findByLabelText('Password');
    type(password, 'a good passphrase');
    type(view.getByLabelText('Confirm password'), 'something else');
    fireEvent.submit((password as HTMLInputElement).form!);
    await waitFor(() => expect(fieldErrorOf(view.getByLabelText('Confirm password'))).toBe('Passwords do not match'));
    expect(calls.some((c) => c.key === P.accept)).toBe(false);
    type(view.getByLabelText('Confirm password'), 'a good passphrase');
    fireEvent.submit((password as HTMLInputElement).form!);
    await waitFor(() => expect(view.getByRole('alert').textContent).toBe('This password appears in a list of breached passwords'));
    expect(view.getByRole('button', { name: 'Accept invitation' })).toBeTruthy();
  });

  it('an existing account only accepts (no password fields) and is sent to sign in', async () => {
    const { view, calls } = await mountLoginBox('/account/invitation/accept?userId=u1&token=tok', { [P.verify]: greeting({ shouldSetPassword: false }), [P.accept]: () => json({ outcome: 'joined', tenantId: 't1' }) });
    expect(await view.findByText(/Accept to join it with your existing account/)).toBeTruthy();
    expect(view.queryByLabelText('Password')).toBeNull();
    fireEvent.click(view.getByRole('button', { name: 'Accept invitation' }));
    expect((await view.findByRole('status')).textContent).toContain('You’ve joined Acme. Sign in with your account to continue.');
    expect(view.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/account/login');
    expect(calls.find((c) => c.key === P.accept)!.body).toEqual({ userId: 'u1', token: 'tok' });
  });

  it('the code route asks for the emailed code (one-time-code autofill) and returns to the form on a wrong code', async () => {
    const { view, calls } = await mountLoginBox('/account/invitation/code?userId=u1&token=tok', {
      [P.verify]: greeting({ codeRequired: true }),
      [P.acceptCode]: () => json({ errors: ['The code is invalid or has expired'], errorCode: 'ER-01102' }, 400),
    });
    const code = (await view.findByLabelText('Invitation code')) as HTMLInputElement;
    expect(code.autocomplete).toBe('one-time-code');
    expect(code.inputMode).toBe('numeric');
    type(code, '12a3456');
    type(view.getByLabelText('Password'), 'a good passphrase');
    type(view.getByLabelText('Confirm password'), 'a good passphrase');
    fireEvent.click(view.getByRole('button', { name: 'Accept invitation' }));
    expect((await view.findByRole('alert')).textContent).toBe('The code is invalid or has expired');
    // Back on validate: the form is still there to try again.
    expect(view.getByLabelText('Invitation code')).toBeTruthy();
    expect(calls.find((c) => c.key === P.acceptCode)!.body).toEqual({ userId: 'u1', token: 'tok', password: 'a good passphrase', code: '123456' });
  });

  it('a link without its token is invalid, calls nothing, and offers a new invitation email', async () => {
    const { view, calls } = await mountLoginBox('/account/invitation/accept?userId=u1', { [P.resend]: () => json({}) });
    expect((await view.findByRole('alert')).textContent).toContain('This invitation link is incomplete');
    expect(calls.some((c) => c.key === P.verify)).toBe(false);
    const email = view.getByLabelText('Email') as HTMLInputElement;
    expect(email.autocomplete).toBe('email');
    type(email, 'grace@example.com');
    fireEvent.click(view.getByRole('button', { name: 'Send a new invitation' }));
    expect((await view.findByRole('status')).textContent).toContain('we sent it a new link');
    expect(calls.find((c) => c.key === P.resend)!.body).toEqual({ email: 'grace@example.com' });
  });

  it("a link that cannot be verified shows the seed's message on the failed step", async () => {
    const { view } = await mountLoginBox('/account/invitation/accept?userId=u1&token=bad', { [P.verify]: () => json({ errors: ["We couldn't verify your invitation"], errorCode: 'ER-01101' }, 400) });
    expect((await view.findByRole('alert')).textContent).toBe("We couldn't verify your invitation");
    expect(view.getByRole('button', { name: 'Send a new invitation' })).toBeTruthy();
  });
});
