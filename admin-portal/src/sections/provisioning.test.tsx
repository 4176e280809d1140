import { fireEvent, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ScimConnection, ScimRequestLogEntry } from '@gatehouse/shared/wire';
import { recordingApi, renderSection, type Failure } from '../test/section-harness';
import { chooseRowAction, rowMenuItems } from '../test/row-menu';
import ProvisioningSection from './provisioning';

const LIST = '/directory/resources/v1/configurations/scim2';
const BASE_URL = 'https://id.example.com/scim/v2';
const TOKEN = 'ghscim.c-new.s3cr3t-T0ken-9f8e7d';
const ROTATED = 'ghscim.c-okta.r0tated-T0ken-1a2b3c';

const READER = ['fe.secure.read.provisioningConfiguration'];
const WRITER = [...READER, 'fe.secure.write.provisioningConfiguration'];

function connection(overrides: Partial<ScimConnection>): ScimConnection {
  return { id: 'c', source: 'other', createdAt: '2026-03-01T10:00:00.000Z', rotatedAt: null, usersCount: 0, groupsCount: 0, baseUrl: BASE_URL, ...overrides };
}

const okta = connection({ id: 'c-okta', source: 'okta', createdAt: '2026-03-02T10:00:00.000Z', usersCount: 12, groupsCount: 3 });
const entra = connection({ id: 'c-entra', source: 'azure-ad', createdAt: '2026-02-01T10:00:00.000Z', usersCount: 1, groupsCount: 0, rotatedAt: '2026-03-05T10:00:00.000Z' });

function entry(i: number, overrides: Partial<ScimRequestLogEntry> = {}): ScimRequestLogEntry {
  return { id: `r${i}`, method: 'GET', path: `/scim/v2/Users?filter=userName eq "u${i}@example.com"`, status: 200, createdAt: '2026-03-06T10:00:00.000Z', durationMs: 4, resourceType: 'User', resourceId: null, diff: null, error: null, ...overrides };
}

/** A server in memory: the tenant's connections and each one's request log, changed by the calls the section makes. */
function provisioningServer(initial: ScimConnection[], logs: Record<string, ScimRequestLogEntry[]> = {}, failures: Failure[] = []) {
  let connections = [...initial];
  return recordingApi((method, path, options) => {
    if (method === 'GET' && path === LIST) return { items: connections };
    if (method === 'POST' && path === LIST) {
      const source = (options.body as { source: ScimConnection['source'] }).source;
      connections = [...connections, connection({ id: 'c-new', source, createdAt: '2026-03-09T10:00:00.000Z' })];
      return { id: 'c-new', source, token: TOKEN, createdAt: '2026-03-09T10:00:00.000Z', baseUrl: BASE_URL };
    }
    const tokenPath = /^\/directory\/resources\/v1\/configurations\/scim2\/([^/]+)\/token$/.exec(path);
    if (method === 'POST' && tokenPath) {
      connections = connections.map((c) => (c.id === tokenPath[1] ? { ...c, rotatedAt: '2026-03-10T10:00:00.000Z' } : c));
      return { id: tokenPath[1], token: ROTATED, rotatedAt: '2026-03-10T10:00:00.000Z' };
    }
    const requests = /^\/directory\/resources\/v1\/configurations\/scim2\/([^/]+)\/requests$/.exec(path);
    if (method === 'GET' && requests) {
      const all = logs[decodeURIComponent(requests[1]!)] ?? [];
      const offset = Number(options.query?.offset ?? 0);
      const limit = Number(options.query?.limit ?? 20);
      return { items: all.slice(offset, offset + limit), total: all.length };
    }
    if (method === 'DELETE') {
      connections = connections.filter((c) => !path.endsWith(`/${c.id}`));
      return undefined;
    }
    return undefined;
  }, failures);
}

function open(connections: ScimConnection[], { permissions = WRITER, logs = {}, failures = [], adminPortal }: { permissions?: string[]; logs?: Record<string, ScimRequestLogEntry[]>; failures?: Failure[]; adminPortal?: Record<string, unknown> } = {}) {
  const { api, calls } = provisioningServer(connections, logs, failures);
  const view = renderSection(ProvisioningSection, 'Provisioning', api, permissions, adminPortal);
  const root = view.getByRole('heading', { name: 'Provisioning' }).getRootNode() as ShadowRoot;
  return { view, calls, root };
}

let clipboard: string[];
beforeEach(() => {
  clipboard = [];
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (text: string) => void clipboard.push(text) } });
});

afterEach(() => {
  document.body.innerHTML = '';
});

describe('provisioning section', () => {
  it('lists the connections oldest first with their identity provider, creation date, and the users and groups they made', async () => {
    const { view, calls } = open([okta, entra]);
    await view.findByRole('row', { name: /Okta/ });
    expect(calls[0]).toEqual({ method: 'GET', path: LIST });
    expect(view.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Identity provider', 'Created', 'Users', 'Groups', 'Actions']);
    const rows = view.getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual(['Microsoft Entra IDToken rotated Mar 5, 2026', 'Okta']);
    expect(within(rows[1]!).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Mar 2, 2026', '12', '3', '']);
    expect(await rowMenuItems(view, 'Actions for the Okta connection created Mar 2, 2026')).toEqual(['Setup instructions', 'Request log', 'Rotate token', 'Delete']);
  });

  it('shows a reader the connections, their setup and their logs, but no way to add, rotate or delete', async () => {
    const { view } = open([okta], { permissions: READER });
    await view.findByRole('row', { name: /Okta/ });
    expect(view.queryByRole('button', { name: 'Add connection' })).toBeNull();
    expect(await rowMenuItems(view, 'Actions for the Okta connection created Mar 2, 2026')).toEqual(['Setup instructions', 'Request log']);
  });

  it('says what to do when there is no connection yet, and only that there is none to a reader', async () => {
    const writer = open([]);
    expect((await writer.view.findByText(/^No connections yet/)).textContent).toBe('No connections yet. Use “Add connection” to let your identity provider manage the users of this account.');
    document.body.innerHTML = '';
    const reader = open([], { permissions: READER });
    expect((await reader.view.findByText(/^No connections yet/)).textContent).toBe('No connections yet.');
  });

  it('adds a connection: the source is required, the POST is exactly { source }, and the token is shown once with the base URL and the steps, then gone', async () => {
    const { view, calls, root } = open([entra]);
    await view.findByRole('row', { name: /Entra/ });
    fireEvent.click(view.getByRole('button', { name: 'Add connection' }));
    const dialog = await view.findByRole('dialog', { name: 'Add connection' });
    const radios = within(dialog).getAllByRole('radio') as HTMLInputElement[];
    expect(radios.map((r) => r.value)).toEqual(['okta', 'azure-ad', 'other', 'frontegg']);
    expect(radios.some((r) => r.checked)).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create connection' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Choose where the users come from');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.click(within(dialog).getByRole('radio', { name: /^Okta/ }));
    expect(within(dialog).queryByRole('alert')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create connection' }));

    const token = await view.findByRole('dialog', { name: 'Okta connection created' });
    expect(calls.find((c) => c.method === 'POST')).toEqual({ method: 'POST', path: LIST, body: { source: 'okta' } });
    expect(within(token).getByRole('note').textContent).toBe('Copy the token now. It will not be shown again. If you lose it, rotate the token to get a new one.');
    expect((within(token).getByLabelText('Bearer token') as HTMLInputElement).value).toBe(TOKEN);
    expect((within(token).getByLabelText('SCIM base URL') as HTMLInputElement).value).toBe(BASE_URL);
    expect(within(token).getByRole('heading', { name: 'Set up Okta' })).toBeTruthy();
    expect(within(token).getAllByRole('listitem')[1]?.textContent).toContain('SCIM connector base URL');
    expect(root.activeElement).toBe(within(token).getByRole('button', { name: 'Copy token' }));

    fireEvent.click(within(token).getByRole('button', { name: 'Copy token' }));
    await waitFor(() => expect(within(token).getByRole('button', { name: 'Copied: Bearer token' }).textContent).toBe('Copied'));
    expect(clipboard).toEqual([TOKEN]);
    fireEvent.click(within(token).getByRole('button', { name: 'Copy SCIM base URL' }));
    await waitFor(() => expect(clipboard).toEqual([TOKEN, BASE_URL]));

    fireEvent.click(within(token).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(view.queryByRole('dialog')).toBeNull());
    expect(root.innerHTML).not.toContain(TOKEN);
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('Okta connection created'));
    expect(view.getAllByRole('row').slice(1).map((r) => within(r).getByRole('rowheader').textContent)).toEqual(['Microsoft Entra IDToken rotated Mar 5, 2026', 'Okta']);
    // The token went out in no call after the POST.
    expect(JSON.stringify(calls.slice(calls.findIndex((c) => c.method === 'POST') + 1))).not.toContain(TOKEN);
  });

  it("keeps the create dialog open with the server's message when the connection is refused", async () => {
    const message = 'source: must be one of frontegg, okta, azure-ad, other';
    const { view } = open([], { failures: [{ method: 'POST', path: LIST, error: { message, statusCode: 400 } }] });
    fireEvent.click(await view.findByRole('button', { name: 'Add connection' }));
    const dialog = await view.findByRole('dialog', { name: 'Add connection' });
    fireEvent.click(within(dialog).getByRole('radio', { name: /^Your own SCIM client/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create connection' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(message);
    expect(view.queryByRole('dialog', { name: /created/ })).toBeNull();
  });

  it('rotates a token after confirmation and shows the new one once, warning that the old one stopped', async () => {
    const { view, calls, root } = open([okta]);
    await chooseRowAction(view, 'Actions for the Okta connection created Mar 2, 2026', 'Rotate token');
    const confirm = await view.findByRole('dialog', { name: 'Rotate the Okta token' });
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.click(within(confirm).getByRole('button', { name: 'Rotate token' }));
    const token = await view.findByRole('dialog', { name: 'New token for Okta' });
    expect(calls.filter((c) => c.method === 'POST')).toEqual([{ method: 'POST', path: `${LIST}/c-okta/token` }]);
    expect((within(token).getByLabelText('Bearer token') as HTMLInputElement).value).toBe(ROTATED);
    expect(within(token).getByRole('note').textContent).toContain('the old token no longer works');
    fireEvent.click(within(token).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('Token for Okta rotated'));
    expect(root.innerHTML).not.toContain(ROTATED);
    expect((await view.findByRole('row', { name: /Okta/ })).textContent).toContain('Token rotated Mar 10, 2026');
  });

  it('deletes a connection keeping its users, or with deleteAll removing them, as the admin chooses', async () => {
    const { view, calls } = open([okta, entra]);
    await chooseRowAction(view, 'Actions for the Microsoft Entra ID connection created Feb 1, 2026', 'Delete');
    let dialog = await view.findByRole('dialog', { name: 'Delete the Microsoft Entra ID connection' });
    expect(within(dialog).getByRole('checkbox', { name: /Also remove the 1 user and 0 groups it made/ })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete connection' }));
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('Microsoft Entra ID connection deleted'));
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([{ method: 'DELETE', path: `${LIST}/c-entra`, query: { deleteAll: 'false' } }]);
    expect(view.queryByRole('row', { name: /Entra/ })).toBeNull();

    await chooseRowAction(view, 'Actions for the Okta connection created Mar 2, 2026', 'Delete');
    dialog = await view.findByRole('dialog', { name: 'Delete the Okta connection' });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /Also remove the 12 users and 3 groups it made/ }));
    expect(within(dialog).getByText('They lose access to this account at once.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete connection and users' }));
    await waitFor(() => expect(view.getByRole('status').textContent).toBe('Okta connection deleted, with 12 users'));
    expect(calls.filter((c) => c.method === 'DELETE')[1]).toEqual({ method: 'DELETE', path: `${LIST}/c-okta`, query: { deleteAll: 'true' } });
  });

  it('shows the setup instructions of each identity provider with the base URL, and says how to get a new token', async () => {
    const { view } = open([okta, entra]);
    await chooseRowAction(view, 'Actions for the Microsoft Entra ID connection created Feb 1, 2026', 'Setup instructions');
    const dialog = await view.findByRole('dialog', { name: 'Set up Microsoft Entra ID' });
    expect((within(dialog).getByLabelText('SCIM base URL') as HTMLInputElement).value).toBe(BASE_URL);
    expect(within(dialog).getByText(/rotate the token to get a new one/)).toBeTruthy();
    const steps = within(dialog).getAllByRole('listitem').map((li) => li.textContent);
    expect(steps).toHaveLength(5);
    expect(steps[2]).toContain('Tenant URL');
    expect(within(dialog).getByText('false disables the user in this account, true enables them again')).toBeTruthy();
    expect(within(dialog).queryByLabelText('Bearer token')).toBeNull();
  });

  it("opens a connection's request log: time, method, path, status and an expandable diff, a page of 20 at a time", async () => {
    const logs = {
      'c-okta': [
        entry(0, { method: 'PATCH', path: '/scim/v2/Users/u-1', status: 200, diff: { active: [true, false], 'name.givenName': ['Ada', 'Ada L.'] } }),
        entry(1, { method: 'POST', path: '/scim/v2/Users', status: 409, error: 'userName: a user with this userName already exists' }),
        ...Array.from({ length: 23 }, (_, i) => entry(i + 2)),
      ],
    };
    const { view, calls, root } = open([okta], { logs });
    await chooseRowAction(view, 'Actions for the Okta connection created Mar 2, 2026', 'Request log');
    const heading = await view.findByRole('heading', { name: 'Request log: Okta' });
    await waitFor(() => expect(root.activeElement).toBe(heading));
    const table = await view.findByRole('table', { name: 'SCIM requests from Okta' });
    await within(table).findAllByRole('row', { name: /PATCH/ });
    expect(calls.at(-1)).toEqual({ method: 'GET', path: `${LIST}/c-okta/requests`, query: { offset: 0, limit: 20 } });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Time', 'Method', 'Path', 'Status', 'Changes']);
    const [patch, post] = within(table).getAllByRole('row').slice(1);
    const patchCells = within(patch!).getAllByRole('cell');
    expect(patchCells.slice(0, 3).map((c) => c.textContent)).toEqual(['PATCH', '/scim/v2/Users/u-1', '200 OK']);
    // A path reads left to right in a right-to-left language too.
    expect(within(patchCells[1]!).getByText('/scim/v2/Users/u-1').getAttribute('dir')).toBe('ltr');
    const changes = within(patchCells[3]!).getByText('2 changes');
    expect(changes.closest('details')?.open).toBe(false);
    fireEvent.click(changes);
    expect(within(patchCells[3]!).getByText('active').closest('div')?.textContent).toBe('activeBefore: true → after: false');
    expect(within(patchCells[3]!).getByText('name.givenName').closest('div')?.textContent).toBe('name.givenNameBefore: Ada → after: Ada L.');
    const postCells = within(post!).getAllByRole('cell');
    expect(postCells[2]?.textContent).toBe('409 Refused');
    expect(postCells[3]?.textContent).toContain('userName: a user with this userName already exists');
    expect(view.getByText('25 requests')).toBeTruthy();
    expect(view.getByText('Page 1 of 2')).toBeTruthy();

    fireEvent.click(view.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(view.getByText('Page 2 of 2')).toBeTruthy());
    expect(calls.at(-1)).toEqual({ method: 'GET', path: `${LIST}/c-okta/requests`, query: { offset: 20, limit: 20 } });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(6));

    fireEvent.click(view.getByRole('button', { name: 'All connections' }));
    expect(await view.findByRole('row', { name: /Okta/ })).toBeTruthy();
    expect(root.activeElement).toBe(view.getByRole('heading', { name: 'Provisioning' }));
  });

  it('reads the request log again with Refresh, so a push that arrives while it is open shows, a failure marked Failed', async () => {
    const logs: Record<string, ScimRequestLogEntry[]> = { 'c-okta': [] };
    const { view, calls } = open([okta], { logs });
    await chooseRowAction(view, 'Actions for the Okta connection created Mar 2, 2026', 'Request log');
    await view.findByText(/^No requests yet/);
    logs['c-okta']!.push(entry(7, { method: 'PUT', path: '/scim/v2/Groups/g-1', status: 500, resourceType: 'Group', error: 'The group could not be saved' }));
    fireEvent.click(view.getByRole('button', { name: 'Refresh' }));
    const row = await view.findByRole('row', { name: /PUT/ });
    expect(calls.filter((c) => c.path === `${LIST}/c-okta/requests`)).toHaveLength(2);
    const cells = within(row).getAllByRole('cell');
    expect(cells[2]?.textContent).toBe('500 Failed');
    expect(within(cells[3]!).getByText('Error')).toBeTruthy();
    expect(cells[3]?.textContent).toContain('The group could not be saved');
    expect(view.queryByText(/^No requests yet/)).toBeNull();
  });

  it('shows the steps for your own SCIM client with the base URL in them', async () => {
    const { view } = open([connection({ id: 'c-own', source: 'frontegg', createdAt: '2026-03-03T10:00:00.000Z' })]);
    // The seed's source name for it never shows: the tenant reads "Your own SCIM client".
    const row = await view.findByRole('row', { name: /Your own SCIM client/ });
    expect(row.textContent).not.toMatch(/frontegg/i);
    await chooseRowAction(view, 'Actions for the Your own SCIM client connection created Mar 3, 2026', 'Setup instructions');
    const dialog = await view.findByRole('dialog', { name: 'Set up Your own SCIM client' });
    const steps = within(dialog).getAllByRole('listitem').map((li) => li.textContent);
    expect(steps[0]).toBe(`Send SCIM 2.0 requests to the Users and Groups endpoints under the SCIM base URL, such as ${BASE_URL}/Users.`);
    expect(steps[1]).toContain('Authorization: Bearer');
  });

  it('explains what the request log will show before the identity provider sent anything', async () => {
    const { view } = open([okta], { logs: { 'c-okta': [] } });
    await chooseRowAction(view, 'Actions for the Okta connection created Mar 2, 2026', 'Request log');
    expect((await view.findByText(/^No requests yet/)).textContent).toBe('No requests yet. When Okta creates, updates or deactivates a user or a group, each request shows here with its status and what changed.');
    expect(view.queryByRole('navigation', { name: 'Request log pages' })).toBeNull();
  });

  it("shows the server's message when the connections cannot be loaded", async () => {
    const { view } = open([], { failures: [{ method: 'GET', path: LIST, error: { message: 'Missing permission', statusCode: 403 } }] });
    expect((await view.findByRole('alert')).textContent).toBe('Missing permission');
    expect(view.getByText('The connections could not be loaded.')).toBeTruthy();
  });

  it("lets the host hide adding and show deleting view-only (adminPortal.fieldVisibility.provisioning)", async () => {
    const { view } = open([okta], { adminPortal: { fieldVisibility: { provisioning: { create: 'hidden', delete: 'viewOnly' } } } });
    await view.findByRole('row', { name: /Okta/ });
    expect(view.queryByRole('button', { name: 'Add connection' })).toBeNull();
    fireEvent.click(view.getByRole('button', { name: 'Actions for the Okta connection created Mar 2, 2026' }));
    expect(view.getByRole('menuitem', { name: 'Delete' }).getAttribute('aria-disabled')).toBe('true');
    expect(view.getByRole('menuitem', { name: 'Rotate token' }).getAttribute('aria-disabled')).toBeNull();
  });
});
