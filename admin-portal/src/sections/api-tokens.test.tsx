import { act, fireEvent, render, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiToken, CreatedApiToken, Role } from '@gatehouse/shared/wire';
import type { GatehouseApi } from '../contract';
import { readAdminPortalOptions } from '../options';
import { createTestStore, makeUser, shadowMountPoint } from '../test/fake-store';
import ApiTokensSection from './api-tokens';
import PersonalApiTokensSection from './personal-api-tokens';

const ROLES: Role[] = [
  { id: 'r-admin', key: 'Admin', name: 'Admin', description: null, isDefault: false, permissions: [], tenantId: 'tenant-1', userCount: 1, createdAt: '' },
  { id: 'r-read', key: 'ReadOnly', name: 'Read only', description: null, isDefault: true, permissions: [], tenantId: 'tenant-1', userCount: 1, createdAt: '' },
];

function token(overrides: Partial<ApiToken>): ApiToken {
  return { id: 't', clientId: 'CLIENT_ID_t', type: 'ClientCredentials', description: 'T', createdAt: '2026-03-01T10:00:00.000Z', roleIds: [], expiresInMinutes: null, expires: null, userId: null, ...overrides };
}

const ci = token({ id: 't-ci', clientId: 'CLIENT_ID_ci', description: 'CI pipeline', createdAt: '2026-03-01T10:00:00.000Z', roleIds: ['r-read'] });
const reports = token({ id: 't-rep', clientId: 'CLIENT_ID_rep', type: 'AccessToken', description: 'Reports job', createdAt: '2026-03-05T10:00:00.000Z', expiresInMinutes: 1440, expires: '2026-04-04T10:00:00.000Z' });

const SECRET = 'sEcReT-4f1b9c2e7d';
const TENANT = {
  list: '/identity/resources/tenants/api-tokens/v1',
  access: '/identity/resources/tenants/access-tokens/v1',
};
const USER = {
  list: '/identity/resources/users/api-tokens/v1',
  access: '/identity/resources/users/access-tokens/v1',
};

interface Call { method: string; path: string; body?: unknown }
type Failure = { method: string; path: string; error: { message: string; statusCode: number } };

/** The API boundary: records every call, keeps the tokens it creates and deletes, and fails the calls it is told to. */
function recordingApi(initial: ApiToken[], failures: Failure[] = []): { api: GatehouseApi; calls: Call[] } {
  const calls: Call[] = [];
  let tokens = [...initial];
  const api = {
    async request(method: string, path: string, options: { body?: Record<string, unknown> } = {}) {
      calls.push({ method, path, ...(options.body ? { body: options.body } : {}) });
      const failure = failures.find((f) => f.method === method && f.path === path);
      if (failure) throw Object.assign(new Error(failure.error.message), failure.error);
      const type = path.includes('/access-tokens/') ? 'AccessToken' : 'ClientCredentials';
      if (method === 'GET' && path === '/identity/resources/roles/v1') return ROLES;
      if (method === 'GET' && path === '/team/resources/roles/v1') return { roles: ROLES, permissions: [] };
      if (method === 'GET') return { items: tokens.filter((t) => t.type === type) };
      if (method === 'POST') {
        const body = options.body ?? {};
        const created: CreatedApiToken = {
          ...token({ id: 't-new', clientId: 'CLIENT_ID_new', type, description: String(body.description), createdAt: '2026-03-09T10:00:00.000Z', roleIds: (body.roleIds as string[] | undefined) ?? [] }),
          secret: type === 'AccessToken' ? `gh_at.t-new.${SECRET}` : SECRET,
        };
        const { secret: _secret, ...listed } = created;
        tokens = [...tokens, listed];
        return created;
      }
      if (method === 'DELETE') {
        tokens = tokens.filter((t) => !path.endsWith(`/${t.id}`));
        return undefined;
      }
      return {};
    },
  } as unknown as GatehouseApi;
  return { api, calls };
}

const TENANT_WRITER = ['fe.secure.read.tenantApiTokens', 'fe.secure.write.tenantApiTokens', 'fe.secure.read.roles'];
const USER_WRITER = ['fe.secure.read.userApiTokens', 'fe.secure.write.userApiTokens'];

async function openTokens(kind: 'tenant' | 'user', tokens: ApiToken[], { permissions = kind === 'tenant' ? TENANT_WRITER : USER_WRITER, failures = [], adminPortal }: { permissions?: string[]; failures?: Failure[]; adminPortal?: unknown } = {}) {
  const { api, calls } = recordingApi(tokens, failures);
  const { domElement, root } = shadowMountPoint();
  const user = makeUser({ id: 'me', permissions: permissions.map((key, i) => ({ id: `p${i}`, key, name: key })) });
  const Section = kind === 'tenant' ? ApiTokensSection : PersonalApiTokensSection;
  const title = kind === 'tenant' ? 'API tokens' : 'Personal API tokens';
  render(<Section title={title} headingId="tokens-heading" user={user} snapshot={createTestStore(user).getSnapshot()} store={createTestStore(user)} api={api} options={readAdminPortalOptions(adminPortal)} />, { container: domElement });
  return { view: within(domElement), calls, root };
}

let clipboard: string[];
beforeEach(() => {
  clipboard = [];
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (text: string) => void clipboard.push(text) } });
});

afterEach(() => {
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

describe('API tokens sections', () => {
  it('lists both types of account token, newest first, with client ID, type, dates and role names', async () => {
    const { view } = await openTokens('tenant', [ci, reports]);
    await view.findByRole('row', { name: /CI pipeline/ });
    expect(view.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Description', 'Client ID', 'Type', 'Created', 'Expires', 'Roles', 'Actions']);
    const rows = view.getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual(['Reports job', 'CI pipeline']);
    const cells = within(rows[1]!).getAllByRole('cell').map((c) => c.textContent);
    expect(cells.slice(0, 2)).toEqual(['CLIENT_ID_ci', 'Client credentials']);
    expect(cells[3]).toBe('Never');
    expect(cells[4]).toBe('Read only');
    expect(within(rows[0]!).getAllByRole('cell')[1]?.textContent).toBe('Access token');
    expect(within(rows[0]!).getAllByRole('cell')[3]?.textContent).not.toBe('Never');
  });

  it('adds an account token: the dialog closes, the success dialog shows client ID and secret once, and closing it removes the secret from the page', async () => {
    const { view, calls, root } = await openTokens('tenant', []);
    await view.findByText(/^No API tokens yet/);
    fireEvent.click(view.getByRole('button', { name: 'Add token' }));
    const dialog = await view.findByRole('dialog', { name: 'Add token' });
    expect(root.activeElement).toBe(within(dialog).getByLabelText('Description'));
    fireEvent.change(within(dialog).getByLabelText('Description'), { target: { value: 'CI pipeline' } });
    fireEvent.change(within(dialog).getByLabelText(/Expires after/), { target: { value: '30' } });
    fireEvent.click(await within(dialog).findByLabelText(/Read only/));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add token' }));

    const success = await view.findByRole('dialog', { name: 'Token created' });
    expect(view.queryByRole('dialog', { name: 'Add token' })).toBeNull();
    expect(calls.find((c) => c.method === 'POST')).toEqual({ method: 'POST', path: TENANT.list, body: { description: 'CI pipeline', expiresInMinutes: 43200, roleIds: ['r-read'] } });
    expect((within(success).getByLabelText('Client ID') as HTMLInputElement).value).toBe('CLIENT_ID_new');
    expect((within(success).getByLabelText('Secret') as HTMLInputElement).value).toBe(SECRET);
    expect(within(success).getByRole('note').textContent).toContain('It will not be shown again');

    fireEvent.click(within(success).getByRole('button', { name: 'Copy secret' }));
    // Its name keeps the visible word first (label in name): "Copied: Secret".
    await waitFor(() => expect(within(success).getByRole('button', { name: 'Copied: Secret' }).textContent).toBe('Copied'));
    expect(clipboard).toEqual([SECRET]);

    fireEvent.click(within(success).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(view.queryByRole('dialog')).toBeNull());
    expect(root.innerHTML).not.toContain(SECRET);
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('Token CI pipeline added'));
    const row = await view.findByRole('row', { name: /CI pipeline/ });
    expect(row.textContent).toContain('CLIENT_ID_new');
    expect(row.textContent).toContain('Read only');
    // The list was read again; the secret is in no call made after the POST either.
    expect(JSON.stringify(calls.slice(calls.findIndex((c) => c.method === 'POST') + 1))).not.toContain(SECRET);
  });

  it('adds a personal access token that never expires: no roles, no expiry sent, the success dialog shows only the bearer token', async () => {
    const { view, calls, root } = await openTokens('user', []);
    await view.findByText(/^No API tokens yet/);
    expect(view.queryByRole('columnheader', { name: 'Roles' })).toBeNull();
    fireEvent.click(view.getByRole('button', { name: 'Add token' }));
    const dialog = await view.findByRole('dialog', { name: 'Add token' });
    expect(within(dialog).queryByRole('group', { name: 'Roles' })).toBeNull();
    fireEvent.change(within(dialog).getByLabelText('Description'), { target: { value: 'My laptop' } });
    fireEvent.click(within(dialog).getByLabelText(/^Access token/));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add token' }));
    const success = await view.findByRole('dialog', { name: 'Token created' });
    expect(calls.find((c) => c.method === 'POST')).toEqual({ method: 'POST', path: USER.access, body: { description: 'My laptop' } });
    expect(within(success).queryByLabelText('Client ID')).toBeNull();
    expect((within(success).getByLabelText('Token') as HTMLInputElement).value).toBe(`gh_at.t-new.${SECRET}`);
    act(() => {
      fireEvent.keyDown(success, { key: 'Escape' });
    });
    expect(view.queryByRole('dialog')).toBeNull();
    expect(root.innerHTML).not.toContain(SECRET);
  });

  it('copies with the selection and the copy command when the Clipboard API refuses', async () => {
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: () => Promise.reject(new Error('NotAllowedError')) } });
    const copied: string[] = [];
    Object.defineProperty(document, 'execCommand', { configurable: true, value: (command: string) => { copied.push(command); return true; } });
    const { view, root } = await openTokens('user', []);
    await view.findByText(/^No API tokens yet/);
    fireEvent.click(view.getByRole('button', { name: 'Add token' }));
    const dialog = await view.findByRole('dialog', { name: 'Add token' });
    fireEvent.change(within(dialog).getByLabelText('Description'), { target: { value: 'Script' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add token' }));
    const success = await view.findByRole('dialog', { name: 'Token created' });
    fireEvent.click(within(success).getByRole('button', { name: 'Copy client id' }));
    await waitFor(() => expect(within(success).getByRole('button', { name: 'Copied: Client ID' }).textContent).toBe('Copied'));
    expect(copied).toEqual(['copy']);
    expect(root.activeElement).toBe(within(success).getByLabelText('Client ID'));
    delete (document as { execCommand?: unknown }).execCommand;
  });

  it('checks the form before sending: a description, and whole days from 1 to 3650', async () => {
    const { view, calls } = await openTokens('user', []);
    await view.findByText(/^No API tokens yet/);
    fireEvent.click(view.getByRole('button', { name: 'Add token' }));
    const dialog = await view.findByRole('dialog', { name: 'Add token' });
    fireEvent.change(within(dialog).getByLabelText(/Expires after/), { target: { value: '1.5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add token' }));
    expect(within(dialog).getAllByRole('alert').map((a) => a.textContent)).toEqual(['Enter a description', 'Enter whole days from 1 to 3,650, or leave it empty']);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it("keeps the dialog open with the server's 403 message when a role is beyond the caller's permissions", async () => {
    const message = 'You cannot give a token a role with permissions you do not have';
    const { view, root } = await openTokens('tenant', [], { failures: [{ method: 'POST', path: TENANT.list, error: { message, statusCode: 403 } }] });
    await view.findByText(/^No API tokens yet/);
    fireEvent.click(view.getByRole('button', { name: 'Add token' }));
    const dialog = await view.findByRole('dialog', { name: 'Add token' });
    fireEvent.change(within(dialog).getByLabelText('Description'), { target: { value: 'Too strong' } });
    fireEvent.click(await within(dialog).findByLabelText('Admin'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add token' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(message);
    expect(view.queryByRole('dialog', { name: 'Token created' })).toBeNull();
    await waitFor(() => expect(root.activeElement).toBe(within(dialog).getByLabelText('Description')));
  });

  it('deletes a token after confirmation, through the path of its type', async () => {
    const { view, calls } = await openTokens('tenant', [ci, reports]);
    fireEvent.click(await view.findByRole('button', { name: 'Delete token Reports job' }));
    const dialog = await view.findByRole('dialog', { name: 'Delete token Reports job' });
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('Token Reports job deleted'));
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([{ method: 'DELETE', path: `${TENANT.access}/t-rep` }]);
    expect(view.queryByRole('row', { name: /Reports job/ })).toBeNull();
    expect(view.getByRole('row', { name: /CI pipeline/ })).toBeTruthy();
  });

  it('shows a reader the tokens without add or delete', async () => {
    const { view } = await openTokens('tenant', [ci], { permissions: ['fe.secure.read.tenantApiTokens', 'fe.secure.read.roles'] });
    await view.findByRole('row', { name: /CI pipeline/ });
    expect(view.queryByRole('button', { name: 'Add token' })).toBeNull();
    expect(view.queryByRole('button', { name: /Delete token/ })).toBeNull();
    expect(view.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Description', 'Client ID', 'Type', 'Created', 'Expires', 'Roles']);
  });

  it("shows the server's message when the tokens cannot be loaded", async () => {
    const { view } = await openTokens('user', [], { failures: [{ method: 'GET', path: USER.access, error: { message: 'Missing permission', statusCode: 403 } }] });
    expect((await view.findByRole('alert')).textContent).toBe('Missing permission');
    expect(view.getByText(/^The tokens could not be loaded/)).toBeTruthy();
  });

  it("honours the host's field visibility: hidden create, delete, roles column and expiry field", async () => {
    const { view } = await openTokens('tenant', [ci], { adminPortal: { fieldVisibility: { apiTokens: { delete: 'hidden', roles: 'hidden', clientId: 'hidden' } } } });
    await view.findByRole('row', { name: /CI pipeline/ });
    expect(view.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Description', 'Type', 'Created', 'Expires']);
    fireEvent.click(view.getByRole('button', { name: 'Add token' }));
    const dialog = await view.findByRole('dialog', { name: 'Add token' });
    expect(within(dialog).queryByRole('group', { name: 'Roles' })).toBeNull();
    document.body.innerHTML = '';

    const personal = await openTokens('user', [], { adminPortal: { fieldVisibility: { personalApiTokens: { create: 'hidden' }, apiTokens: { create: 'hidden' } } } });
    await personal.view.findByText(/^No API tokens yet/);
    expect(personal.view.queryByRole('button', { name: 'Add token' })).toBeNull();
  });

  it('offers the roles from the team list to a tenant-token writer who cannot read roles', async () => {
    const { view, calls } = await openTokens('tenant', [], { permissions: ['fe.secure.read.tenantApiTokens', 'fe.secure.write.tenantApiTokens', 'fe.secure.read.users'] });
    await view.findByText(/^No API tokens yet/);
    fireEvent.click(view.getByRole('button', { name: 'Add token' }));
    const dialog = await view.findByRole('dialog', { name: 'Add token' });
    expect(await within(dialog).findByLabelText('Admin')).toBeTruthy();
    expect(calls.map((c) => c.path)).not.toContain('/identity/resources/roles/v1');
  });
});
