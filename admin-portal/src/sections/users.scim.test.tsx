import { render, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TenantUser, UsersPage } from '@gatehouse/shared/wire';
import type { GatehouseApi } from '../contract';
import { readAdminPortalOptions } from '../options';
import { createTestStore, makeUser, shadowMountPoint } from '../test/fake-store';
import { chooseRowAction, rowMenuItems } from '../test/row-menu';
import UsersSection from './users';

/** A row as the server answers it. */
function tenantUser(overrides: Partial<TenantUser>): TenantUser {
  return {
    id: 'u', email: 'u@example.com', name: 'U', phoneNumber: null, profilePictureUrl: null, tenantId: 'tenant-1', roleIds: [], roles: [], groups: [],
    verified: true, isLocked: false, isDisabled: false, invitationPending: false, temporaryExpirationDate: null, mfaEnrolled: false, isBreachedPassword: false,
    provider: 'local', managedBy: 'frontegg', superUser: false, createdAt: '2026-01-01T00:00:00.000Z', joinedAt: '2026-01-02T00:00:00.000Z', lastSeen: null, ...overrides,
  };
}

const ada = tenantUser({ id: 'u-ada', name: 'Ada Byron', email: 'ada@example.com' });
const grace = tenantUser({ id: 'u-grace', name: 'Grace Hopper', email: 'grace@example.com', provider: 'scim2', managedBy: 'scim2' });

function openUsers(items: TenantUser[], permissions: string[]) {
  const api = {
    async request(method: string, path: string) {
      if (method === 'GET' && path === '/team/resources/members/v1') return { items, _metadata: { totalItems: items.length, totalPages: 1 } } satisfies UsersPage;
      if (method === 'GET' && path === '/team/resources/roles/v1') return { roles: [{ id: 'r-read', key: 'ReadOnly', name: 'Read only', description: null, isDefault: true, permissions: [], tenantId: 'tenant-1', userCount: 1, createdAt: '' }], permissions: [] };
      return {};
    },
  } as unknown as GatehouseApi;
  const { domElement } = shadowMountPoint();
  const user = makeUser({ id: 'me', permissions: permissions.map((key, i) => ({ id: `p${i}`, key, name: key })) });
  render(<UsersSection title="Users" headingId="users-heading" user={user} snapshot={createTestStore(user).getSnapshot()} store={createTestStore(user)} api={api} options={readAdminPortalOptions(undefined)} />, { container: domElement });
  return within(domElement);
}

const WRITER = ['fe.secure.read.users', 'fe.secure.write.users'];

afterEach(() => {
  document.body.innerHTML = '';
});

describe('users managed by SCIM', () => {
  it('are marked read-only, the section says why, and their menu offers no change but their roles', async () => {
    const view = openUsers([ada, grace], WRITER);
    const row = await view.findByRole('row', { name: /Grace Hopper/ });
    expect(within(row).getByRole('rowheader').textContent).toContain('Read-only');
    expect(within(row).getAllByRole('cell')[4]?.textContent).toBe('SCIM');
    expect(view.getByText(/^Users marked Read-only are managed by your identity provider through SCIM/)).toBeTruthy();
    // Roles are the account's to give (the admin API grants them); nothing of the user itself changes here.
    expect(await rowMenuItems(view, 'Actions for Grace Hopper')).toEqual(['Edit roles']);
    // The tenant's own users keep every action.
    expect(await rowMenuItems(view, 'Actions for Ada Byron')).toEqual(['Edit roles', 'Disable', 'Lock', 'Make temporary', 'Remove']);
  });

  it("say in the roles dialog that only the user's roles change here", async () => {
    const view = openUsers([grace], WRITER);
    await view.findByRole('row', { name: /Grace Hopper/ });
    await chooseRowAction(view, 'Actions for Grace Hopper', 'Edit roles');
    const dialog = await view.findByRole('dialog', { name: /Grace Hopper/ });
    expect(within(dialog).getByText('Grace Hopper is managed by your identity provider through SCIM: only their roles change here.')).toBeTruthy();
  });

  it('can still be impersonated by an admin who may impersonate, since that changes nothing of the user', async () => {
    const view = openUsers([grace], [...WRITER, 'fe.secure.write.impersonate']);
    await view.findByRole('row', { name: /Grace Hopper/ });
    expect(await rowMenuItems(view, 'Actions for Grace Hopper')).toEqual(['Edit roles', 'Impersonate']);
  });

  it('show as active when the identity provider provisioned them active (the server answers them verified), and as Disabled once it sets active=false', async () => {
    // As GET /team/resources/members/v1 answers SCIM users (server/src/routes/scim/users.test.ts).
    const alan = tenantUser({ id: 'u-alan', name: 'Alan Turing', email: 'alan@example.com', provider: 'scim2', managedBy: 'scim2', isDisabled: true });
    const view = openUsers([grace, alan], WRITER);
    const active = within(await view.findByRole('row', { name: /Grace Hopper/ })).getByRole('rowheader').textContent;
    expect(active).not.toContain('Not activated');
    expect(active).not.toContain('Disabled');
    const off = within(view.getByRole('row', { name: /Alan Turing/ })).getByRole('rowheader').textContent;
    expect(off).toContain('Disabled');
    expect(off).not.toContain('Not activated');
  });

  it('are not mentioned when the page has none', async () => {
    const view = openUsers([ada], WRITER);
    await view.findByRole('row', { name: /Ada Byron/ });
    expect(view.queryByText(/managed by your identity provider through SCIM/)).toBeNull();
    expect(within(view.getByRole('row', { name: /Ada Byron/ })).getByRole('rowheader').textContent).not.toContain('Read-only');
  });
});
