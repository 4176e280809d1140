import { fireEvent, render, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ASSIGNMENT_FAILED_MESSAGE, MULTI_APPS_ADMIN_PORTAL_FLAG, type ApplicationData, type TenantUser, type UsersPage } from '@gatehouse/shared/wire';
import type { GatehouseApi } from '../contract';
import { readAdminPortalOptions } from '../options';
import { createTestStore, makeUser, portalProps, shadowMountPoint } from '../test/fake-store';
import { cleanupPortals, mountPortal } from '../test/mount-portal';
import ApplicationsSection from './applications';

function tenantUser(overrides: Partial<TenantUser>): TenantUser {
  return {
    id: 'u', email: 'u@example.com', name: 'U', phoneNumber: null, profilePictureUrl: null, tenantId: 'tenant-1', roleIds: [], roles: [], groups: [],
    verified: true, isLocked: false, isDisabled: false, invitationPending: false, temporaryExpirationDate: null, mfaEnrolled: false, isBreachedPassword: false,
    provider: 'local', managedBy: 'frontegg', superUser: false, createdAt: '2026-01-01T00:00:00.000Z', joinedAt: '2026-01-02T00:00:00.000Z', lastSeen: null, ...overrides,
  };
}

const ada = tenantUser({ id: 'u-ada', name: 'Ada Byron', email: 'ada@example.com' });
const grace = tenantUser({ id: 'u-grace', name: 'Grace Hopper', email: 'grace@example.com' });
const APPS: ApplicationData[] = [
  { id: 'app-payroll', name: 'Payroll', url: 'https://payroll.example.com', logo: 'https://cdn.example.com/payroll.png', accessType: 'MANAGED_ACCESS' },
  { id: 'app-wiki', name: 'Wiki', url: 'https://wiki.example.com', logo: null, accessType: 'FREE_ACCESS' },
];
const READ = 'fe.secure.read.users';
const WRITE = 'fe.secure.write.users';

/** A fake identity API holding the account's assignments; `fail` makes assign and unassign answer 500. */
function fakeApi({ fail = false } = {}) {
  const usersOf: Record<string, string[]> = { 'app-payroll': ['u-ada'], 'app-wiki': [] };
  const calls: { path: string; body: unknown }[] = [];
  const searches: (string | undefined)[] = [];
  const api = {
    async request(method: string, path: string, init?: { query?: Record<string, unknown>; body?: { userId: string; appIds: string[] } }) {
      if (method === 'GET' && path === '/identity/resources/applications/v1/apps') return APPS;
      if (method === 'GET' && path === '/identity/resources/applications/v1/apps-users') return APPS.map((app) => ({ id: app.id, accessType: app.accessType, userIds: usersOf[app.id] }));
      if (method === 'GET' && path === '/team/resources/members/v1') {
        const filter = init?.query?.filter as string | undefined;
        searches.push(filter);
        const items = [ada, grace].filter((u) => !filter || u.name.toLowerCase().includes(filter.toLowerCase()));
        return { items, _metadata: { totalItems: items.length, totalPages: 1 } } satisfies UsersPage;
      }
      if (method === 'POST' && path.startsWith('/identity/resources/applications/v1/')) {
        calls.push({ path, body: init?.body });
        if (fail) throw Object.assign(new Error('Internal'), { statusCode: 500 });
        const { userId, appIds } = init!.body!;
        for (const appId of appIds) {
          const now = usersOf[appId]!.filter((id) => id !== userId);
          usersOf[appId] = path.endsWith('/assign') ? [...now, userId] : now;
        }
        return { userId, appIds: Object.keys(usersOf).filter((appId) => usersOf[appId]!.includes(userId)) };
      }
      throw new Error(`unexpected ${method} ${path}`);
    },
  } as unknown as GatehouseApi;
  return { api, calls, searches };
}

function openApplications(permissions: string[], api: GatehouseApi, adminPortal?: Record<string, unknown>) {
  const { domElement } = shadowMountPoint();
  const user = makeUser({ id: 'me', permissions: permissions.map((key, i) => ({ id: `p${i}`, key, name: key })) });
  const store = createTestStore(user);
  render(<ApplicationsSection title="Applications" headingId="apps-heading" user={user} snapshot={store.getSnapshot()} store={store} api={api} options={readAdminPortalOptions(adminPortal)} />, { container: domElement });
  return within(domElement);
}

const cells = (view: ReturnType<typeof within>, name: RegExp) => within(view.getByRole('row', { name })).getAllByRole('cell').map((cell) => cell.textContent);

afterEach(() => {
  document.body.innerHTML = '';
});

describe('Applications view of multi-app mode (issue 15)', () => {
  it("lists the vendor's applications with logo, name, address, access type and how many of the account's users are assigned", async () => {
    const view = openApplications([READ, WRITE], fakeApi().api);
    await waitFor(() => expect(cells(view, /Payroll/)).toEqual(['https://payroll.example.com', 'Managed access', '1 assigned', 'Manage users']));
    expect(cells(view, /Wiki/)).toEqual(['https://wiki.example.com', 'Open to every user', '0 assigned', 'Manage users']);
    const payroll = view.getByRole('row', { name: /Payroll/ });
    expect(payroll.querySelector('img')?.getAttribute('src')).toBe('https://cdn.example.com/payroll.png');
    const link = within(payroll).getByRole('link', { name: 'https://payroll.example.com' });
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('assigns and unassigns a user of one application with { userId, appIds, tenantId }, the count and badges following', async () => {
    const { api, calls } = fakeApi();
    const view = openApplications([READ, WRITE], api);
    fireEvent.click(await view.findByRole('button', { name: 'Manage users: Payroll' }));
    const dialog = view.getByRole('dialog', { name: 'Users of Payroll' });
    const list = within(dialog).getByRole('list', { name: 'Users of Payroll' });
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Ada Byronada@example.comAssignedUnassign',
      'Grace Hoppergrace@example.comNot assignedAssign',
    ]);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Assign: Grace Hopper' }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Unassign: Grace Hopper' })).toBeTruthy());
    expect(within(dialog).getByRole('status').textContent).toBe('Grace Hopper assigned to Payroll');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Unassign: Ada Byron' }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Assign: Ada Byron' })).toBeTruthy());
    expect(calls).toEqual([
      { path: '/identity/resources/applications/v1/assign', body: { userId: 'u-grace', appIds: ['app-payroll'], tenantId: 'tenant-1' } },
      { path: '/identity/resources/applications/v1/unassign', body: { userId: 'u-ada', appIds: ['app-payroll'], tenantId: 'tenant-1' } },
    ]);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(view.queryByRole('dialog')).toBeNull();
    expect(cells(view, /Payroll/)[2]).toBe('1 assigned');
    expect(cells(view, /Wiki/)[2]).toBe('0 assigned');
  });

  it("a failed assignment shows seed 001 section 8's sentence and changes nothing shown", async () => {
    const view = openApplications([READ, WRITE], fakeApi({ fail: true }).api);
    fireEvent.click(await view.findByRole('button', { name: 'Manage users: Wiki' }));
    const dialog = view.getByRole('dialog', { name: 'Users of Wiki' });
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Assign: Grace Hopper' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(ASSIGNMENT_FAILED_MESSAGE);
    expect(within(dialog).getByRole('button', { name: 'Assign: Grace Hopper' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(cells(view, /Wiki/)[2]).toBe('0 assigned');
  });

  it('searches the account’s users by name', async () => {
    const { api, searches } = fakeApi();
    const view = openApplications([READ, WRITE], api);
    fireEvent.click(await view.findByRole('button', { name: 'Manage users: Wiki' }));
    const dialog = view.getByRole('dialog', { name: 'Users of Wiki' });
    fireEvent.change(within(dialog).getByRole('searchbox', { name: 'Search users' }), { target: { value: 'grace' } });
    await waitFor(() => expect(within(within(dialog).getByRole('list')).getAllByRole('listitem')).toHaveLength(1));
    expect(searches.at(-1)).toBe('grace');
  });

  it('readers without fe.secure.write.users, or with editApplications view-only, see who is assigned and cannot change it', async () => {
    for (const [permissions, adminPortal] of [[[READ], undefined], [[READ, WRITE], { fieldVisibility: { users: { editApplications: 'viewOnly' } } }]] as const) {
      const view = openApplications([...permissions], fakeApi().api, adminPortal);
      fireEvent.click(await view.findByRole('button', { name: 'View users: Payroll' }));
      const dialog = view.getByRole('dialog', { name: 'Users of Payroll' });
      await waitFor(() => expect(within(dialog).getAllByRole('listitem')).toHaveLength(2));
      expect(within(dialog).queryByRole('button', { name: /Assign|Unassign/ })).toBeNull();
      expect(within(dialog).getAllByRole('listitem')[0]!.textContent).toContain('Assigned');
      document.body.innerHTML = '';
    }
  });
});

describe('the portal in multi-app mode (seed 000 section 2.1)', () => {
  afterEach(cleanupPortals);
  const admin = () => makeUser({ permissions: [READ, WRITE].map((key, i) => ({ id: `p${i}`, key, name: key })) });
  const navButtons = (container: HTMLElement) =>
    within(within(container).getByRole('navigation', { name: 'Admin portal sections' })).getAllByRole('button').map((b) => b.textContent);

  it('opens on Applications when the runtime asks for multi-app mode and the flag is on', async () => {
    const { domElement } = shadowMountPoint();
    await mountPortal({ ...portalProps(domElement, createTestStore(admin()), { flags: { [MULTI_APPS_ADMIN_PORTAL_FLAG]: 'on' } }), api: fakeApi().api, multiApps: true });
    const view = within(domElement);
    expect(await view.findByRole('heading', { level: 2, name: 'Applications' })).toBeTruthy();
    await waitFor(() => expect(cells(view, /Payroll/)[2]).toBe('1 assigned'));
    expect(navButtons(domElement)).toContain('Applications');
  });

  it('stays in the normal mode, without Applications, when the flag is off or multi-app mode was not asked for', async () => {
    for (const props of [{ flags: { [MULTI_APPS_ADMIN_PORTAL_FLAG]: 'off' }, multiApps: true }, { flags: {} as Record<string, string>, multiApps: true }, { flags: { [MULTI_APPS_ADMIN_PORTAL_FLAG]: 'on' }, multiApps: false }]) {
      const { domElement } = shadowMountPoint();
      await mountPortal({ ...portalProps(domElement, createTestStore(admin()), { flags: props.flags }), api: fakeApi().api, multiApps: props.multiApps });
      const view = within(domElement);
      expect(await view.findByRole('heading', { level: 2, name: 'Profile' })).toBeTruthy();
      expect(navButtons(domElement)).not.toContain('Applications');
      await cleanupPortals();
    }
  });
});
