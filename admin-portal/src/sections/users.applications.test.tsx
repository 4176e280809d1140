import { fireEvent, render, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ASSIGNMENT_FAILED_MESSAGE, type ApplicationData, type TenantUser, type UsersPage } from '@gatehouse/shared/wire';
import type { GatehouseApi } from '../contract';
import { readAdminPortalOptions } from '../options';
import { createTestStore, makeUser, shadowMountPoint } from '../test/fake-store';
import { chooseRowAction, rowMenuItems } from '../test/row-menu';
import UsersSection from './users';

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
  { id: 'app-payroll', name: 'Payroll', url: 'https://payroll.example.com', logo: null, accessType: 'MANAGED_ACCESS' },
  { id: 'app-wiki', name: 'Wiki', url: 'https://wiki.example.com', logo: null, accessType: 'FREE_ACCESS' },
];

/** The users section over a fake API holding assignments; `fail` makes assign and unassign answer 500. */
function openUsers({ apps = APPS, fail = false } = {}) {
  const assigned: Record<string, string[]> = { 'u-ada': ['app-wiki'], 'u-grace': [] };
  const calls: { path: string; body: unknown }[] = [];
  const api = {
    async request(method: string, path: string, init?: { query?: Record<string, string>; body?: { userId: string; appIds: string[] } }) {
      if (method === 'GET' && path === '/team/resources/members/v1') return { items: [ada, grace], _metadata: { totalItems: 2, totalPages: 1 } } satisfies UsersPage;
      if (method === 'GET' && path === '/identity/resources/applications/v1/apps') return apps;
      if (method === 'GET' && path === '/identity/resources/applications/v1/users-apps') return init!.query!.ids!.split(',').map((userId) => ({ userId, appIds: assigned[userId] ?? [] }));
      if (method === 'POST' && path.startsWith('/identity/resources/applications/v1/')) {
        calls.push({ path, body: init?.body });
        if (fail) throw Object.assign(new Error('Internal'), { statusCode: 500 });
        const { userId, appIds } = init!.body!;
        const now = path.endsWith('/assign') ? [...new Set([...assigned[userId]!, ...appIds])] : assigned[userId]!.filter((id) => !appIds.includes(id));
        assigned[userId] = now;
        return { userId, appIds: now };
      }
      return {};
    },
  } as unknown as GatehouseApi;
  const { domElement } = shadowMountPoint();
  const user = makeUser({ id: 'me', permissions: ['fe.secure.read.users', 'fe.secure.write.users'].map((key, i) => ({ id: `p${i}`, key, name: key })) });
  render(<UsersSection title="Users" headingId="users-heading" user={user} snapshot={createTestStore(user).getSnapshot()} store={createTestStore(user)} api={api} options={readAdminPortalOptions(undefined)} />, { container: domElement });
  return { view: within(domElement), calls };
}

const applicationsCell = (view: ReturnType<typeof within>, name: RegExp) => within(view.getByRole('row', { name })).getAllByRole('cell')[0]!;

afterEach(() => {
  document.body.innerHTML = '';
});

describe('users: applications column and dialog (issue 15)', () => {
  it("shows each user's applications in the column after the user, and offers the Applications action", async () => {
    const { view } = openUsers();
    expect(await view.findByRole('columnheader', { name: 'Applications' })).toBeTruthy();
    await waitFor(() => expect(applicationsCell(view, /Ada Byron/).textContent).toBe('Wiki'));
    expect(applicationsCell(view, /Grace Hopper/).textContent).toBe('—');
    expect(await rowMenuItems(view, 'Actions for Ada Byron')).toContain('Applications');
  });

  it('assigns the newly ticked applications and unassigns the cleared ones with { userId, appIds, tenantId }, then shows them', async () => {
    const { view, calls } = openUsers();
    await waitFor(() => expect(applicationsCell(view, /Ada Byron/).textContent).toBe('Wiki'));
    await chooseRowAction(view, 'Actions for Ada Byron', 'Applications');
    const dialog = view.getByRole('dialog', { name: 'Applications of Ada Byron' });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /Payroll/ }));
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /Wiki/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save applications' }));
    await waitFor(() => expect(view.queryByRole('dialog')).toBeNull());
    expect(calls).toEqual([
      { path: '/identity/resources/applications/v1/assign', body: { userId: 'u-ada', appIds: ['app-payroll'], tenantId: 'tenant-1' } },
      { path: '/identity/resources/applications/v1/unassign', body: { userId: 'u-ada', appIds: ['app-wiki'], tenantId: 'tenant-1' } },
    ]);
    expect(applicationsCell(view, /Ada Byron/).textContent).toBe('Payroll');
    expect(view.getByText('Applications of Ada Byron saved')).toBeTruthy();
  });

  it("shows seed 001 section 8's sentence when the assignment fails, and keeps the dialog and its ticks", async () => {
    const { view } = openUsers({ fail: true });
    await waitFor(() => expect(applicationsCell(view, /Grace Hopper/).textContent).toBe('—'));
    await chooseRowAction(view, 'Actions for Grace Hopper', 'Applications');
    const dialog = view.getByRole('dialog', { name: 'Applications of Grace Hopper' });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /Payroll/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save applications' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toBe(ASSIGNMENT_FAILED_MESSAGE);
    expect((within(dialog).getByRole('checkbox', { name: /Payroll/ }) as HTMLInputElement).checked).toBe(true);
  });

  it('has no applications column or action while the vendor has no applications', async () => {
    const { view } = openUsers({ apps: [] });
    await view.findByRole('row', { name: /Ada Byron/ });
    expect(view.queryByRole('columnheader', { name: 'Applications' })).toBeNull();
    expect(view.getAllByRole('columnheader').map((h) => h.textContent)).not.toContain('Applications');
    expect(await rowMenuItems(view, 'Actions for Ada Byron')).not.toContain('Applications');
  });
});
