import { act, fireEvent, render, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Group, Role, UsersPage } from '@gatehouse/shared/wire';
import type { GatehouseApi } from '../contract';
import { readAdminPortalOptions } from '../options';
import { createTestStore, makeUser, shadowMountPoint } from '../test/fake-store';
import GroupsSection from './groups';

function group(overrides: Partial<Group>): Group {
  return { id: 'g', name: 'G', description: null, color: null, metadata: null, managedBy: null, roles: [], users: [], createdAt: '', updatedAt: '', ...overrides };
}

const ROLES: Role[] = [
  { id: 'r-admin', key: 'Admin', name: 'Admin', description: null, isDefault: false, permissions: [], tenantId: 'tenant-1', userCount: 1, createdAt: '' },
  { id: 'r-read', key: 'ReadOnly', name: 'Read only', description: null, isDefault: true, permissions: [], tenantId: 'tenant-1', userCount: 1, createdAt: '' },
];
const MEMBERS = [
  { id: 'u-ada', name: 'Ada Byron', email: 'ada@example.com' },
  { id: 'u-bob', name: 'Bob Stone', email: 'bob@example.com' },
];

interface Call { method: string; path: string; body?: unknown; query?: Record<string, unknown> }
type Failure = { method: string; path: string; error: { message: string; statusCode: number } };

/** The API boundary: records every call, answers from fixed groups, roles and users, and fails the calls it is told to. */
function recordingApi(groups: Group[], failures: Failure[] = []): { api: GatehouseApi; calls: Call[] } {
  const calls: Call[] = [];
  const api = {
    async request(method: string, path: string, options: { body?: unknown; query?: Record<string, unknown> } = {}) {
      calls.push({ method, path, ...options });
      const failure = failures.find((f) => f.method === method && f.path === path);
      if (failure) throw Object.assign(new Error(failure.error.message), failure.error);
      if (method === 'GET' && path === '/identity/resources/groups/v1') return { groups };
      if (method === 'GET' && path === '/identity/resources/roles/v1') return ROLES;
      if (method === 'GET' && path === '/team/resources/members/v1') {
        const filter = String(options.query?.filter ?? '').toLowerCase();
        const items = MEMBERS.filter((m) => !filter || m.name.toLowerCase().includes(filter));
        return { items, _metadata: { totalItems: items.length, totalPages: 1 } } as unknown as UsersPage;
      }
      return {};
    },
  } as unknown as GatehouseApi;
  return { api, calls };
}

const ops = group({ id: 'g-ops', name: 'Ops', description: 'On call', color: '#3366ff', roles: [{ id: 'r-admin', key: 'Admin', name: 'Admin' }], users: [{ id: 'u-ada', name: 'Ada Byron', email: 'ada@example.com' }] });
const scim = group({ id: 'g-scim', name: 'Engineering', managedBy: 'scim2' });

async function openGroups(groups: Group[], permissions: string[] = ['fe.secure.read.groups', 'fe.secure.write.groups'], failures: Failure[] = []) {
  const { api, calls } = recordingApi(groups, failures);
  const { domElement } = shadowMountPoint();
  const user = makeUser({ id: 'me', permissions: permissions.map((key, i) => ({ id: `p${i}`, key, name: key })) });
  render(<GroupsSection title="Groups" headingId="groups-heading" user={user} snapshot={createTestStore(user).getSnapshot()} store={createTestStore(user)} api={api} options={readAdminPortalOptions(undefined)} />, { container: domElement });
  const view = within(domElement);
  return { view, calls };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('groups section', () => {
  it('lists the groups with roles, users and who manages them, and provider-managed groups are read-only', async () => {
    const { view, calls } = await openGroups([ops, scim]);
    const row = await view.findByRole('row', { name: /Ops/ });
    expect(calls[0]).toEqual({ method: 'GET', path: '/identity/resources/groups/v1', query: { _groupsRelations: 'rolesAndUsers' } });
    expect(within(row).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Admin', 'Ada Byron', 'Gatehouse', 'EditUsersDelete']);
    const managed = view.getByRole('row', { name: /Engineering/ });
    expect(within(managed).getAllByRole('cell').map((c) => c.textContent)).toEqual(['None', 'None', 'SCIM', 'Read-only']);
    expect(view.queryByRole('button', { name: 'Edit group Engineering' })).toBeNull();
  });

  it('checks the new group form, then creates it with name, description, color and roles', async () => {
    const { view, calls } = await openGroups([]);
    await view.findByText('No groups yet');
    fireEvent.click(view.getByRole('button', { name: 'Add group' }));
    const dialog = await view.findByRole('dialog', { name: 'Add group' });
    expect((dialog.getRootNode() as ShadowRoot).activeElement).toBe(within(dialog).getByLabelText('Name'));
    fireEvent.change(within(dialog).getByLabelText(/^Color/), { target: { value: 'blue' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add group' }));
    expect(within(dialog).getAllByRole('alert').map((a) => a.textContent)).toEqual(['Enter a name', 'Enter a color such as #3366ff']);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Support' } });
    fireEvent.change(within(dialog).getByLabelText(/Description/), { target: { value: 'First line' } });
    fireEvent.change(within(dialog).getByLabelText(/^Color/), { target: { value: '#aa00cc' } });
    fireEvent.click(within(dialog).getByLabelText('Read only'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add group' }));
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('Group Support added'));
    expect(calls.find((c) => c.method === 'POST')).toEqual({ method: 'POST', path: '/identity/resources/groups/v1', body: { name: 'Support', description: 'First line', color: '#aa00cc', roleIds: ['r-read'] } });
  });

  it('saves an edited group with PATCH, then adds and removes only the roles that changed', async () => {
    const { view, calls } = await openGroups([ops]);
    fireEvent.click(await view.findByRole('button', { name: 'Edit group Ops' }));
    const dialog = await view.findByRole('dialog', { name: 'Edit group Ops' });
    fireEvent.click(within(dialog).getByLabelText('Admin'));
    fireEvent.click(within(dialog).getByLabelText('Read only'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save group' }));
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('Group Ops saved'));
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([
      { method: 'PATCH', path: '/identity/resources/groups/v1/g-ops', body: { name: 'Ops', description: 'On call', color: '#3366ff' } },
      { method: 'POST', path: '/identity/resources/groups/v1/g-ops/roles', body: { roleIds: ['r-read'] } },
      { method: 'DELETE', path: '/identity/resources/groups/v1/g-ops/roles', body: { roleIds: ['r-admin'] } },
    ]);
  });

  it('adds a found user to the group and removes an unticked one', async () => {
    const { view, calls } = await openGroups([ops]);
    fireEvent.click(await view.findByRole('button', { name: 'Users of Ops' }));
    const dialog = await view.findByRole('dialog', { name: 'Users of Ops' });
    fireEvent.change(within(dialog).getByLabelText('Find users'), { target: { value: 'bob' } });
    const bob = (await within(dialog).findByLabelText(/Bob Stone/, undefined, { timeout: 2000 })) as HTMLInputElement;
    expect(bob.checked).toBe(false);
    fireEvent.click(bob);
    fireEvent.click(within(dialog).getByLabelText(/Ada Byron/));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save users' }));
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('Users of Ops saved'));
    expect(calls.filter((c) => c.method === 'POST' || c.method === 'DELETE')).toEqual([
      { method: 'POST', path: '/identity/resources/groups/v1/g-ops/users', body: { userIds: ['u-bob'] } },
      { method: 'DELETE', path: '/identity/resources/groups/v1/g-ops/users', body: { userIds: ['u-ada'] } },
    ]);
  });

  it('keeps the delete dialog open with the server message when deleting fails, and Escape closes only the dialog', async () => {
    const { view } = await openGroups([ops], undefined, [{ method: 'DELETE', path: '/identity/resources/groups/v1/g-ops', error: { message: 'Group not found', statusCode: 404 } }]);
    fireEvent.click(await view.findByRole('button', { name: 'Delete group Ops' }));
    const dialog = await view.findByRole('dialog', { name: 'Delete group Ops' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Group not found');
    // The Delete button was disabled while saving; focus is back in the dialog, on it.
    expect((dialog.getRootNode() as ShadowRoot).activeElement).toBe(within(dialog).getByRole('button', { name: 'Delete' }));
    let reachedDocument = false;
    const listener = () => (reachedDocument = true);
    document.addEventListener('keydown', listener);
    act(() => {
      fireEvent.keyDown(dialog, { key: 'Escape' });
    });
    document.removeEventListener('keydown', listener);
    expect(view.queryByRole('dialog')).toBeNull();
    expect(reachedDocument).toBe(false);
  });

  it('shows a reader the groups without add, edit, users or delete', async () => {
    const { view } = await openGroups([ops], ['fe.secure.read.groups']);
    await view.findByRole('row', { name: /Ops/ });
    expect(view.queryByRole('button', { name: 'Add group' })).toBeNull();
    expect(view.queryByRole('button', { name: /Delete group/ })).toBeNull();
    expect(view.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Group', 'Roles', 'Users', 'Managed by']);
  });
});
