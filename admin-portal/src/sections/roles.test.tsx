import { chooseRowAction, rowMenuItem, rowMenuItems } from '../test/row-menu';
import { fireEvent, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Permission, PermissionCategory, Role } from '@gatehouse/shared/wire';
import { expectFailedDeleteKeepsDialog, recordingApi, renderSection, type Failure } from '../test/section-harness';
import RolesSection from './roles';

function role(overrides: Partial<Role>): Role {
  return { id: 'r', key: 'R', name: 'R', description: null, isDefault: false, permissions: [], tenantId: 'tenant-1', userCount: 0, createdAt: '2026-01-01T00:00:00.000Z', ...overrides };
}

const PERMISSIONS: Permission[] = [
  { id: 'p-users-read', key: 'fe.secure.read.users', name: 'Read users', description: null, categoryId: 'c-users' },
  { id: 'p-users-write', key: 'fe.secure.write.users', name: 'Manage users', description: null, categoryId: 'c-users' },
  { id: 'p-reports', key: 'app.reports', name: 'See reports', description: null, categoryId: null },
];
const CATEGORIES: PermissionCategory[] = [{ id: 'c-users', name: 'Users', description: null, permissionIds: ['p-users-read', 'p-users-write'] }];

/** The API boundary: answers from fixed roles. */
function answers(roles: Role[]) {
  return (method: string, path: string) => {
    if (method === 'GET' && path === '/identity/resources/roles/v1') return roles;
    if (method === 'GET' && path === '/identity/resources/permissions/v1') return PERMISSIONS;
    if (method === 'GET' && path === '/identity/resources/permissions/v1/categories') return CATEGORIES;
    return undefined;
  };
}

const admin = role({ id: 'r-admin', key: 'Admin', name: 'Admin', permissions: ['p-users-read', 'p-users-write'], userCount: 2 });
const readOnly = role({ id: 'r-read', key: 'ReadOnly', name: 'Read only', description: 'Sees, never changes', isDefault: true, permissions: ['p-users-read'], userCount: 5 });

async function openRoles(roles: Role[], permissions: string[] = ['fe.secure.read.roles', 'fe.secure.write.roles'], failures: Failure[] = [], adminPortal?: Record<string, unknown>) {
  const { api, calls } = recordingApi(answers(roles), failures);
  return { view: renderSection(RolesSection, 'Roles', api, permissions, adminPortal), calls };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('roles section', () => {
  it('lists the roles with key, permission count, user count and the default badge', async () => {
    const { view } = await openRoles([admin, readOnly]);
    const row = await view.findByRole('row', { name: /Read only/ });
    expect(row.textContent).toContain('Default');
    expect(within(row).getAllByRole('cell').map((c) => c.textContent)).toEqual(['ReadOnly', '1 permission', '5', '']);
    expect(await rowMenuItems(view, 'Actions for role Read only')).toEqual(['Edit', 'Delete']);
    expect(within(view.getByRole('row', { name: /^Admin/ })).getAllByRole('cell')[1]?.textContent).toBe('2 permissions');
  });

  it('checks the new role form, then creates the role with its permissions by category through roles v2', async () => {
    const { view, calls } = await openRoles([admin]);
    await view.findByRole('row', { name: /^Admin/ });
    fireEvent.click(view.getByRole('button', { name: 'Add role' }));
    const dialog = await view.findByRole('dialog', { name: 'Add role' });
    expect((dialog.getRootNode() as ShadowRoot).activeElement).toBe(within(dialog).getByLabelText('Name'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add role' }));
    expect(within(dialog).getAllByRole('alert').map((a) => a.textContent)).toEqual(['Enter a name', 'Enter a key of letters, digits and . _ : -']);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    expect(within(dialog).getByRole('group', { name: 'Users' })).toBeTruthy();
    expect(within(within(dialog).getByRole('group', { name: 'Other' })).getByLabelText(/See reports/)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Support' } });
    fireEvent.change(within(dialog).getByLabelText('Key'), { target: { value: 'Support' } });
    fireEvent.click(within(dialog).getByLabelText(/Read users/));
    fireEvent.click(within(dialog).getByLabelText(/Default role/));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add role' }));
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('Role Support added'));
    expect(calls.find((c) => c.method === 'POST')).toEqual({ method: 'POST', path: '/identity/resources/roles/v2', body: { key: 'Support', name: 'Support', isDefault: true, permissionIds: ['p-users-read'] } });
    expect(view.queryByRole('dialog')).toBeNull();
  });

  it('saves an edited role with PATCH and sets its permissions only when they changed', async () => {
    const { view, calls } = await openRoles([readOnly]);
    await chooseRowAction(view, 'Actions for role Read only', 'Edit');
    const dialog = await view.findByRole('dialog', { name: 'Edit role Read only' });
    fireEvent.change(within(dialog).getByLabelText(/Description/), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save role' }));
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('Role Read only saved'));
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([{ method: 'PATCH', path: '/identity/resources/roles/v1/r-read', body: { key: 'ReadOnly', name: 'Read only', isDefault: true, description: null } }]);

    await chooseRowAction(view, 'Actions for role Read only', 'Edit');
    const again = await view.findByRole('dialog', { name: 'Edit role Read only' });
    fireEvent.click(within(again).getByLabelText(/Manage users/));
    fireEvent.click(within(again).getByRole('button', { name: 'Save role' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toEqual([{ method: 'PUT', path: '/identity/resources/roles/v1/r-read/permissions', body: { permissionIds: ['p-users-read', 'p-users-write'] } }]));
  });

  it('adds one permission to many roles', async () => {
    const { view, calls } = await openRoles([admin, readOnly]);
    await view.findByRole('row', { name: /^Admin/ });
    fireEvent.click(view.getByRole('button', { name: 'Add a permission to roles' }));
    const dialog = await view.findByRole('dialog', { name: 'Add a permission to roles' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add permission' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Choose at least one role');
    fireEvent.change(within(dialog).getByLabelText('Permission'), { target: { value: 'p-reports' } });
    fireEvent.click(within(dialog).getByLabelText('Admin'));
    fireEvent.click(within(dialog).getByLabelText(/Read only/));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add permission' }));
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('See reports added to 2 roles'));
    expect(calls.find((c) => c.method === 'PUT')).toEqual({ method: 'PUT', path: '/identity/resources/permissions/v1/p-reports/roles', body: { roleIds: ['r-admin', 'r-read'] } });
  });

  it('keeps the delete dialog open with the server message when deleting fails, and Escape closes only the dialog', async () => {
    const { view } = await openRoles([admin], undefined, [{ method: 'DELETE', path: '/identity/resources/roles/v1/r-admin', error: { message: 'Missing permission, or a role with permissions beyond your own', statusCode: 403 } }]);
    await chooseRowAction(view, 'Actions for role Admin', 'Delete');
    const dialog = await view.findByRole('dialog', { name: 'Delete role Admin' });
    await expectFailedDeleteKeepsDialog(view, dialog, 'Missing permission, or a role with permissions beyond your own');
  });

  it('shows the generic message when the roles cannot be loaded', async () => {
    const { view } = await openRoles([admin], undefined, [{ method: 'GET', path: '/identity/resources/roles/v1', error: { message: '', statusCode: 500 } }]);
    expect((await view.findByRole('alert')).textContent).toBe("We're facing some difficulties, Please try again");
    expect(view.getByText(/^No roles yet\. Use “Add role”/)).toBeTruthy();
  });

  it("honours the host's field visibility for its actions: hidden ones are gone, view-only ones are shown disabled", async () => {
    const { view } = await openRoles([admin], undefined, [], { fieldVisibility: { roles: { create: 'viewOnly', edit: 'viewOnly', delete: 'hidden', attachPermission: 'hidden' } } });
    await view.findByRole('row', { name: /^Admin/ });
    expect((view.getByRole('button', { name: 'Add role' }) as HTMLButtonElement).disabled).toBe(true);
    expect((await rowMenuItem(view, 'Actions for role Admin', 'Edit')).getAttribute('aria-disabled')).toBe('true');
    expect(view.queryByRole('menuitem', { name: 'Delete' })).toBeNull();
    expect(view.queryByRole('button', { name: 'Add a permission to roles' })).toBeNull();
  });

  it('drops the actions column when the host hides every row action', async () => {
    const { view } = await openRoles([admin], undefined, [], { fieldVisibility: { roles: { edit: 'hidden', delete: 'hidden' } } });
    await view.findByRole('row', { name: /^Admin/ });
    expect(view.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Role', 'Key', 'Permissions', 'Users']);
    expect(view.getByRole('button', { name: 'Add role' })).toBeTruthy();
  });

  it('shows a reader the roles without add, edit or delete', async () => {
    const { view } = await openRoles([admin], ['fe.secure.read.roles']);
    await view.findByRole('row', { name: /^Admin/ });
    expect(view.queryByRole('button', { name: 'Add role' })).toBeNull();
    expect(view.queryByRole('button', { name: /Actions for role/ })).toBeNull();
    expect(view.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Role', 'Key', 'Permissions', 'Users']);
  });
});
