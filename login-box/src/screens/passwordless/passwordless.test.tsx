import { fireEvent, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { autoCleanup, json, ME_ROUTE, mountLoginBox, sampleMe, sampleVendor } from '../../test/harness';

const P = {
  linkPre: 'POST /identity/resources/auth/v1/passwordless/magiclink/prelogin',
  linkPost: 'POST /identity/resources/auth/v1/passwordless/magiclink/postlogin',
  codePre: 'POST /identity/resources/auth/v1/passwordless/code/prelogin',
  codePost: 'POST /identity/resources/auth/v1/passwordless/code/postlogin',
};
const session = () => json({ accessToken: 'a.b.c', expiresIn: 300, expires: '', mfaRequired: false });

autoCleanup();

const type = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });

describe('passwordless sign-in screens', () => {
  it('MagicLink: Continue emails a link and shows "Check your email" (no password field)', async () => {
    const { view, calls } = await mountLoginBox('/account/login', { [P.linkPre]: () => json({}) }, { vendor: { ...sampleVendor, loginStrategy: 'MagicLink' } });
    await waitFor(() => expect(calls.some((c) => c.key === 'GET /vendors/public')).toBe(true));
    const email = view.getByLabelText('Email') as HTMLInputElement;
    type(email, 'ada@example.com');
    fireEvent.submit(email.form!);
    expect(await view.findByRole('heading', { name: 'Check your email' })).toBeTruthy();
    expect(view.queryByLabelText('Password')).toBeNull();
    expect(calls.find((c) => c.key === P.linkPre)!.body).toEqual({ email: 'ada@example.com' });
  });

  it('UsernameAndCode: a Username field, then a numeric one-time-code field that signs in', async () => {
    const { view, calls, navigate } = await mountLoginBox('/account/login', { [P.codePre]: () => json({}), [P.codePost]: session }, { vendor: { ...sampleVendor, loginStrategy: 'UsernameAndCode' }, me: sampleMe });
    const username = (await view.findByLabelText('Username')) as HTMLInputElement;
    expect(username.autocomplete).toBe('username');
    expect(username.type).toBe('text');
    type(username, 'ada');
    fireEvent.submit(username.form!);
    const code = (await view.findByLabelText('Sign-in code')) as HTMLInputElement;
    expect(code.autocomplete).toBe('one-time-code');
    expect(code.inputMode).toBe('numeric');
    type(code, '123456');
    fireEvent.submit(code.form!);
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/'));
    expect(calls.find((c) => c.key === P.codePost)!.body).toEqual({ username: 'ada', code: '123456' });
  });

  it('the magic-link route signs in with the token and shows the success step', async () => {
    const { view, calls } = await mountLoginBox('/account/login/magic-link?token=tok-1', { [P.linkPost]: session, [ME_ROUTE]: () => json(sampleMe) }, { vendor: { ...sampleVendor, loginStrategy: 'MagicLink' } });
    expect(await view.findByRole('heading', { name: /signed in/i })).toBeTruthy();
    expect(calls.filter((c) => c.key === P.linkPost).map((c) => c.body)).toEqual([{ token: 'tok-1' }]);
  });

  it('the magic-link route shows the server message for a dead link, with a way back', async () => {
    const { view } = await mountLoginBox('/account/login/magic-link?token=old', { [P.linkPost]: () => json({ errors: ['The sign-in link is invalid or has expired'] }, 400) });
    expect((await view.findByRole('alert')).textContent).toContain('The sign-in link is invalid or has expired');
    expect(view.getByRole('link', { name: 'Back to sign in' })).toBeTruthy();
  });
});
