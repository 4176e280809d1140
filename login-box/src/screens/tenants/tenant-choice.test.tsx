/**
 * The login box's tenant switcher after sign-in (issue 14, authOptions.chooseTenantAfterLogin), over
 * the real store: a user in several tenants chooses the tenant to continue in (PUT users/v1/tenant,
 * then a token for it), a refused switch keeps the current one and says so, Continue goes on; a
 * user in one tenant, or a host that did not ask, goes straight on.
 */
import { fireEvent, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { autoCleanup, json, mountLoginBox, sampleMe, type Routes } from '../../test/harness';
import { TENANT_SWITCH_CALLS, TWO_TENANTS, tokenAnswer } from '../../../../shared/src/testing/tenant-switch';

const P = TENANT_SWITCH_CALLS;
const tenants = TWO_TENANTS;
const token = tokenAnswer;
const type = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });

autoCleanup();
beforeEach(() => window.sessionStorage.clear());

/** The server side: the session's tenant moves on a switch (unless `refuse`), and me answers in it. */
function server(inTenants = tenants, refuse = false) {
  let active = 't1';
  const routes: Routes = {
    [P.login]: () => token('tok-1', 't1'),
    [P.me]: () => json({ ...sampleMe, tenantId: active, tenantIds: inTenants.map((t) => t.tenantId), tenants: inTenants }),
    [P.switchTenant]: (body: { tenantId: string }) => {
      if (refuse) return json({ errors: ['Tenant not found'] }, 404);
      active = body.tenantId;
      return new Response(null, { status: 200 });
    },
    [P.refresh]: () => token('tok-2', active),
  };
  return routes;
}

async function signIn(routes: Routes, choose = true) {
  const box = await mountLoginBox('/account/login', routes, choose ? { gatehouse: { chooseTenantAfterLogin: true }, mountOptions: { chooseTenantAfterLogin: true } } : {});
  type(box.view.getByLabelText('Email'), 'ada@example.com');
  fireEvent.click(box.view.getByRole('button', { name: 'Continue' }));
  type(await box.view.findByLabelText('Password'), 'correct horse');
  fireEvent.click(box.view.getByRole('button', { name: 'Sign in' }));
  return box;
}

describe('tenant switcher in the login box after sign-in', () => {
  it('offers the user’s tenants with the current one chosen and focused; switching moves the session, Continue goes on', async () => {
    const { view, store, calls, navigate, shadow } = await signIn(server());
    const select = (await view.findByLabelText('Account')) as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(['Analytical Engines', 'Difference Engines']);
    expect(select.value).toBe('t1');
    await waitFor(() => expect(shadow.activeElement).toBe(select));
    expect(select.getAttribute('aria-describedby')).toBe(view.getByText('You belong to more than one account. Choose the one to continue in.').id);
    expect(view.getByText('Signed in as \u2068ada@example.com\u2069.')).toBeTruthy();
    expect(navigate).not.toHaveBeenCalled();

    fireEvent.change(select, { target: { value: 't2' } });
    await waitFor(() => expect(store.getSnapshot().user?.tenantId).toBe('t2'));
    expect(calls.filter((c) => c.key === P.switchTenant).map((c) => c.body)).toEqual([{ tenantId: 't2' }]);
    await waitFor(() => expect(select.value).toBe('t2'));
    expect(select.disabled).toBe(false);
    expect(view.queryByRole('alert')).toBeNull();

    fireEvent.click(view.getByRole('button', { name: 'Continue' }));
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/');
  });

  it('a refused switch keeps the current tenant and says so', async () => {
    const { view, store } = await signIn(server(tenants, true));
    const select = (await view.findByLabelText('Account')) as HTMLSelectElement;
    fireEvent.change(select, { target: { value: 't2' } });
    expect((await view.findByRole('alert')).textContent).toBe('Could not switch to that account. Try again.');
    expect(store.getSnapshot().user?.tenantId).toBe('t1');
    expect(select.value).toBe('t1');
  });

  it('speaks the box’s language (Hebrew, right to left)', async () => {
    const box = await mountLoginBox('/account/login', server(), { gatehouse: { chooseTenantAfterLogin: true }, mountOptions: { chooseTenantAfterLogin: true, locale: 'he' } });
    await box.store.login({ email: 'ada@example.com', password: 'correct horse' });
    expect(await box.view.findByLabelText('חשבון')).toBeTruthy();
    expect(box.domElement.querySelector('.gh-root')!.getAttribute('dir')).toBe('rtl');
  });

  it('a sign-in that ends on the SSO callback route offers the same choice there, and Continue goes on', async () => {
    const routes = { ...server(), 'POST /identity/resources/auth/v1/user/saml/postlogin': () => token('tok-1', 't1') };
    const { view, navigate } = await mountLoginBox('/account/saml/callback?code=one-time', routes, { gatehouse: { chooseTenantAfterLogin: true }, mountOptions: { chooseTenantAfterLogin: true } });
    const select = (await view.findByLabelText('Account')) as HTMLSelectElement;
    expect(select.value).toBe('t1');
    expect(navigate).not.toHaveBeenCalled();
    fireEvent.click(view.getByRole('button', { name: 'Continue' }));
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/');
  });

  it('a user in one tenant, or a host that did not ask for the choice, goes straight on', async () => {
    const single = await signIn(server(tenants.slice(0, 1)));
    await waitFor(() => expect(single.navigate).toHaveBeenCalledExactlyOnceWith('/'));
    expect(single.view.queryByLabelText('Account')).toBeNull();
    await single.unmount();

    const notAsked = await signIn(server(), false);
    await waitFor(() => expect(notAsked.navigate).toHaveBeenCalledExactlyOnceWith('/'));
    expect(notAsked.view.queryByLabelText('Account')).toBeNull();
  });
});
