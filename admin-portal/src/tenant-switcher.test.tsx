import { fireEvent, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createGatehouse, type GatehouseStore } from '@gatehouse/shared';
import { createFetchStub, json } from '../../shared/src/testing/fetch-stub';
import { makeUser, portalProps, shadowMountPoint } from './test/fake-store';
import { cleanupPortals, mountPortal } from './test/mount-portal';

const tenants = [
  { id: 'a', tenantId: 'tenant-1', name: 'Analytical Engines', createdAt: '2026-01-01T00:00:00.000Z' },
  { id: 'b', tenantId: 'tenant-2', name: 'Difference Engines', createdAt: '2026-01-01T00:00:00.000Z' },
];
const stores: GatehouseStore[] = [];
afterEach(async () => {
  await cleanupPortals();
  stores.splice(0).forEach((s) => s.dispose());
});

/** The real store over a stubbed network: the switch answers `switchStatus`, the refresh a token of tenant-2, me that tenant. */
function signedInStore(user = makeUser({ tenantIds: ['tenant-1', 'tenant-2'], tenants }), switchStatus = 200) {
  const stub = createFetchStub({
    'PUT /identity/resources/users/v1/tenant': () => (switchStatus === 200 ? new Response(null, { status: 200 }) : json({ errors: ['Tenant not found'] }, { status: switchStatus })),
    'POST /identity/resources/auth/v1/user/token/refresh': () => json({ accessToken: 'token-t2', expiresIn: 300, expires: '', mfaRequired: false, tenantId: 'tenant-2' }),
    'GET /identity/resources/users/v2/me': () => json({ ...user, tenantId: 'tenant-2' }),
  });
  const { store } = createGatehouse({ baseUrl: 'http://api.test', clientId: 'c', fetch: stub.fetch, getLocationSearch: () => '', retry: { attempts: 1 }, navigate: () => undefined, storage: null });
  store.hydrate({ login: { accessToken: 'token-t1', expiresIn: 300, expires: '', mfaRequired: false }, me: user });
  stores.push(store);
  return { store, stub };
}

describe('tenant switcher in the portal header', () => {
  it('lists the user’s tenants with the current one chosen, and switching moves the session to the other tenant', async () => {
    const { store, stub } = signedInStore();
    const { domElement } = shadowMountPoint();
    await mountPortal(portalProps(domElement, store));
    const select = (await within(domElement).findByLabelText('Account')) as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(['Analytical Engines', 'Difference Engines']);
    expect(select.value).toBe('tenant-1');
    fireEvent.change(select, { target: { value: 'tenant-2' } });
    await waitFor(() => expect(store.getSnapshot().user?.tenantId).toBe('tenant-2'));
    expect(stub.callsTo('PUT /identity/resources/users/v1/tenant')[0]!.body).toEqual({ tenantId: 'tenant-2' });
    await waitFor(() => expect(select.value).toBe('tenant-2'));
    expect(select.disabled).toBe(false);
    expect(within(domElement).queryByRole('alert')).toBeNull();
  });

  it('a refused switch keeps the current tenant and says so', async () => {
    const { store } = signedInStore(undefined, 404);
    const { domElement } = shadowMountPoint();
    await mountPortal(portalProps(domElement, store));
    const select = (await within(domElement).findByLabelText('Account')) as HTMLSelectElement;
    fireEvent.change(select, { target: { value: 'tenant-2' } });
    expect((await within(domElement).findByRole('alert')).textContent).toBe('Could not switch to that account. Try again.');
    expect(store.getSnapshot().user?.tenantId).toBe('tenant-1');
    expect(select.value).toBe('tenant-1');
  });

  it('is not shown to a user in one tenant', async () => {
    const { store } = signedInStore(makeUser());
    const { domElement } = shadowMountPoint();
    await mountPortal(portalProps(domElement, store));
    await within(domElement).findByRole('dialog', { name: 'Admin portal' });
    expect(within(domElement).queryByLabelText('Account')).toBeNull();
  });
});
