import { chooseRowAction, rowMenuItem, rowMenuItems } from '../test/row-menu';
import { fireEvent, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Group, Role, UsersPage } from '@gatehouse/shared/wire';
import { expectFailedDeleteKeepsDialog, recordingApi, renderSection, type Failure } from '../test/section-harness';
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

/** The API boundary: answers from fixed groups, roles and users. */
function answers(groups: Group[]) {
  return (method: string, path: string, options: { query?: Record<string, unknown> }) => {
    if (method === 'GET' && path === '/identity/resources/groups/v1') return { groups };
    if (method === 'GET' && path === '/identity/resources/roles/v1') return ROLES;
    if (method === 'GET' && path === '/team/resources/members/v1') {
      const filter = String(options.query?.filter ?? '').toLowerCase();
      const items = MEMBERS.filter((m) => !filter || m.name.toLowerCase().includes(filter));
      return { items, _metadata: { totalItems: items.length, totalPages: 1 } } as unknown as UsersPage;
    }
    return undefined;
  };
}

const ops = group({ id: 'g-ops', name: 'Ops', description: 'On call', color: '#3366ff', roles: [{ id: 'r-admin', key: 'Admin', name: 'Admin' }], users: [{ id: 'u-ada', name: 'Ada Byron', email: 'ada@example.com' }] });
const scim = group({ id: 'g-scim', name: 'Engineering', managedBy: 'scim2' });

async function openGroups(groups: Group[], permissions: string[] = ['fe.secure.read.groups', 'fe.secure.write.groups'], failures: Failure[] = [], adminPortal?: Record<string, unknown>) {
  const { api, calls } = recordingApi(answers(groups), failures);
  return { view: renderSection(GroupsSection, 'Groups', api, permissions, adminPortal), calls };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('groups section', () => {
  it('lists the groups with roles, users and who manages them, and provider-managed groups are read-only', async () => {
    const { view, calls } = await openGroups([ops, scim]);
    const row = await view.findByRole('row', { name: /Ops/ });
    expect(calls[0]).toEqual({ method: 'GET', path: '/identity/resources/groups/v1', query: { _groupsRelations: 'rolesAndUsers' } });
    expect(within(row).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Admin', 'Ada Byron', 'This account', '']);
    const managed = view.getByRole('row', { name: /Engineering/ });
    expect(within(managed).getAllByRole('cell').map((c) => c.textContent)).toEqual(['None', 'None', 'SCIM', 'Read-only']);
    expect(await rowMenuItems(view, 'Actions for group Ops')).toEqual(['Edit', 'Users', 'Delete']);
    expect(view.queryByRole('button', { name: 'Actions for group Engineering' })).toBeNull();
  });

  it('says why groups managed by SCIM are read-only, only when the list has one', async () => {
    const { view } = await openGroups([ops, scim]);
    await view.findByRole('row', { name: /Engineering/ });
    expect(view.getByText('Groups managed by your identity provider through SCIM are read-only: change them and their users there.')).toBeTruthy();
    document.body.innerHTML = '';
    const alone = await openGroups([ops]);
    await alone.view.findByRole('row', { name: /Ops/ });
    expect(alone.view.queryByText(/managed by your identity provider through SCIM/)).toBeNull();
  });

  it('checks the new group form, then creates it with name, description, color and roles', async () => {
    const { view, calls } = await openGroups([]);
    await view.findByText(/^No groups yet\. Use “Add group”/);
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
    await chooseRowAction(view, 'Actions for group Ops', 'Edit');
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
    await chooseRowAction(view, 'Actions for group Ops', 'Users');
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
    await chooseRowAction(view, 'Actions for group Ops', 'Delete');
    const dialog = await view.findByRole('dialog', { name: 'Delete group Ops' });
    await expectFailedDeleteKeepsDialog(view, dialog, 'Group not found');
  });

  it("honours the host's field visibility for its actions: hidden ones are gone, view-only ones are shown disabled", async () => {
    const { view } = await openGroups([ops], undefined, [], { fieldVisibility: { groups: { create: 'hidden', edit: 'viewOnly', users: 'hidden', delete: 'viewOnly' } } });
    await view.findByRole('row', { name: /Ops/ });
    expect(view.queryByRole('button', { name: 'Add group' })).toBeNull();
    expect((await rowMenuItem(view, 'Actions for group Ops', 'Edit')).getAttribute('aria-disabled')).toBe('true');
    expect(view.getByRole('menuitem', { name: 'Delete' }).getAttribute('aria-disabled')).toBe('true');
    expect(view.queryByRole('menuitem', { name: 'Users' })).toBeNull();
    // A view-only item does nothing when chosen.
    fireEvent.click(view.getByRole('menuitem', { name: 'Edit' }));
    expect(view.queryByRole('dialog')).toBeNull();
  });

  it('shows a reader the groups without add, edit, users or delete', async () => {
    const { view } = await openGroups([ops], ['fe.secure.read.groups']);
    await view.findByRole('row', { name: /Ops/ });
    expect(view.queryByRole('button', { name: 'Add group' })).toBeNull();
    expect(view.queryByRole('button', { name: /Actions for group/ })).toBeNull();
    expect(view.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Group', 'Roles', 'Users', 'Managed by']);
  });
});
