import { act, cleanup, fireEvent, render, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createGatehouse, type GatehouseStore } from '@gatehouse/shared';
import { NotificationPaths, Permissions } from '@gatehouse/shared/admin-paths';
import type { Notification } from '@gatehouse/shared/wire';
import { createFetchStub, json } from '../../../shared/src/testing/fetch-stub';
import { makeUser, portalProps, shadowMountPoint } from '../test/fake-store';
import { cleanupPortals, mountPortal } from '../test/mount-portal';
import { NotificationBell } from './notification-bell';

const encoder = new TextEncoder();

/**
 * The notifications API in memory, as the server's contract says (pinned first, newest first; each
 * action answers the unread count), behind the portal's real API client over a stubbed fetch. The
 * stream is a real server-sent event body the test pushes counts into.
 */
function notificationServer(rows: Notification[], options: { streamFails?: boolean } = {}) {
  const state = rows.map((r) => ({ ...r }));
  const unread = () => state.filter((r) => r.status === 'unread').length;
  const sorted = () => [...state].sort((a, b) => Number(b.pinned) - Number(a.pinned) || b.createdAt - a.createdAt);
  let push: ((unread: number) => void) | null = null;
  const find = (id: unknown) => state.find((r) => r.id === id);
  const stub = createFetchStub({
    [`GET ${NotificationPaths.list}`]: (req) => {
      const offset = Number(req.url.searchParams.get('offset') ?? 0);
      const limit = Number(req.url.searchParams.get('limit') ?? 20);
      return json({ rows: sorted().slice(offset, offset + limit), total: state.length, unread: unread() });
    },
    [`PUT ${NotificationPaths.status}`]: (req) => {
      const body = req.body as { notificationId: string; status: 'read' | 'unread' };
      const row = find(body.notificationId);
      if (!row) return json({ errors: ['Notification not found'] }, { status: 404 });
      row.status = body.status;
      return json({ unread: unread() });
    },
    [`PUT ${NotificationPaths.pin}`]: (req) => {
      const body = req.body as { notificationId: string; status: 'pinned' | 'unpinned' };
      const row = find(body.notificationId);
      if (!row) return json({ errors: ['Notification not found'] }, { status: 404 });
      row.pinned = body.status === 'pinned';
      return json({ unread: unread() });
    },
    [`POST ${NotificationPaths.markAllRead}`]: () => {
      for (const r of state) r.status = 'read';
      return json({ unread: 0 });
    },
    [`GET ${NotificationPaths.stream}`]: (req) => {
      if (options.streamFails || req.headers.get('accept') !== 'text/event-stream') return json({ errors: ['no stream'] }, { status: 503 });
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          push = (n) => controller.enqueue(encoder.encode(`event: unread\ndata: ${JSON.stringify({ unread: n })}\n\n`));
          controller.enqueue(encoder.encode('retry: 5000\n\n'));
          push(unread());
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    },
  });
  return { stub, state, push: (n: number) => push?.(n), unread };
}

const stores: GatehouseStore[] = [];
afterEach(async () => {
  // Bells rendered here are unmounted after each test: an open panel listens on the document.
  cleanup();
  await cleanupPortals();
  stores.splice(0).forEach((s) => s.dispose());
});

function client(stub: ReturnType<typeof createFetchStub>, permissions: string[] = [Permissions.auditsRead]) {
  const user = makeUser({ permissions: permissions.map((key, i) => ({ id: `p${i}`, key, name: key })) });
  const { store, api } = createGatehouse({ baseUrl: 'http://api.test', clientId: 'c', fetch: stub.fetch, getLocationSearch: () => '', retry: { attempts: 1 }, navigate: () => undefined, storage: null });
  store.hydrate({ login: { accessToken: 'token-1', expiresIn: 300, expires: '', mfaRequired: false }, me: user });
  stores.push(store);
  return { store, api, user };
}

const note = (id: string, createdAt: number, overrides: Partial<Notification> = {}): Notification => ({ id, category: 'security', severity: 'warning', title: `Title ${id}`, body: `Body ${id}`, link: null, createdAt, status: 'unread', pinned: false, ...overrides });

function renderBell(api: ReturnType<typeof client>['api'], feedOptions?: { pollMs?: number }) {
  const { domElement } = shadowMountPoint();
  const wrapper = document.createElement('div');
  wrapper.className = 'gh-ap';
  domElement.append(wrapper);
  render(<NotificationBell api={api} feedOptions={feedOptions} />, { container: wrapper });
  return within(wrapper);
}

describe('notification bell', () => {
  it('names the unread count from the stream, asked for as server-sent events with the bearer token, and follows each pushed count', async () => {
    const server = notificationServer([note('a', 3), note('b', 2), note('c', 1, { status: 'read' })]);
    const { api } = client(server.stub);
    const view = renderBell(api);
    const bell = await view.findByRole('button', { name: 'Notifications, 2 unread' });
    expect(bell.textContent).toBe('2');
    const streamCall = server.stub.callsTo(`GET ${NotificationPaths.stream}`)[0]!;
    expect([streamCall.headers.get('accept'), streamCall.headers.get('authorization')]).toEqual(['text/event-stream', 'Bearer token-1']);

    act(() => server.push(5));
    await view.findByRole('button', { name: 'Notifications, 5 unread' });
    act(() => server.push(0));
    const quiet = await view.findByRole('button', { name: 'Notifications' });
    expect(quiet.textContent).toBe('');
    // One stream, no polling of the list while it is open.
    expect(server.stub.callsTo(`GET ${NotificationPaths.list}`)).toHaveLength(0);
  });

  it('opens the panel (pinned first), marks one read, pins one, and marks all read, the bell following each answer', async () => {
    const server = notificationServer([note('a', 3), note('b', 2), note('c', 1, { pinned: true })]);
    const { api } = client(server.stub);
    const view = renderBell(api);
    fireEvent.click(await view.findByRole('button', { name: 'Notifications, 3 unread' }));
    const panel = await view.findByRole('dialog', { name: 'Notifications' });
    await within(panel).findByText('Title a');
    const titles = () => [...panel.querySelectorAll('.gh-ap-notif-item-title')].map((e) => e.textContent);
    expect(titles()).toEqual(['Title c', 'Title a', 'Title b']);
    expect(within(panel).getByText('Pinned')).toBeTruthy();

    fireEvent.click(within(panel).getByRole('button', { name: 'Mark as read: Title a' }));
    await view.findByRole('button', { name: 'Notifications, 2 unread' });
    await within(panel).findByRole('button', { name: 'Mark as unread: Title a' });
    expect(server.stub.callsTo(`PUT ${NotificationPaths.status}`).map((c) => c.body)).toEqual([{ notificationId: 'a', status: 'read' }]);

    fireEvent.click(within(panel).getByRole('button', { name: 'Pin: Title b' }));
    await within(panel).findByRole('button', { name: 'Unpin: Title b' });
    expect(server.stub.callsTo(`PUT ${NotificationPaths.pin}`).map((c) => c.body)).toEqual([{ notificationId: 'b', status: 'pinned' }]);
    expect(titles()).toEqual(['Title b', 'Title c', 'Title a']);

    fireEvent.click(within(panel).getByRole('button', { name: 'Mark all as read' }));
    await view.findByRole('button', { name: 'Notifications' });
    expect(server.stub.callsTo(`POST ${NotificationPaths.markAllRead}`)).toHaveLength(1);
    await waitFor(() => expect((within(panel).getByRole('button', { name: 'Mark all as read' }) as HTMLButtonElement).disabled).toBe(true));
    expect(server.state.every((r) => r.status === 'read')).toBe(true);
    // The button that disabled itself had the focus: it stays in the panel (regression: it fell to
    // the page, and the next Escape closed the whole portal instead of the panel).
    await waitFor(() => expect((panel.getRootNode() as ShadowRoot).activeElement).toBe(panel));
  });

  it('shows the empty state, and Escape closes the panel only, giving the focus back to the bell', async () => {
    const server = notificationServer([]);
    const { api } = client(server.stub);
    const view = renderBell(api);
    const bell = await view.findByRole('button', { name: 'Notifications' });
    fireEvent.click(bell);
    const panel = await view.findByRole('dialog', { name: 'Notifications' });
    await within(panel).findByText('No notifications');
    let reachedDocument = false;
    const listener = () => (reachedDocument = true);
    document.addEventListener('keydown', listener);
    act(() => {
      fireEvent.keyDown(panel, { key: 'Escape' });
    });
    document.removeEventListener('keydown', listener);
    expect(view.queryByRole('dialog')).toBeNull();
    expect(reachedDocument).toBe(false);
    expect((bell.getRootNode() as ShadowRoot).activeElement).toBe(bell);
    expect(bell.getAttribute('aria-expanded')).toBe('false');
  });

  it('closes the panel only when Escape comes after the focus fell out of it to the page', async () => {
    const server = notificationServer([]);
    const { api } = client(server.stub);
    const view = renderBell(api);
    fireEvent.click(await view.findByRole('button', { name: 'Notifications' }));
    const panel = await view.findByRole('dialog', { name: 'Notifications' });
    await within(panel).findByText('No notifications');
    // What a focused button that disables itself does: the focus falls to the page.
    ((panel.getRootNode() as ShadowRoot).activeElement as HTMLElement | null)?.blur();
    expect(document.activeElement).toBe(document.body);
    let reachedPortal = false;
    const portalListener = (event: KeyboardEvent) => (reachedPortal = !event.defaultPrevented);
    document.addEventListener('keydown', portalListener);
    act(() => {
      document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true, cancelable: true }));
    });
    document.removeEventListener('keydown', portalListener);
    expect(view.queryByRole('dialog')).toBeNull();
    expect(reachedPortal).toBe(false);
  });

  it('falls back to asking the list once a minute when the stream fails', async () => {
    const server = notificationServer([note('a', 1)], { streamFails: true });
    const { api } = client(server.stub);
    const view = renderBell(api, { pollMs: 200 });
    await view.findByRole('button', { name: 'Notifications, 1 unread' });
    expect(server.stub.callsTo(`GET ${NotificationPaths.list}`).map((c) => c.url.searchParams.get('limit'))).toEqual(['1']);
    server.state[0]!.status = 'read';
    await view.findByRole('button', { name: 'Notifications' }, { timeout: 2000 });
    const streams = server.stub.callsTo(`GET ${NotificationPaths.stream}`).length;
    const lists = server.stub.callsTo(`GET ${NotificationPaths.list}`).length;
    // Each failed stream is followed by one list call, then a wait of pollMs.
    expect(Math.abs(streams - lists)).toBeLessThanOrEqual(1);
  });

  it('sits in the portal header for an admin who sees notifications', async () => {
    const server = notificationServer([note('a', 1)]);
    const admin = client(server.stub, [Permissions.securityPolicyRead]);
    const { domElement } = shadowMountPoint();
    await mountPortal({ ...portalProps(domElement, admin.store), api: admin.api });
    await within(domElement).findByRole('button', { name: 'Notifications, 1 unread' });
  });

  it("opens a new stream when the user switches tenant, so the count is the new tenant's", async () => {
    const server = notificationServer([note('a', 1)]);
    const admin = client(server.stub, [Permissions.securityPolicyRead]);
    const { domElement } = shadowMountPoint();
    await mountPortal({ ...portalProps(domElement, admin.store), api: admin.api });
    await within(domElement).findByRole('button', { name: 'Notifications, 1 unread' });
    expect(server.stub.callsTo(`GET ${NotificationPaths.stream}`)).toHaveLength(1);
    act(() => admin.store.hydrate({ login: { accessToken: 'token-2', expiresIn: 300, expires: '', mfaRequired: false }, me: { ...admin.user, tenantId: 'tenant-2', tenantIds: ['tenant-1', 'tenant-2'] } }));
    await waitFor(() => expect(server.stub.callsTo(`GET ${NotificationPaths.stream}`)).toHaveLength(2));
    expect(server.stub.callsTo(`GET ${NotificationPaths.stream}`)[1]!.headers.get('authorization')).toBe('Bearer token-2');
  });

  it('is not in the header of a member who sees no category of notifications, and asks nothing', async () => {
    const server = notificationServer([note('a', 1)]);
    const member = client(server.stub, [Permissions.usersRead]);
    const { domElement } = shadowMountPoint();
    await mountPortal({ ...portalProps(domElement, member.store), api: member.api });
    await within(domElement).findByRole('button', { name: 'Close' });
    expect(within(domElement).queryByRole('button', { name: /^Notifications/ })).toBeNull();
    expect(server.stub.calls.filter((c) => c.url.pathname.startsWith('/notifications/'))).toEqual([]);
  });
});
