import { chooseRowAction, rowMenuItem, rowMenuItems } from '../test/row-menu';
import { act, fireEvent, render, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TenantUser, UsersPage } from '@gatehouse/shared/wire';
import type { GatehouseApi } from '../contract';
import { readAdminPortalOptions } from '../options';
import { createTestStore, makeUser, shadowMountPoint } from '../test/fake-store';
import UsersSection from './users';

/** A row as the server answers it. */
function tenantUser(overrides: Partial<TenantUser>): TenantUser {
  return {
    id: 'u', email: 'u@example.com', name: 'U', phoneNumber: null, profilePictureUrl: null, tenantId: 'tenant-1', roleIds: [], roles: [], groups: [],
    verified: true, isLocked: false, isDisabled: false, invitationPending: false, temporaryExpirationDate: null, mfaEnrolled: false, isBreachedPassword: false,
    provider: 'local', managedBy: 'frontegg', superUser: false, createdAt: '2026-01-01T00:00:00.000Z', joinedAt: '2026-01-02T00:00:00.000Z', lastSeen: null, ...overrides,
  };
}

const ROLES = [
  { id: 'r-admin', key: 'Admin', name: 'Admin', description: null, isDefault: false, permissions: [], tenantId: 'tenant-1', userCount: 1, createdAt: '' },
  { id: 'r-read', key: 'ReadOnly', name: 'Read only', description: null, isDefault: true, permissions: [], tenantId: 'tenant-1', userCount: 1, createdAt: '' },
];

interface Call { method: string; path: string; body?: unknown; query?: Record<string, unknown> }

/** The API boundary: records every call and answers from a fixed team. */
function recordingApi(items: TenantUser[]): { api: GatehouseApi; calls: Call[] } {
  const calls: Call[] = [];
  const api = {
    async request(method: string, path: string, options: { body?: unknown; query?: Record<string, unknown> } = {}) {
      calls.push({ method, path, ...options });
      if (method === 'GET' && path === '/team/resources/members/v1') return { items, _metadata: { totalItems: items.length, totalPages: 1 } } satisfies UsersPage;
      if (method === 'GET' && path === '/team/resources/roles/v1') return { roles: ROLES, permissions: [] };
      return {};
    },
  } as unknown as GatehouseApi;
  return { api, calls };
}

const ada = tenantUser({ id: 'u-ada', name: 'Ada Byron', email: 'ada@example.com', roleIds: ['r-read'], roles: [{ id: 'r-read', key: 'ReadOnly', name: 'Read only' }], groups: [{ id: 'g', name: 'Ops', color: null }] });
const bob = tenantUser({ id: 'u-bob', name: 'Bob Stone', email: 'bob@example.com', invitationPending: true, verified: false });

async function openUsers(items: TenantUser[], permissions: string[] = ['fe.secure.read.users', 'fe.secure.write.users'], adminPortal?: Record<string, unknown>) {
  const { api, calls } = recordingApi(items);
  const { domElement } = shadowMountPoint();
  const user = makeUser({ id: 'me', permissions: permissions.map((key, i) => ({ id: `p${i}`, key, name: key })) });
  render(<UsersSection title="Users" headingId="users-heading" user={user} snapshot={createTestStore(user).getSnapshot()} store={createTestStore(user)} api={api} options={readAdminPortalOptions(adminPortal)} />, { container: domElement });
  const view = within(domElement);
  await view.findByRole('row', { name: /Ada Byron/ });
  return { view, calls };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('users section', () => {
  it('shows the first page sorted by name with groups, roles, joined, last seen and managed by', async () => {
    const { view, calls } = await openUsers([ada, bob]);
    expect(calls[0]).toEqual({ method: 'GET', path: '/team/resources/members/v1', query: { pageOffset: 0, pageSize: 20, filter: undefined, sortBy: 'name', sortDirection: 'asc', preset: undefined } });
    const row = view.getByRole('row', { name: /Ada Byron/ });
    expect(within(row).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Ops', 'Read only', expect.stringMatching(/2026/), 'Never', 'Signed up', '']);
    // Who manages a user, in the tenant's terms: a pending invitation is "Invited", never the vendor's name.
    expect(within(view.getByRole('row', { name: /Bob Stone/ })).getAllByRole('cell')[4]!.textContent).toBe('Invited');
    expect(await rowMenuItems(view, 'Actions for Ada Byron')).toEqual(['Edit roles', 'Disable', 'Lock', 'Make temporary', 'Remove']);
    expect(view.getByRole('row', { name: /Bob Stone/ }).textContent).toContain('Invited');
    expect(view.getByText('2 users')).toBeTruthy();
    expect(view.getByText('Page 1 of 1')).toBeTruthy();
  });

  it('asks the server for the other name order, a search (after a pause, from page one) and a filter preset', async () => {
    const { view, calls } = await openUsers([ada]);
    fireEvent.click(view.getByRole('button', { name: /^User/ }));
    await waitFor(() => expect(calls.at(-1)?.query).toMatchObject({ sortDirection: 'desc' }));
    expect(view.getByRole('columnheader', { name: /User/ }).getAttribute('aria-sort')).toBe('descending');
    fireEvent.change(view.getByLabelText('Search users'), { target: { value: 'ada' } });
    await waitFor(() => expect(calls.at(-1)?.query).toMatchObject({ filter: 'ada', pageOffset: 0 }), { timeout: 2000 });
    fireEvent.change(view.getByLabelText('Show'), { target: { value: 'mfa-unenrolled' } });
    await waitFor(() => expect(calls.at(-1)?.query).toMatchObject({ preset: 'mfa-unenrolled', filter: 'ada' }));
  });

  // Issue 17: an offset makes the server walk every row before the page; a cursor seeks it.
  it('goes to the next and previous pages by the cursors of the page shown, and back to offsets for page one and a new search', async () => {
    const calls: Call[] = [];
    // Page n (1-based) of 3 answers cursors naming it, so each call shows which page it came from.
    const pageOf = (query: Record<string, unknown>) => {
      const cursor = query.cursor as string | undefined;
      const n = cursor ? Number(/-(\d)$/.exec(cursor)![1]) : Number(query.pageOffset) + 1;
      return { items: [tenantUser({ id: `u-${n}`, name: `Person ${n}` })], _metadata: { totalItems: 60, totalPages: 3 }, nextCursor: n < 3 ? `next-to-${n + 1}` : null, prevCursor: n > 1 ? `prev-to-${n - 1}` : null } satisfies UsersPage;
    };
    const api = {
      async request(method: string, path: string, options: { query?: Record<string, unknown> } = {}) {
        calls.push({ method, path, ...options });
        if (method === 'GET' && path === '/team/resources/members/v1') return pageOf(options.query ?? {});
        if (method === 'GET' && path === '/team/resources/roles/v1') return { roles: ROLES, permissions: [] };
        return {};
      },
    } as unknown as GatehouseApi;
    const { domElement } = shadowMountPoint();
    const user = makeUser({ id: 'me', permissions: [{ id: 'p0', key: 'fe.secure.read.users', name: 'read' }] });
    render(<UsersSection title="Users" headingId="users-heading" user={user} snapshot={createTestStore(user).getSnapshot()} store={createTestStore(user)} api={api} options={readAdminPortalOptions(undefined)} />, { container: domElement });
    const view = within(domElement);
    await view.findByRole('row', { name: /Person 1/ });
    const lists = () => calls.filter((c) => c.path === '/team/resources/members/v1').map((c) => c.query);
    fireEvent.click(view.getByRole('button', { name: 'Next' }));
    await view.findByRole('row', { name: /Person 2/ });
    fireEvent.click(view.getByRole('button', { name: 'Next' }));
    await view.findByRole('row', { name: /Person 3/ });
    expect(view.getByText('Page 3 of 3')).toBeTruthy();
    fireEvent.click(view.getByRole('button', { name: 'Previous' }));
    await view.findByRole('row', { name: /Person 2/ });
    fireEvent.click(view.getByRole('button', { name: 'Previous' }));
    await view.findByRole('row', { name: /Person 1/ });
    fireEvent.click(view.getByRole('button', { name: 'Next' }));
    await view.findByRole('row', { name: /Person 2/ });
    fireEvent.change(view.getByLabelText('Search users'), { target: { value: 'per' } });
    await waitFor(() => expect(lists().at(-1)).toMatchObject({ filter: 'per' }), { timeout: 2000 });
    const shape = lists().map((q) => ({ pageOffset: q?.pageOffset, cursor: q?.cursor }));
    expect(shape).toEqual([
      { pageOffset: 0, cursor: undefined },
      { pageOffset: undefined, cursor: 'next-to-2' },
      { pageOffset: undefined, cursor: 'next-to-3' },
      { pageOffset: undefined, cursor: 'prev-to-2' },
      // Page one by offset: no keyset is faster than the index's first rows.
      { pageOffset: 0, cursor: undefined },
      { pageOffset: undefined, cursor: 'next-to-2' },
      // A new search starts over from page one.
      { pageOffset: 0, cursor: undefined },
    ]);
  });

  it('removes every role by sending a single empty role id, then says so', async () => {
    const { view, calls } = await openUsers([ada]);
    await chooseRowAction(view, 'Actions for Ada Byron', 'Edit roles');
    const dialog = await view.findByRole('dialog', { name: 'Edit roles of Ada Byron' });
    const readOnly = within(dialog).getByLabelText('Read only') as HTMLInputElement;
    expect(readOnly.checked).toBe(true);
    fireEvent.click(readOnly);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save roles' }));
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('Roles of Ada Byron saved'));
    expect(calls.find((c) => c.method === 'PUT')).toEqual({ method: 'PUT', path: '/team/resources/members/v1', body: { id: 'u-ada', roleIds: [''] } });
    expect(view.queryByRole('dialog')).toBeNull();
  });

  it('checks the invite form before sending, sends name, email, optional phone and roles, and Escape closes only the dialog', async () => {
    const { view, calls } = await openUsers([ada]);
    fireEvent.click(view.getByRole('button', { name: 'Invite user' }));
    const dialog = await view.findByRole('dialog', { name: 'Invite user' });
    expect((dialog.getRootNode() as ShadowRoot).activeElement).toBe(within(dialog).getByLabelText('Email'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(within(dialog).getAllByRole('alert').map((a) => a.textContent)).toEqual(['Enter a valid email address', 'Enter a name']);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.change(within(dialog).getByLabelText('Email'), { target: { value: 'carol@example.com' } });
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Carol Ng' } });
    fireEvent.change(within(dialog).getByLabelText(/Phone number/), { target: { value: '+44 20 7946 0958' } });
    expect((within(dialog).getByLabelText(/Phone number/) as HTMLInputElement).type).toBe('tel');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('Invitation sent to carol@example.com'));
    expect(calls.find((c) => c.method === 'POST')).toEqual({ method: 'POST', path: '/identity/resources/users/v1', body: { email: 'carol@example.com', name: 'Carol Ng', phoneNumber: '+44 20 7946 0958', roleIds: ['r-read'] } });

    fireEvent.click(view.getByRole('button', { name: 'Invite user' }));
    const again = await view.findByRole('dialog', { name: 'Invite user' });
    let reachedDocument = false;
    const listener = () => (reachedDocument = true);
    document.addEventListener('keydown', listener);
    act(() => {
      fireEvent.keyDown(again, { key: 'Escape' });
    });
    document.removeEventListener('keydown', listener);
    expect(view.queryByRole('dialog')).toBeNull();
    expect(reachedDocument).toBe(false);
  });

  it('shows a reader the list without the invite button or row actions', async () => {
    const { view } = await openUsers([ada], ['fe.secure.read.users']);
    expect(view.queryByRole('button', { name: 'Invite user' })).toBeNull();
    expect(view.queryByRole('button', { name: /Actions for/ })).toBeNull();
    expect(view.getAllByRole('columnheader').map((h) => h.textContent?.replace(/[▲▼].*/, '').trim())).toEqual(['User', 'Groups', 'Roles', 'Joined', 'Last seen', 'Managed by']);
  });

  it("honours the host's field visibility for its actions: hidden ones are gone, view-only ones are shown disabled", async () => {
    const { view } = await openUsers([ada], undefined, { fieldVisibility: { users: { invite: 'viewOnly', editRoles: 'hidden', disable: 'viewOnly', lock: 'hidden', delete: 'hidden' } } });
    expect((view.getByRole('button', { name: 'Invite user' }) as HTMLButtonElement).disabled).toBe(true);
    expect((await rowMenuItem(view, 'Actions for Ada Byron', 'Disable')).getAttribute('aria-disabled')).toBe('true');
    expect(view.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Disable', 'Make temporary']);
  });

  it('drops the actions column when the host hides every row action', async () => {
    const { view } = await openUsers([ada], undefined, { fieldVisibility: { users: { editRoles: 'hidden', disable: 'hidden', lock: 'hidden', delete: 'hidden', resendActivation: 'hidden', temporary: 'hidden' } } });
    expect(view.getAllByRole('columnheader')).toHaveLength(6);
    expect(view.getByRole('button', { name: 'Invite user' })).toBeTruthy();
  });
});
