import { chooseRowAction, rowMenuItem, rowMenuItems } from '../test/row-menu';
import { fireEvent, render, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { InviteLink, TenantUser, UsersPage } from '@gatehouse/shared/wire';
import type { GatehouseApi } from '../contract';
import { readAdminPortalOptions } from '../options';
import { createTestStore, makeUser, shadowMountPoint } from '../test/fake-store';
import UsersSection from './users';
import { parseEmailList } from './users/users-api';
import { expirationSeconds } from './users/temporary-dialog';

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

const LINK: InviteLink = { id: 'l1', token: 'tok', url: 'https://app.example.com/account/sign-up?invitationToken=tok', expires: '2026-12-22T10:00:00.000Z', expiresInMinutes: 43200 };

interface Call { method: string; path: string; body?: unknown }
type Handler = (call: Call) => unknown;

/** The API boundary: records every call; `handlers` answer (or throw) per "METHOD path", else the team and roles. */
function recordingApi(items: TenantUser[], handlers: Record<string, Handler> = {}) {
  const calls: Call[] = [];
  const api = {
    async request(method: string, path: string, options: { body?: unknown } = {}) {
      const call = { method, path, ...(options.body !== undefined ? { body: options.body } : {}) };
      calls.push(call);
      const handler = handlers[`${method} ${path}`];
      if (handler) return handler(call);
      if (method === 'GET' && path === '/team/resources/members/v1') return { items, _metadata: { totalItems: items.length, totalPages: 1 } } satisfies UsersPage;
      if (method === 'GET' && path === '/team/resources/roles/v1') return { roles: ROLES, permissions: [] };
      return {};
    },
  } as unknown as GatehouseApi;
  return { api, calls };
}

const WRITE = ['fe.secure.read.users', 'fe.secure.write.users'];
const ada = tenantUser({ id: 'u-ada', name: 'Ada Byron', email: 'ada@example.com' });
const bob = tenantUser({ id: 'u-bob', name: 'Bob Stone', email: 'bob@example.com', invitationPending: true, verified: false });
const tia = tenantUser({ id: 'u-tia', name: 'Tia Temp', email: 'tia@example.com', temporaryExpirationDate: '2026-12-24T12:00:00.000Z' });

async function openUsers(items: TenantUser[], opts: { permissions?: string[]; handlers?: Record<string, Handler>; adminPortal?: Record<string, unknown> } = {}) {
  const { api, calls } = recordingApi(items, opts.handlers);
  const { domElement } = shadowMountPoint();
  const user = makeUser({ id: 'me', permissions: (opts.permissions ?? WRITE).map((key, i) => ({ id: `p${i}`, key, name: key })) });
  render(<UsersSection title="Users" headingId="users-heading" user={user} snapshot={createTestStore(user).getSnapshot()} store={createTestStore(user)} api={api} options={readAdminPortalOptions(opts.adminPortal)} />, { container: domElement });
  const view = within(domElement);
  await view.findByRole('row', { name: new RegExp(items[0]!.name!) });
  return { view, calls };
}

const notFound = () => {
  throw { kind: 'GatehouseError', statusCode: 404, message: 'This account has no invite link' };
};

afterEach(() => {
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

describe('users section: invite link', () => {
  it('creates the link with the default 30 days (43200 minutes) when there is none, then shows its URL, Copy and expiry', async () => {
    const { view, calls } = await openUsers([ada], { handlers: { 'GET /identity/resources/tenants/invites/v1/user': notFound, 'POST /identity/resources/tenants/invites/v1/user': () => LINK } });
    fireEvent.click(view.getByRole('button', { name: 'Invite link' }));
    const dialog = await view.findByRole('dialog', { name: 'Invite link' });
    await within(dialog).findByText(/no invite link/);
    expect((within(dialog).getByLabelText('Expires in (days)') as HTMLInputElement).value).toBe('30');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create link' }));
    expect(((await within(dialog).findByLabelText('Link')) as HTMLInputElement).value).toBe(LINK.url);
    expect(calls.find((c) => c.method === 'POST')).toEqual({ method: 'POST', path: '/identity/resources/tenants/invites/v1/user', body: { expiresInMinutes: 43200 } });
    expect(within(dialog).getByText(/^Expires /).textContent).toMatch(/2026/);
    await waitFor(() => expect(view.getAllByRole('status')[0]!.textContent).toBe('Invite link created'));

    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Copy' }));
    await within(dialog).findByText('Link copied');
    expect(writeText).toHaveBeenCalledWith(LINK.url);
  });

  it('changes the expiry in days (sent in minutes), refuses a bad number, and deletes only after the confirmation', async () => {
    const { view, calls } = await openUsers([ada], {
      handlers: {
        'GET /identity/resources/tenants/invites/v1/user': () => LINK,
        'PATCH /identity/resources/tenants/invites/v1/user': (call) => ({ ...LINK, expiresInMinutes: (call.body as { expiresInMinutes: number }).expiresInMinutes }),
        'DELETE /identity/resources/tenants/invites/v1/user': () => undefined,
      },
    });
    fireEvent.click(view.getByRole('button', { name: 'Invite link' }));
    const dialog = await view.findByRole('dialog', { name: 'Invite link' });
    const days = (await within(dialog).findByLabelText('New expiry, in days from now')) as HTMLInputElement;
    fireEvent.change(days, { target: { value: '0' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save expiry' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Enter a whole number of days from 1 to 365');
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
    fireEvent.change(days, { target: { value: '2' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save expiry' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PATCH')).toEqual({ method: 'PATCH', path: '/identity/resources/tenants/invites/v1/user', body: { expiresInMinutes: 2880 } }));

    fireEvent.click(await within(dialog).findByRole('button', { name: 'Delete link' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    expect(within(dialog).getByText(/stops working at once/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete link' }));
    await within(dialog).findByText(/no invite link/);
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
    expect(within(dialog).getByRole('button', { name: 'Create link' })).toBeTruthy();
  });

  it('says so when the link cannot be loaded, without offering to create one', async () => {
    const { view } = await openUsers([ada], { handlers: { 'GET /identity/resources/tenants/invites/v1/user': () => { throw { statusCode: 500, message: 'Server down' }; } } });
    fireEvent.click(view.getByRole('button', { name: 'Invite link' }));
    const dialog = await view.findByRole('dialog', { name: 'Invite link' });
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Server down');
    expect(within(dialog).queryByRole('button', { name: 'Create link' })).toBeNull();
  });

  it('is gone for readers and follows the host: hidden removes it, viewOnly disables it', async () => {
    const reader = await openUsers([ada], { permissions: ['fe.secure.read.users'] });
    expect(reader.view.queryByRole('button', { name: 'Invite link' })).toBeNull();
    expect(reader.view.queryByRole('button', { name: 'Add users in bulk' })).toBeNull();
    document.body.innerHTML = '';
    const host = await openUsers([ada], { adminPortal: { fieldVisibility: { users: { inviteLink: 'viewOnly', bulkInvite: 'hidden' } } } });
    expect((host.view.getByRole('button', { name: 'Invite link' }) as HTMLButtonElement).disabled).toBe(true);
    expect(host.view.queryByRole('button', { name: 'Add users in bulk' })).toBeNull();
  });
});

describe('users section: add users in bulk', () => {
  it('splits the list on commas and new lines, sends the ticked roles, and lists the invited and the refused with reasons', async () => {
    const { view, calls } = await openUsers([ada], {
      handlers: {
        'POST /identity/resources/users/bulk/v1/invite': () => ({
          allowed: [{ email: 'c@example.com', userId: 'u-c' }],
          unallowed: [{ email: 'ada@example.com', reason: 'User already exists' }, { email: 'nope', reason: 'Invalid email' }],
        }),
      },
    });
    fireEvent.click(view.getByRole('button', { name: 'Add users in bulk' }));
    const dialog = await view.findByRole('dialog', { name: 'Add users in bulk' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add users' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Enter at least one email address');
    fireEvent.change(within(dialog).getByLabelText('Email addresses'), { target: { value: 'c@example.com,\n ada@example.com\nnope\nc@example.com' } });
    fireEvent.click(within(dialog).getByLabelText('Admin'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add users' }));
    await within(dialog).findByText('Invited (1)');
    expect(calls.find((c) => c.method === 'POST')).toEqual({ method: 'POST', path: '/identity/resources/users/bulk/v1/invite', body: { emails: ['c@example.com', 'ada@example.com', 'nope'], roleIds: ['r-admin'] } });
    expect(within(dialog).getByText('Not invited (2)')).toBeTruthy();
    expect(within(dialog).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['c@example.com', 'ada@example.com: User already exists', 'nope: Invalid email']);
    await waitFor(() => expect(view.getAllByRole('status')[0]!.textContent).toBe('1 invited, 2 not invited'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(view.queryByRole('dialog')).toBeNull();
  });

  it('parses an email list: commas, semicolons, spaces, new lines, duplicates', () => {
    expect(parseEmailList(' a@x.io, b@x.io;\n\nc@x.io a@x.io ')).toEqual(['a@x.io', 'b@x.io', 'c@x.io']);
    expect(parseEmailList(' \n ,')).toEqual([]);
  });
});

describe('users section: resend activation', () => {
  it('is offered only for pending invitations and announces success', async () => {
    const { view, calls } = await openUsers([ada, bob]);
    expect(await rowMenuItems(view, 'Actions for Ada Byron')).not.toContain('Resend activation');
    await chooseRowAction(view, 'Actions for Bob Stone', 'Resend activation');
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('Activation email sent again to bob@example.com'));
    expect(calls.find((c) => c.method === 'POST')).toEqual({ method: 'POST', path: '/team/resources/members/v1/u-bob/resendActivationEmail' });
  });

  it('shows the server error, and follows the host (viewOnly disables)', async () => {
    const failing = await openUsers([bob], { handlers: { 'POST /team/resources/members/v1/u-bob/resendActivationEmail': () => { throw { statusCode: 429, message: 'Too many requests' }; } } });
    await chooseRowAction(failing.view, 'Actions for Bob Stone', 'Resend activation');
    expect((await failing.view.findByRole('alert')).textContent).toBe('Too many requests');
    document.body.innerHTML = '';
    const host = await openUsers([bob], { adminPortal: { fieldVisibility: { users: { resendActivation: 'viewOnly' } } } });
    expect((await rowMenuItem(host.view, 'Actions for Bob Stone', 'Resend activation')).getAttribute('aria-disabled')).toBe('true');
  });
});

describe('users section: temporary users', () => {
  it('shows "Temporary until" in the row and makes a temporary user permanent', async () => {
    const { view, calls } = await openUsers([tia]);
    expect(view.getByRole('row', { name: /Tia Temp/ }).textContent).toMatch(/Temporary until .*2026/);
    await chooseRowAction(view, 'Actions for Tia Temp', 'Make permanent');
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('Tia Temp is permanent again'));
    expect(calls.find((c) => c.method === 'DELETE')).toEqual({ method: 'DELETE', path: '/identity/resources/users/temporary/v1/u-tia' });
  });

  it('makes a user temporary for N hours or days, sent as expirationInSeconds', async () => {
    const { view, calls } = await openUsers([ada]);
    await chooseRowAction(view, 'Actions for Ada Byron', 'Make temporary');
    const dialog = await view.findByRole('dialog', { name: 'Make Ada Byron temporary' });
    fireEvent.change(within(dialog).getByLabelText('Expires in'), { target: { value: '0' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Make temporary' }));
    expect(within(dialog).getByRole('alert').textContent).toMatch(/whole number/);
    fireEvent.change(within(dialog).getByLabelText('Expires in'), { target: { value: '36' } });
    fireEvent.change(within(dialog).getByLabelText('Unit'), { target: { value: 'hours' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Make temporary' }));
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('Ada Byron is temporary now'));
    expect(calls.find((c) => c.method === 'PUT')).toEqual({ method: 'PUT', path: '/identity/resources/users/temporary/v1/u-ada', body: { expirationInSeconds: 129_600 } });
    expect(expirationSeconds('2', 'days')).toBe(172_800);
    expect(expirationSeconds('1.5', 'days')).toBeNull();
    expect(expirationSeconds('4000', 'days')).toBeNull();
  });

  it('is hidden when the host hides it', async () => {
    const { view } = await openUsers([ada, tia], { adminPortal: { fieldVisibility: { users: { temporary: 'hidden' } } } });
    for (const who of ['Ada Byron', 'Tia Temp']) expect((await rowMenuItems(view, `Actions for ${who}`)).some((name) => /^Make (temporary|permanent)$/.test(name))).toBe(false);
  });
});

describe('users section: impersonate', () => {
  it('is offered only to holders of fe.secure.write.impersonate, and opens the login box impersonation route with the token', async () => {
    const plain = await openUsers([ada]);
    expect(await rowMenuItems(plain.view, 'Actions for Ada Byron')).not.toContain('Impersonate');
    document.body.innerHTML = '';

    const url = 'https://app.example.com/account/impersonate?token=one-use';
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign } as Location);
    const { view, calls } = await openUsers([ada], { permissions: [...WRITE, 'fe.secure.write.impersonate'], handlers: { 'POST /identity/resources/impersonation/v1': () => ({ token: 'one-use', expiresIn: 60, url }) } });
    await chooseRowAction(view, 'Actions for Ada Byron', 'Impersonate');
    await waitFor(() => expect(assign).toHaveBeenCalledWith(url));
    expect(calls.find((c) => c.method === 'POST')).toEqual({ method: 'POST', path: '/identity/resources/impersonation/v1', body: { userId: 'u-ada' } });
  });

  it('is not offered on disabled users or super users (the server refuses them)', async () => {
    const { view } = await openUsers([ada, tenantUser({ id: 'u-off', name: 'Off User', isDisabled: true }), tenantUser({ id: 'u-su', name: 'Super User', superUser: true })], { permissions: [...WRITE, 'fe.secure.write.impersonate'] });
    expect(await rowMenuItems(view, 'Actions for Ada Byron')).toContain('Impersonate');
    expect(await rowMenuItems(view, 'Actions for Off User')).not.toContain('Impersonate');
    expect(await rowMenuItems(view, 'Actions for Super User')).not.toContain('Impersonate');
  });

  it('follows the host: hidden removes it', async () => {
    const { view } = await openUsers([ada], { permissions: [...WRITE, 'fe.secure.write.impersonate'], adminPortal: { fieldVisibility: { users: { impersonate: 'hidden' } } } });
    expect(await rowMenuItems(view, 'Actions for Ada Byron')).not.toContain('Impersonate');
  });
});
