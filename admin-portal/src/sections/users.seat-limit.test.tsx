import { cleanup, fireEvent, render, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiPaths } from '@gatehouse/shared';
import { BillingErrorCodes } from '@gatehouse/shared/admin-paths';
import type { UsersPage } from '@gatehouse/shared/wire';
import { readAdminPortalOptions } from '../options';
import { createTestStore, makeUser, shadowMountPoint } from '../test/fake-store';
import { recordingApi } from '../test/section-harness';
import UsersSection from './users';

const ROLES = [{ id: 'r-read', key: 'ReadOnly', name: 'Read only', description: null, isDefault: true, permissions: [], tenantId: 'tenant-1', userCount: 1, createdAt: '' }];
const SEAT_LIMIT = { message: 'Your plan allows 3 users; remove a user or change plan to add more', statusCode: 403, errorCode: BillingErrorCodes.seatLimitReached, errorContext: { limit: 3, used: 3 } };

/** Users for a writer whose invitation the server refuses past the seat limit; `navigation` decides whether the Subscription section is visible. */
async function inviteRefused(permissions: string[], navigation: Record<string, unknown>) {
  const { api, calls } = recordingApi((method, path) => {
    if (method === 'GET' && path === '/team/resources/members/v1') return { items: [], _metadata: { totalItems: 0, totalPages: 1 } } satisfies UsersPage;
    if (method === 'GET' && path === '/team/resources/roles/v1') return { roles: ROLES, permissions: [] };
    return undefined;
  }, [{ method: 'POST', path: ApiPaths.inviteUser, error: SEAT_LIMIT }]);
  const { domElement } = shadowMountPoint();
  const user = makeUser({ permissions: permissions.map((key, i) => ({ id: `p${i}`, key, name: key })) });
  const store = createTestStore(user);
  const opened: string[] = [];
  render(<UsersSection title="Users" headingId="users-heading" user={user} snapshot={store.getSnapshot()} store={store} api={api} options={readAdminPortalOptions({ navigation })} openSection={(section) => opened.push(section)} />, { container: domElement });
  const view = within(domElement);
  fireEvent.click(await view.findByRole('button', { name: 'Invite user' }));
  const dialog = await view.findByRole('dialog', { name: 'Invite user' });
  fireEvent.change(within(dialog).getByLabelText('Email'), { target: { value: 'fourth@example.com' } });
  fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'Fourth' } });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
  const alert = await within(dialog).findByRole('alert');
  return { view, dialog, alert, calls, opened };
}

afterEach(() => {
  cleanup();
  document.body.innerHTML = '';
});

describe('invite past the seat limit', () => {
  it('shows the server’s reason and opens the Subscription section from the dialog', async () => {
    const { view, alert, opened, calls } = await inviteRefused(['fe.secure.read.users', 'fe.secure.write.users', 'fe.subscriptions.read'], { subscriptions: { visibility: 'always' } });
    expect(within(alert).getByText(SEAT_LIMIT.message)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    fireEvent.click(within(alert).getByRole('button', { name: 'See plans in Subscription' }));
    await waitFor(() => expect(view.queryByRole('dialog')).toBeNull());
    expect(opened).toEqual(['subscription']);
  });

  it('shows the reason without a way to a Subscription section the user cannot see', async () => {
    const { alert } = await inviteRefused(['fe.secure.read.users', 'fe.secure.write.users'], { subscriptions: { visibility: 'always' } });
    expect(alert.textContent).toBe(SEAT_LIMIT.message);
    expect(within(alert).queryByRole('button')).toBeNull();
  });
});
