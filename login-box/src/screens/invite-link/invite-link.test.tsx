import { fireEvent, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { autoCleanup, json, ME_ROUTE, mountLoginBox, sampleMe } from '../../test/harness';

const P = {
  verify: 'POST /identity/resources/tenants/invites/v1/verify',
  join: 'POST /identity/resources/tenants/invites/v1/user/join',
  signUp: 'POST /identity/resources/users/v1/signUp',
  login: 'POST /identity/resources/auth/v1/user',
  refresh: 'POST /identity/resources/auth/v1/user/token/refresh',
};
const named = () => json({ name: 'Acme Corp' });
const dead = () => json({ errors: ["We couldn't verify your invitation"], errorCode: 'ER-02407' }, 404);
const session = (accessToken: string, tenantId: string) => () => json({ accessToken, expiresIn: 300, expires: '', mfaRequired: false, tenantId });

autoCleanup();
afterEach(() => sessionStorage.clear());

const type = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });

describe('joining by invite link in the login box', () => {
  it("greets with the tenant's name on the sign-up route, asks no company, and sends the token with the sign-up", async () => {
    const { view, calls } = await mountLoginBox('/account/sign-up?invitationToken=tok', { [P.verify]: named, [P.signUp]: () => json({ shouldActivate: true, userId: 'u9', tenantId: 't2' }) });
    // (The sign-up screen is a chunk of its own: the short "Checking your invitation…" may be over by the time it shows.)
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('You’ve been invited to join Acme Corp'));
    expect(calls.find((c) => c.key === P.verify)!.body).toEqual({ token: 'tok' });
    type(await view.findByLabelText('Name'), 'Grace');
    expect(view.queryByLabelText('Company name')).toBeNull();
    type(view.getByLabelText('Email'), 'grace@example.com');
    type(view.getByLabelText('Password'), 'a good passphrase');
    fireEvent.click(view.getByRole('button', { name: 'Sign up' }));
    await view.findByRole('heading', { name: 'Check your email' });
    expect(calls.find((c) => c.key === P.signUp)!.body).toEqual({ email: 'grace@example.com', password: 'a good passphrase', name: 'Grace', invitationToken: 'tok' });
  });

  it('joins at sign-in and lands signed in to that tenant', async () => {
    const { view, calls, navigate, store } = await mountLoginBox('/account/login?invitationToken=tok', {
      [P.verify]: named,
      [P.login]: session('own.token', 't1'),
      [P.join]: () => json({ tenantId: 't2', tenantName: 'Acme Corp', joined: true }),
      [P.refresh]: session('acme.token', 't2'),
      [ME_ROUTE]: () => json({ ...sampleMe, tenantId: 't2', tenantIds: ['t1', 't2'] }),
    });
    await view.findByText(/Acme Corp/);
    type(view.getByLabelText('Email'), 'ada@example.com');
    fireEvent.click(view.getByRole('button', { name: 'Continue' }));
    type(await view.findByLabelText('Password'), 'pw');
    fireEvent.click(view.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/'));
    expect(calls.find((c) => c.key === P.join)!.body).toEqual({ token: 'tok' });
    expect(calls.find((c) => c.key === P.refresh)!.body).toEqual({ tenantId: 't2' });
    expect(store.getSnapshot().user?.accessToken).toBe('acme.token');
  });

  it("says 'We couldn't verify your invitation' for a dead link and leaves the form as usual", async () => {
    const { view, calls } = await mountLoginBox('/account/sign-up?invitationToken=gone', { [P.verify]: dead });
    expect((await view.findByRole('alert')).textContent).toBe("We couldn't verify your invitation");
    expect(view.getByRole('heading', { name: 'Create your account' })).toBeTruthy();
    expect(sessionStorage.length).toBe(0);
    expect(calls.filter((c) => c.key === P.verify)).toHaveLength(1);
  });

  it('loads and calls nothing of it without the parameter', async () => {
    const { view, calls } = await mountLoginBox('/account/sign-up', {});
    await view.findByRole('heading', { name: 'Create your account' });
    expect(view.getByLabelText('Company name')).toBeTruthy();
    expect(calls.some((c) => c.key === P.verify)).toBe(false);
  });
});
