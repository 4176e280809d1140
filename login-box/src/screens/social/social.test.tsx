import { fireEvent, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { autoCleanup, json, ME_ROUTE, mountLoginBox, sampleMe, sampleVendor } from '../../test/harness';

const P = {
  v2: 'GET /identity/resources/sso/v2',
  custom: 'GET /identity/resources/sso/custom/v1',
  pre: 'POST /identity/resources/auth/v1/user/sso/acme/prelogin',
  post: 'POST /identity/resources/auth/v1/user/sso/acme/postlogin',
};
const providers = {
  [P.v2]: () => json([{ type: 'google', active: false, displayName: 'Google' }]),
  [P.custom]: () => json({ providers: [{ id: 'acme', type: 'custom', displayName: 'Acme ID', active: true }] }),
};

autoCleanup();

describe('social login screens', () => {
  it('without social providers the login form loads no buttons and asks for none', async () => {
    const { view, calls } = await mountLoginBox('/account/login', providers);
    await view.findByLabelText('Email');
    await waitFor(() => expect(calls.some((c) => c.key === 'GET /vendors/public')).toBe(true));
    expect(view.queryByRole('button', { name: /Continue with/ })).toBeNull();
    expect(calls.some((c) => c.key === P.v2)).toBe(false);
  });

  it('shows a button per active provider; choosing one starts the sign-in with the callback route as redirectUri and leaves for the provider', async () => {
    const { view, calls, navigate } = await mountLoginBox('/account/login', { ...providers, [P.pre]: () => json({ url: 'https://idp.example/auth?state=acme.x' }) }, { vendor: { ...sampleVendor, socialLogin: true } });
    const button = await view.findByRole('button', { name: 'Continue with Acme ID' });
    expect(view.queryByRole('button', { name: /Google/ })).toBeNull();
    fireEvent.click(button);
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('https://idp.example/auth?state=acme.x'));
    expect(calls.find((c) => c.key === P.pre)!.body).toEqual({ redirectUri: `${window.location.origin}/account/social/success` });
  });

  it('the callback route says it is finishing, posts code and state once, signs in and navigates to the app', async () => {
    let answer: (r: Response) => void = () => undefined;
    const signedIn = json({ accessToken: 'a.b.c', expiresIn: 300, expires: '', mfaRequired: false, email: 'ada@example.com', isNewUser: true, userId: 'u1', tenantId: 't1', name: 'Ada' });
    const { view, calls, navigate, store } = await mountLoginBox('/account/social/success?code=the-code&state=acme.abc', { [P.post]: () => new Promise<Response>((r) => (answer = r)), [ME_ROUTE]: () => json(sampleMe) });
    expect(await view.findByRole('heading', { name: 'Signing you in' })).toBeTruthy();
    expect(view.getByRole('status').getAttribute('aria-busy')).toBe('true');
    await waitFor(() => expect(calls.some((c) => c.key === P.post)).toBe(true));
    answer(signedIn);
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/'));
    expect(calls.filter((c) => c.key === P.post).map((c) => c.body)).toEqual([{ code: 'the-code', state: 'acme.abc', redirectUri: `${window.location.origin}/account/social/success` }]);
    expect(store.getSnapshot().isAuthenticated).toBe(true);
    expect(store.getSnapshot().social?.result).toMatchObject({ isNewUser: true, email: 'ada@example.com' });
  });

  it('a refused sign-in shows loginWithSSOFailed with the reason in an alert, and the login form shows it again after the redirect', async () => {
    const reason = 'Your Acme ID email address is not verified, so it cannot be used to sign in. Verify it with Acme ID, or sign in another way.';
    const { view, navigate } = await mountLoginBox('/account/social/success?code=c&state=acme.abc', { [P.post]: () => json({ errors: [reason], errorCode: 'ER-02203' }, 403) });
    expect(await view.findByRole('heading', { name: 'Sign-in failed' })).toBeTruthy();
    expect((await view.findByRole('alert')).textContent).toBe(reason);
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/'), { timeout: 3000 });

    const again = await mountLoginBox('/account/login', providers, { vendor: { ...sampleVendor, socialLogin: true } });
    expect((await again.view.findByRole('alert')).textContent).toBe(reason);
    expect(await again.view.findByRole('button', { name: 'Continue with Acme ID' })).toBeTruthy();
  });
});
