import { fireEvent, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { autoCleanup, json, ME_ROUTE, mountLoginBox, sampleMe } from '../../test/harness';

const P = {
  lookup: 'POST /identity/resources/auth/v2/user/sso/prelogin',
  samlStart: 'POST /identity/resources/auth/v1/user/saml/prelogin',
  samlPost: 'POST /identity/resources/auth/v1/user/saml/postlogin',
  oidcPost: 'POST /identity/resources/auth/v1/user/oidc/postlogin',
};
const session = () => json({ accessToken: 'a.b.c', expiresIn: 300, expires: '', mfaRequired: false });

autoCleanup();

describe('SSO screens', () => {
  it('an email at an SSO domain shows redirectToSSO (status, focus) instead of the password field', async () => {
    const { view, calls } = await mountLoginBox('/account/login', {
      [P.lookup]: () => json({ address: 'https://idp.acme.test/sso', type: 'saml' }),
      [P.samlStart]: () => json({ address: 'https://idp.acme.test/sso?SAMLRequest=x' }),
    });
    const email = (await view.findByLabelText('Email')) as HTMLInputElement;
    fireEvent.change(email, { target: { value: 'jane@acme.test' } });
    fireEvent.submit(email.form!);
    expect(await view.findByRole('heading', { name: 'Single sign-on' })).toBeTruthy();
    expect(view.getByText(/jane@acme\.test signs in with your organization/)).toBeTruthy();
    const status = view.getByRole('status');
    expect(status.textContent).toContain('Redirecting you there');
    await waitFor(() => expect((status.getRootNode() as ShadowRoot).activeElement).toBe(status));
    await waitFor(() => expect(calls.some((c) => c.key === P.samlStart)).toBe(true));
    expect(view.queryByLabelText('Password')).toBeNull();
    expect(view.getByRole('button', { name: 'Use a different email' })).toBeTruthy();
  });

  it('an email without SSO goes on to the password step', async () => {
    const { view } = await mountLoginBox('/account/login', { [P.lookup]: () => json({ errors: ['SSO is not configured for this user'] }, 404) });
    const email = (await view.findByLabelText('Email')) as HTMLInputElement;
    fireEvent.change(email, { target: { value: 'ada@example.com' } });
    fireEvent.submit(email.form!);
    expect(await view.findByLabelText('Password')).toBeTruthy();
  });

  it('the SAML callback route finishes the sign-in with the code from the URL', async () => {
    const { view, calls, navigate } = await mountLoginBox('/account/saml/callback?code=one-time', { [P.samlPost]: session, [ME_ROUTE]: () => json(sampleMe) });
    expect(await view.findByRole('heading', { name: 'Signing you in' })).toBeTruthy();
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/'));
    expect(calls.filter((c) => c.key === P.samlPost).map((c) => c.body)).toEqual([{ code: 'one-time' }]);
  });

  it("the OIDC callback route shows loginWithSSOFailed with 'Failed to authenticate' in an alert when the sign-in is refused", async () => {
    const { view, calls } = await mountLoginBox('/account/oidc/callback?code=c&state=s', { [P.oidcPost]: () => json({ errors: ['Failed to authenticate'] }, 401) });
    expect(await view.findByRole('heading', { name: 'Single sign-on failed' })).toBeTruthy();
    expect((await view.findByRole('alert')).textContent).toBe('Failed to authenticate');
    expect(calls.find((c) => c.key === P.oidcPost)!.body).toMatchObject({ code: 'c', RelayState: 's' });
  });

  it("the OIDC callback route of an admin's connection test says 'Test complete — you can close this window' (announced), signs nobody in and goes nowhere", async () => {
    const { view, calls, navigate } = await mountLoginBox('/account/oidc/callback?code=c&state=test-state', { [P.oidcPost]: () => json({ connectionTest: 'complete' }, 202) });
    expect(await view.findByRole('heading', { name: 'Test complete — you can close this window' })).toBeTruthy();
    expect((await view.findByRole('status')).textContent).toBe('Nobody was signed in. The report is waiting in the admin portal.');
    expect(calls.filter((c) => c.key === P.oidcPost)).toHaveLength(1);
    expect(calls.some((c) => c.key === ME_ROUTE)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(navigate).not.toHaveBeenCalled();
    expect(view.queryByRole('alert')).toBeNull();
  });
});
