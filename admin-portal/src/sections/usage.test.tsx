import { act, cleanup, fireEvent, render, within } from '@testing-library/react';
import { BILLING_CHANGED_EVENT } from '@gatehouse/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { BillingPaths } from '@gatehouse/shared/admin-paths';
import type { UsageResponse } from '@gatehouse/shared/wire';
import { readAdminPortalOptions } from '../options';
import { createTestStore, makeUser, shadowMountPoint } from '../test/fake-store';
import { recordingApi, type Failure } from '../test/section-harness';
import UsageSection from './usage';
import { usageLevel } from './usage/usage-meter';

function open(usage: UsageResponse | (() => UsageResponse), { permissions = ['fe.usage.read', 'fe.subscriptions.read'], navigation, failures = [] }: { permissions?: string[]; navigation?: Record<string, unknown>; failures?: Failure[] } = {}) {
  const { api, calls } = recordingApi((method, path) => (method === 'GET' && path === BillingPaths.usage ? (typeof usage === 'function' ? usage() : usage) : undefined), failures);
  const { domElement } = shadowMountPoint();
  const user = makeUser({ permissions: permissions.map((key, i) => ({ id: `p${i}`, key, name: key })) });
  const store = createTestStore(user);
  const opened: string[] = [];
  render(
    <UsageSection title="Usage" headingId="usage-heading" user={user} snapshot={store.getSnapshot()} store={store} api={api} options={readAdminPortalOptions({ navigation: navigation ?? { subscriptions: { visibility: 'always' } } })} openSection={(section) => opened.push(section)} />,
    { container: domElement },
  );
  return { view: within(domElement), calls, opened };
}

afterEach(() => {
  cleanup();
  document.body.innerHTML = '';
});

describe('usage section', () => {
  it('draws seats used of the plan’s limit and each limited feature as meters, and an unlimited one as such', async () => {
    const { view, calls } = open({ planId: 'premium', seats: { used: 4, limit: 20 }, features: [{ key: 'reports', name: 'Reports', used: 3, limit: null }, { key: 'exports', name: 'Exports', used: 2, limit: 50 }] });
    const seats = await view.findByRole('meter', { name: 'Seats' });
    expect(seats.getAttribute('aria-valuenow')).toBe('4');
    expect(seats.getAttribute('aria-valuemax')).toBe('20');
    expect(seats.getAttribute('aria-valuetext')).toBe('4 of 20');
    expect(view.getByText('4 of 20 used')).toBeTruthy();
    expect((seats.firstElementChild as HTMLElement).style.width).toBe('20%');
    expect(view.getByText('3 used · Unlimited')).toBeTruthy();
    expect(view.queryByRole('meter', { name: 'Reports' })).toBeNull();
    expect(view.getByRole('meter', { name: 'Exports' }).getAttribute('aria-valuenow')).toBe('2');
    // Nothing is near a limit: no warning and no link.
    expect(view.queryByRole('button', { name: 'See plans' })).toBeNull();
    expect(calls).toEqual([{ method: 'GET', path: BillingPaths.usage }]);
  });

  it('warns near and at a limit and opens the Subscription section from there', async () => {
    const { view, opened } = open({ planId: 'free', seats: { used: 3, limit: 3 }, features: [{ key: 'exports', name: 'Exports', used: 9, limit: 10 }] });
    expect(await view.findByText(/At the limit: nothing more can be added\./)).toBeTruthy();
    expect(view.getByText(/Almost at the limit\./)).toBeTruthy();
    const links = view.getAllByRole('button', { name: 'See plans' });
    expect(links).toHaveLength(2);
    fireEvent.click(links[0]!);
    expect(opened).toEqual(['subscription']);
  });

  it('offers no link to a Subscription section the user cannot open', async () => {
    const { view } = open({ planId: 'free', seats: { used: 3, limit: 3 }, features: [] }, { navigation: {} });
    expect(await view.findByText(/At the limit/)).toBeTruthy();
    expect(view.queryByRole('button', { name: 'See plans' })).toBeNull();
    expect(view.getByText('No other feature of this plan is limited.')).toBeTruthy();
  });

  it('reads the limits again after the checkout changed the plan', async () => {
    let usage: UsageResponse = { planId: 'free', seats: { used: 3, limit: 3 }, features: [] };
    const { view, calls } = open(() => usage);
    expect((await view.findByRole('meter', { name: 'Seats' })).getAttribute('aria-valuemax')).toBe('3');
    usage = { planId: 'premium', seats: { used: 3, limit: 20 }, features: [] };
    act(() => {
      window.dispatchEvent(new CustomEvent(BILLING_CHANGED_EVENT, { detail: { planId: 'premium' } }));
    });
    expect(await view.findByText('3 of 20 used')).toBeTruthy();
    expect(calls).toHaveLength(2);
  });

  it('shows a failed load with the server’s message', async () => {
    const { view } = open({ planId: null, seats: { used: 0, limit: null }, features: [] }, { failures: [{ method: 'GET', path: BillingPaths.usage, error: { message: 'Not authorized', statusCode: 403 } }] });
    expect((await view.findByRole('alert')).textContent).toBe('Usage could not be loaded. Not authorized');
  });
});

describe('usage level', () => {
  it('is fine under 80 %, near from 80 %, full at the limit, over beyond it, and always fine when unlimited', () => {
    expect([usageLevel(7, 10), usageLevel(8, 10), usageLevel(10, 10), usageLevel(11, 10), usageLevel(1_000, null), usageLevel(0, 0)]).toEqual(['fine', 'near', 'full', 'over', 'fine', 'full']);
  });
});
