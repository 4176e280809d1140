import { rowMenuItems } from '../test/row-menu';
import { act, fireEvent, render, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Account, AccountUser } from '@gatehouse/shared/wire';
import type { GatehouseApi } from '../contract';
import { readAdminPortalOptions } from '../options';
import { createTestStore, makeUser, shadowMountPoint } from '../test/fake-store';
import AllAccountsSection from './all-accounts';
import { reportTo } from './all-accounts/accounts-api';

function account(overrides: Partial<Account>): Account {
  return { tenantId: 't', name: 'T', parentTenantId: null, numberOfUsers: 0, numberOfSubAccounts: 0, createdAt: '', metadata: null, isReseller: false, subAccountAccessType: 'defaultOn', tenantType: 'customer', ...overrides };
}

const ROOT = account({ tenantId: 'root', name: 'Head office', numberOfUsers: 3, numberOfSubAccounts: 2 });
const EU = account({ tenantId: 'eu', name: 'Acme EU', parentTenantId: 'root', numberOfUsers: 1, numberOfSubAccounts: 1 });
const US = account({ tenantId: 'us', name: 'Acme US', parentTenantId: 'root', isReseller: true });
const BERLIN = account({ tenantId: 'berlin', name: 'Berlin', parentTenantId: 'eu' });
const ADA: AccountUser = { id: 'u-ada', name: 'Ada Byron', email: 'ada@example.com', roles: [{ id: 'r-read', key: 'ReadOnly', name: 'Read only' }], subAccountAccessAllowed: true };

interface Call { method: string; path: string; body?: unknown; query?: Record<string, unknown> }
type Failure = { method: string; path: string; error: { message: string; statusCode: number } };

function recordingApi(failures: Failure[] = []): { api: GatehouseApi; calls: Call[] } {
  const calls: Call[] = [];
  const api = {
    async request(method: string, path: string, options: { body?: unknown; query?: Record<string, unknown> } = {}) {
      calls.push({ method, path, ...options });
      const failure = failures.find((f) => f.method === method && f.path === path);
      if (failure) throw Object.assign(new Error(failure.error.message), failure.error);
      if (path === '/tenants/resources/hierarchy/v1/tree') {
        const parent = String(options.query?.parentTenantId ?? 'root');
        if (parent === 'eu') return { ...EU, children: [BERLIN], loadMoreLink: null };
        if (options.query?._offset) return { ...ROOT, children: [US], loadMoreLink: null };
        return { ...ROOT, children: [EU], loadMoreLink: '/tenants/resources/hierarchy/v1/tree?parentTenantId=root&_offset=1&_limit=1' };
      }
      if (path === '/tenants/resources/hierarchy/v1/search') return { items: [EU, US], loadMoreLink: null };
      const sub = /^\/tenants\/resources\/sub-tenants\/v1\/([^/]+)(\/.*)?$/.exec(path);
      if (sub && method === 'GET' && !sub[2]) {
        const found = [ROOT, EU, US, BERLIN].find((a) => a.tenantId === sub[1])!;
        return { ...found, parentsAccounts: found.tenantId === 'root' ? [] : [{ tenantId: 'root', name: 'Head office' }] };
      }
      if (sub && sub[2] === '/users' && method === 'GET') return { items: sub[1] === 'eu' ? [ADA] : [], _metadata: { totalItems: sub[1] === 'eu' ? 1 : 0, offset: 0, limit: 10 } };
      if (sub && sub[2] === '/roles') return { items: [{ id: 'r-admin', key: 'Admin', name: 'Admin' }, { id: 'r-read', key: 'ReadOnly', name: 'Read only' }] };
      if (path === '/team/resources/members/v1') return { items: [{ id: 'u-bob', name: 'Bob Stone', email: 'bob@example.com' }], _metadata: { totalItems: 1, totalPages: 1 } };
      if (method === 'POST' && path === '/tenants/resources/sub-tenants/v1') return account({ tenantId: 'new', name: (options.body as { name: string }).name });
      return {};
    },
  } as unknown as GatehouseApi;
  return { api, calls };
}

const WRITE = ['fe.account-hierarchy.read.subAccount', 'fe.account-hierarchy.write.subAccount', 'fe.secure.read.users'];

async function openAccounts(permissions: string[] = WRITE, failures: Failure[] = [], fieldVisibility: Record<string, string> = {}) {
  const { api, calls } = recordingApi(failures);
  const { domElement } = shadowMountPoint();
  const user = makeUser({ id: 'me', permissions: permissions.map((key, i) => ({ id: `p${i}`, key, name: key })) });
  render(
    <AllAccountsSection title="All accounts" headingId="accounts-heading" user={user} snapshot={createTestStore(user).getSnapshot()} store={createTestStore(user)} api={api} options={readAdminPortalOptions({ fieldVisibility: { allAccounts: fieldVisibility } })} />,
    { container: domElement },
  );
  const view = within(domElement);
  await view.findByRole('button', { name: 'Acme EU' });
  return { view, calls };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('All accounts section', () => {
  it("shows the caller's account with its children and users count, expands a child, loads more, and selects an account with its users, roles, access and parents", async () => {
    const { view, calls } = await openAccounts();
    expect(view.getByRole('button', { name: 'Head office' }).getAttribute('aria-current')).toBe('true');
    expect(view.getByText('3 users')).toBeTruthy();
    fireEvent.click(view.getByRole('button', { name: 'Load more' }));
    await view.findByRole('button', { name: 'Acme US' });
    expect(view.getByText('Reseller')).toBeTruthy();
    expect(view.queryByRole('button', { name: 'Load more' })).toBeNull();
    fireEvent.click(view.getByRole('button', { name: 'Expand Acme EU' }));
    await view.findByRole('button', { name: 'Berlin' });
    expect(calls.some((c) => c.query?.parentTenantId === 'eu')).toBe(true);

    fireEvent.click(view.getByRole('button', { name: 'Acme EU' }));
    const row = (await view.findByText('Ada Byron')).closest('tr')!;
    expect(within(row).getByText('Read only')).toBeTruthy();
    expect(within(row).getByText('Allowed')).toBeTruthy();
    expect(view.getByTestId('users-count').textContent).toBe('1');
    // The row's actions sit in its ⋯ menu.
    expect(await rowMenuItems(view, 'Actions for Ada Byron')).toEqual(['Edit roles', 'Revoke sub-account access', 'Remove']);
    const crumbs = view.getByRole('navigation', { name: 'Parents' });
    expect(within(crumbs).getByRole('button', { name: 'Head office' })).toBeTruthy();
    expect(calls.find((c) => c.path === '/tenants/resources/sub-tenants/v1/eu/users')?.query).toEqual({ _offset: 0, _limit: 10 });
  });

  it('creates a sub-account under the selected account, and shows the server\'s message when the tenant id is taken', async () => {
    const { view, calls } = await openAccounts(WRITE, [{ method: 'POST', path: '/tenants/resources/sub-tenants/v1', error: { message: 'An account with tenant id acme-eu already exists', statusCode: 409 } }]);
    // The button waits for the selected account, which loads after the tree (a race on a busy machine).
    fireEvent.click(await view.findByRole('button', { name: 'Create sub-account' }));
    const dialog = await view.findByRole('dialog', { name: 'Create sub-account' });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Acme EU 2' } });
    fireEvent.change(within(dialog).getByLabelText(/Tenant id/), { target: { value: 'bad id!' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByText(/Use letters, digits/)).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(within(dialog).getByLabelText(/Tenant id/), { target: { value: 'acme-eu' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Create' })));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('An account with tenant id acme-eu already exists');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Acme EU 2', parentTenantId: 'root', tenantId: 'acme-eu' });
    expect(view.getByRole('dialog')).toBeTruthy();
  });

  it('adds a user of the own account to a sub-account with a role', async () => {
    const { view, calls } = await openAccounts();
    fireEvent.click(view.getByRole('button', { name: 'Acme EU' }));
    await view.findByText('Ada Byron');
    fireEvent.click(view.getByRole('button', { name: 'Add users' }));
    const dialog = await view.findByRole('dialog', { name: 'Add users to Acme EU' });
    fireEvent.click(await within(dialog).findByLabelText(/Bob Stone/));
    fireEvent.click(within(dialog).getByLabelText(/^Admin/));
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Add users' })));
    await waitFor(() => expect(view.queryByRole('dialog')).toBeNull());
    expect(calls.find((c) => c.method === 'POST' && c.path.endsWith('/users'))).toMatchObject({ path: '/tenants/resources/sub-tenants/v1/eu/users', body: { userIds: ['u-bob'], roleIds: ['r-admin'] } });
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('1 user added to Acme EU'));
  });

  it('hides every write action without the write permission, and the ones the host hides or freezes', async () => {
    const readOnly = await openAccounts(['fe.account-hierarchy.read.subAccount']);
    fireEvent.click(readOnly.view.getByRole('button', { name: 'Acme EU' }));
    await readOnly.view.findByText('Ada Byron');
    for (const name of ['Create sub-account', 'Update', 'Delete', 'Add users', 'Hierarchy settings', /sub-account management/]) expect(readOnly.view.queryByRole('button', { name })).toBeNull();
    document.body.innerHTML = '';

    const hosted = await openAccounts(WRITE, [], { createSubAccount: 'hidden', deleteSubAccount: 'viewOnly', search: 'hidden' });
    fireEvent.click(hosted.view.getByRole('button', { name: 'Acme EU' }));
    await hosted.view.findByText('Ada Byron');
    expect(hosted.view.queryByRole('button', { name: 'Create sub-account' })).toBeNull();
    expect(hosted.view.queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(hosted.view.queryByLabelText('Search accounts')).toBeNull();
    expect(hosted.view.getByRole('button', { name: 'Update' })).toBeTruthy();
  });

  it('searches accounts by name, and sets hierarchy settings only with an access type', async () => {
    const { view, calls } = await openAccounts();
    fireEvent.change(view.getByLabelText('Search accounts'), { target: { value: 'Acme' } });
    await view.findByRole('list', { name: 'Search results' });
    expect(calls.find((c) => c.path.endsWith('/search'))?.query).toEqual({ _filter: 'Acme', _limit: 50 });
    fireEvent.click(view.getByRole('button', { name: 'Hierarchy settings' }));
    const dialog = await view.findByRole('dialog', { name: 'Hierarchy settings of Head office' });
    fireEvent.click(within(dialog).getByLabelText(/Always on/));
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Save settings' })));
    expect(calls.find((c) => c.path.endsWith('/hierarchy-settings'))).toMatchObject({ method: 'PUT', path: '/tenants/resources/sub-tenants/v1/root/hierarchy-settings', body: { subAccountAccessType: 'alwaysOn' } });
  });

  it('reports false to the callback when a sub-account action fails, true when it succeeds', async () => {
    const outcomes: boolean[] = [];
    await expect(reportTo((ok) => outcomes.push(ok), Promise.reject(new Error('nope')))).rejects.toThrow('nope');
    await reportTo((ok) => outcomes.push(ok), Promise.resolve(1));
    expect(outcomes).toEqual([false, true]);
  });
});
