import { ApiTokenPaths, NotificationPaths, OAuthPaths, type NotificationList } from '@gatehouse/shared/wire';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, expect, it, vi } from 'vitest';
import type { GatehouseServer } from '../../app';
import { newId } from '../../crypto';
import { insertNotification } from '../../db/queries/notifications';
import { activeMember, callAs, memberWithoutPermissions, roleIdByKey, superUser, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { describeDialects, movableClock } from '../../test/harness';
import { claimsOf } from '../../test/mfa-helpers';
import { DEFAULT_STREAM_OPTIONS } from '../../services/connectivity/notification-stream';
import { notifyTenantAdmins, type NotificationInput } from '../../services/connectivity/notifications';

type Notice = Omit<NotificationInput, 'tenantId'>;
const security = (title: string): Notice => ({ category: 'security', severity: 'warning', title, body: `${title} body` });

async function notify(server: GatehouseServer, tenantId: string, notice: Notice, at: number): Promise<void> {
  await notifyTenantAdmins(server.db, { tenantId, ...notice }, at);
}

async function list(server: GatehouseServer, who: TenantAdmin, query = ''): Promise<NotificationList> {
  const res = await callAs(server, who, 'GET', `${NotificationPaths.list}${query}`, { tenantId: who.tenantId });
  expect(res.status).toBe(200);
  return res.body as NotificationList;
}

afterEach(() => {
  vi.useRealTimers();
});

describeDialects('notifications routes', (harness) => {
  const start = (clock = movableClock()) => harness.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60' }, { clock });

  it('lists the caller\'s notifications pinned first then newest first, pages them, and keeps read and pin state per caller', async () => {
    const clock = movableClock();
    const server = await start(clock);
    const admin = await tenantWithAdmin(server);
    const t0 = clock.now();
    await notify(server, admin.tenantId, security('first'), t0);
    await notify(server, admin.tenantId, security('second'), t0 + 1000);
    await notify(server, admin.tenantId, { category: 'webhooks', severity: 'critical', title: 'third', body: 'Endpoint disabled', link: '/connectivity' }, t0 + 2000);

    const all = await list(server, admin);
    expect(all).toMatchObject({ total: 3, unread: 3 });
    expect(all.rows.map((r) => r.title)).toEqual(['third', 'second', 'first']);
    expect(all.rows[0]).toEqual({ id: expect.any(String), category: 'webhooks', severity: 'critical', title: 'third', body: 'Endpoint disabled', link: '/connectivity', createdAt: t0 + 2000, status: 'unread', pinned: false });
    const page = await list(server, admin, '?offset=1&limit=1');
    expect([page.total, page.unread, page.rows.map((r) => r.title)]).toEqual([3, 3, ['second']]);

    const first = all.rows[2]!.id;
    const pinned = await callAs(server, admin, 'PUT', NotificationPaths.pin, { tenantId: admin.tenantId, body: { notificationId: first, status: 'pinned' } });
    expect([pinned.status, pinned.body]).toEqual([200, { unread: 3 }]);
    const read = await callAs(server, admin, 'PUT', NotificationPaths.status, { tenantId: admin.tenantId, body: { notificationId: first, status: 'read' } });
    expect([read.status, read.body]).toEqual([200, { unread: 2 }]);
    const after = await list(server, admin);
    expect(after.rows.map((r) => [r.title, r.status, r.pinned])).toEqual([
      ['first', 'read', true],
      ['third', 'unread', false],
      ['second', 'unread', false],
    ]);
    expect(after.unread).toBe(2);

    // Another admin of the tenant sees the same notifications with their own state.
    const other = await activeMember(server, admin, { roleIds: [await roleIdByKey(server, admin, 'Admin')] });
    const theirs = await list(server, other);
    expect([theirs.unread, theirs.rows.map((r) => [r.title, r.status, r.pinned])]).toEqual([
      3,
      [
        ['third', 'unread', false],
        ['second', 'unread', false],
        ['first', 'unread', false],
      ],
    ]);

    // Back to unread, and unpinned.
    expect((await callAs(server, admin, 'PUT', NotificationPaths.status, { tenantId: admin.tenantId, body: { notificationId: first, status: 'unread' } })).body).toEqual({ unread: 3 });
    expect((await callAs(server, admin, 'PUT', NotificationPaths.pin, { tenantId: admin.tenantId, body: { notificationId: first, status: 'unpinned' } })).status).toBe(200);
    expect((await list(server, admin)).rows.map((r) => [r.title, r.status, r.pinned])).toEqual([
      ['third', 'unread', false],
      ['second', 'unread', false],
      ['first', 'unread', false],
    ]);
  });

  it('mark-all-read reads every notification the caller sees, for the caller only; a later one is unread again', async () => {
    const clock = movableClock();
    const server = await start(clock);
    const admin = await tenantWithAdmin(server);
    const other = await activeMember(server, admin, { roleIds: [await roleIdByKey(server, admin, 'Admin')] });
    await notify(server, admin.tenantId, security('a'), clock.now());
    await notify(server, admin.tenantId, { category: 'billing', severity: 'critical', title: 'b', body: 'past due' }, clock.now() + 1);
    const ids = (await list(server, admin)).rows.map((r) => r.id);
    // One already read: mark-all-read updates it and inserts the other.
    await callAs(server, admin, 'PUT', NotificationPaths.status, { tenantId: admin.tenantId, body: { notificationId: ids[1], status: 'read' } });
    const res = await callAs(server, admin, 'POST', NotificationPaths.markAllRead, { tenantId: admin.tenantId });
    expect([res.status, res.body]).toEqual([200, { unread: 0 }]);
    expect((await list(server, admin)).rows.map((r) => r.status)).toEqual(['read', 'read']);
    expect((await list(server, other)).unread).toBe(2);
    await notify(server, admin.tenantId, security('c'), clock.now() + 2);
    const after = await list(server, admin);
    expect([after.unread, after.rows.map((r) => [r.title, r.status])]).toEqual([
      1,
      [
        ['c', 'unread'],
        ['b', 'read'],
        ['a', 'read'],
      ],
    ]);
  });

  it('shows each category to the holders of its permissions only, resolved when read: an admin given a role later sees earlier notifications', async () => {
    const clock = movableClock();
    const server = await start(clock);
    const admin = await tenantWithAdmin(server);
    await notify(server, admin.tenantId, security('locked'), clock.now());
    await notify(server, admin.tenantId, { category: 'webhooks', severity: 'critical', title: 'endpoint off', body: '' }, clock.now() + 1);
    await notify(server, admin.tenantId, { category: 'billing', severity: 'critical', title: 'past due', body: '' }, clock.now() + 2);

    // Support holds fe.secure.read.audits: security only.
    const support = await activeMember(server, admin, { roleIds: [await roleIdByKey(server, admin, 'Support')] });
    const seen = await list(server, support);
    expect([seen.total, seen.rows.map((r) => r.title)]).toEqual([1, ['locked']]);
    const webhooksId = (await list(server, admin)).rows.find((r) => r.category === 'webhooks')!.id;
    const hidden = await callAs(server, support, 'PUT', NotificationPaths.status, { tenantId: support.tenantId, body: { notificationId: webhooksId, status: 'read' } });
    expect(hidden.status).toBe(404);

    // ReadOnly holds every read key: all three, including those written before the membership.
    const readOnly = await activeMember(server, admin, { roleIds: [await roleIdByKey(server, admin, 'ReadOnly')] });
    expect((await list(server, readOnly)).total).toBe(3);

    // No permission of any category: 403 naming the keys; nothing changes.
    const plain = await memberWithoutPermissions(server, admin.tenantId);
    const refused = await callAs(server, plain, 'GET', NotificationPaths.list, { tenantId: admin.tenantId });
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0]).toContain('fe.secure.read.securityPolicy');
    const refusedWrite = await callAs(server, plain, 'POST', NotificationPaths.markAllRead, { tenantId: admin.tenantId });
    expect(refusedWrite.status).toBe(403);
    expect((await list(server, admin)).unread).toBe(3);

    // A super user acting in the tenant sees every category.
    const operator = await superUser(server);
    const theirs = await callAs(server, operator, 'GET', NotificationPaths.list, { tenantId: admin.tenantId });
    expect([theirs.status, theirs.body.total]).toEqual([200, 3]);
  });

  it("refuses another tenant's admin and another tenant's notification ids (404), bad input (400 naming the field) and API tokens (403)", async () => {
    const clock = movableClock();
    const server = await start(clock);
    const admin = await tenantWithAdmin(server);
    const stranger = await tenantWithAdmin(server, 'other');
    await notify(server, admin.tenantId, security('mine'), clock.now());
    await notify(server, stranger.tenantId, security('theirs'), clock.now());
    const mine = (await list(server, admin)).rows[0]!.id;
    const theirs = (await list(server, stranger)).rows[0]!.id;

    // The stranger naming this tenant: not found.
    expect((await callAs(server, stranger, 'GET', NotificationPaths.list, { tenantId: admin.tenantId })).status).toBe(404);
    expect((await callAs(server, stranger, 'PUT', NotificationPaths.status, { tenantId: admin.tenantId, body: { notificationId: mine, status: 'read' } })).status).toBe(404);
    // The stranger's own tenant, this tenant's id: not found, and nothing changed.
    const cross = await callAs(server, stranger, 'PUT', NotificationPaths.pin, { body: { notificationId: mine, status: 'pinned' } });
    expect(cross.status).toBe(404);
    const crossRead = await callAs(server, admin, 'PUT', NotificationPaths.status, { body: { notificationId: theirs, status: 'read' } });
    expect(crossRead.status).toBe(404);
    expect((await list(server, admin)).rows.map((r) => [r.status, r.pinned])).toEqual([['unread', false]]);
    expect((await list(server, stranger)).rows.map((r) => [r.status, r.pinned])).toEqual([['unread', false]]);
    expect(await server.db.selectFrom('notification_states').selectAll().where('notification_id', 'in', [mine, theirs]).execute()).toEqual([]);

    const badStatus = await callAs(server, admin, 'PUT', NotificationPaths.status, { body: { notificationId: mine, status: 'pinned' } });
    expect(badStatus.status).toBe(400);
    expect(JSON.stringify(badStatus.body)).toContain('status');
    const noId = await callAs(server, admin, 'PUT', NotificationPaths.pin, { body: { status: 'pinned' } });
    expect(noId.status).toBe(400);
    expect(JSON.stringify(noId.body)).toContain('notificationId');
    expect((await callAs(server, admin, 'GET', `${NotificationPaths.list}?limit=0`)).status).toBe(400);
    expect((await callAs(server, admin, 'GET', `${NotificationPaths.list}?limit=101`)).status).toBe(400);

    const token = await callAs(server, admin, 'POST', ApiTokenPaths.userApiTokens, { body: { description: 'ci' } });
    expect(token.status).toBe(201);
    const exchanged = await server.fetch(
      new Request(`${server.config.publicUrl}${OAuthPaths.token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: token.body.clientId, client_secret: token.body.secret }).toString(),
      }),
    );
    expect(exchanged.status).toBe(200);
    const accessToken = ((await exchanged.json()) as { access_token: string }).access_token;
    const viaToken = await callAs(server, { accessToken }, 'GET', NotificationPaths.list);
    expect([viaToken.status, viaToken.body.errors]).toEqual([403, ['Notifications are read by people in the portal, not with API tokens']]);
  });

  it('streams the unread count as server-sent events: on connect, at once on a change in this process, and from the database for changes it did not see', async () => {
    const clock = movableClock();
    const server = await start(clock);
    const admin = await tenantWithAdmin(server);
    await notify(server, admin.tenantId, security('one'), clock.now());
    // The stream's timers (the second look 300 ms after a signal, the 5 s database check) on a fake
    // clock this test moves; the database, the request and Date stay real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    let elapsed = 0;
    const advance = async (ms: number) => {
      elapsed += ms;
      await vi.advanceTimersByTimeAsync(ms);
    };
    const aborter = new AbortController();
    const res = await server.fetch(
      new Request(`${server.config.publicUrl}${NotificationPaths.stream}`, { headers: { authorization: `Bearer ${admin.accessToken}`, accept: 'text/event-stream' }, signal: aborter.signal }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = eventReader(res);
    expect(await events.next()).toEqual({ unread: 1 });

    await notify(server, admin.tenantId, security('two'), clock.now() + 1);
    expect(await events.next()).toEqual({ unread: 2 });
    const ids = (await list(server, admin)).rows.map((r) => r.id);
    await callAs(server, admin, 'PUT', NotificationPaths.status, { body: { notificationId: ids[0], status: 'read' } });
    expect(await events.next()).toEqual({ unread: 1 });

    // Signalled from inside a transaction that commits a little later (as the worker's dispatch
    // does): the stream looks again 300 ms after the signal, well before the periodic check.
    await server.db.transaction().execute(async (trx) => {
      await notifyTenantAdmins(trx, { tenantId: admin.tenantId, ...security('in a transaction') }, clock.now() + 2);
      await sleep(100);
    });
    const afterCommit = events.next();
    await advance(300);
    expect(await afterCommit).toEqual({ unread: 2 });
    expect(elapsed).toBeLessThan(DEFAULT_STREAM_OPTIONS.checkMs);
    await callAs(server, admin, 'PUT', NotificationPaths.status, { body: { notificationId: (await list(server, admin)).rows[0]!.id, status: 'read' } });
    expect(await events.next()).toEqual({ unread: 1 });

    // Written as another process would: no in-process signal; the periodic check finds it (5 s
    // after the stream opened), not before. First the second look after the last signal passes
    // and its query answers (real time, as much as the wall-clock version gave it), so only the
    // periodic check can see it.
    await advance(300);
    await sleep(300);
    await insertNotification(server.db, { id: newId(), tenant_id: admin.tenantId, category: 'security', severity: 'info', title: 'elsewhere', body: '', link: null, dedupe_key: null, created_at: clock.now() });
    let seen: unknown;
    const fromDatabase = events.next().then((e) => (seen = e));
    await advance(DEFAULT_STREAM_OPTIONS.checkMs - elapsed - 1);
    await sleep(50); // real time for a check, had one started, to answer
    expect(seen, 'not seen before the periodic check').toBeUndefined();
    await advance(1);
    await fromDatabase;
    expect(seen).toEqual({ unread: 2 });
    expect(DEFAULT_STREAM_OPTIONS.checkMs).toBe(5_000);
    aborter.abort();
  });

  it('ends a stream when the access token that opened it expires, so it never outlives the token (the client reconnects with a fresh one)', async () => {
    const clock = movableClock();
    const server = await start(clock);
    const admin = await tenantWithAdmin(server);
    const exp = claimsOf(admin.accessToken).exp as number;
    // The token has half a second left when the stream opens; the stream's own lifetime is 10 minutes.
    clock.set(exp * 1000 - 500);
    const res = await server.fetch(new Request(`${server.config.publicUrl}${NotificationPaths.stream}`, { headers: { authorization: `Bearer ${admin.accessToken}`, accept: 'text/event-stream' } }));
    expect(res.status).toBe(200);
    const events = eventReader(res);
    expect(await events.next()).toEqual({ unread: 0 });
    const opened = Date.now();
    expect(await events.ended()).toBe(true);
    expect(Date.now() - opened).toBeLessThan(5_000);
  }, 15_000);

  it('sends events of the shape its OpenAPI document declares per event (event "unread", data the count as JSON)', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const document = (await (await server.fetch(new Request(`${server.config.publicUrl}/openapi.json`))).json()) as {
      paths: Record<string, { get: { responses: { 200: { content: Record<string, { schema: { type: string; required: string[]; properties: Record<string, { type?: string; enum?: string[]; const?: string }> } }> } } } }>;
    };
    const declared = document.paths[NotificationPaths.stream]!.get.responses[200].content['text/event-stream']!.schema;
    expect(declared.type).toBe('object');
    expect(declared.required).toEqual(expect.arrayContaining(['event', 'data']));
    const once = await callAs(server, admin, 'GET', NotificationPaths.stream);
    expect(once.status).toBe(200);
    // Each block with a data line is an event; its field names are the declared properties.
    const events = (once.body as string).split('\n\n').filter((block) => /^data:/m.test(block)).map((block) => Object.fromEntries(block.split('\n').filter((line) => line && !line.startsWith(':')).map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()])));
    expect(events).toHaveLength(1);
    for (const event of events) {
      expect(Object.keys(event).every((field) => field in declared.properties)).toBe(true);
      const allowed = declared.properties.event!.enum ?? [declared.properties.event!.const];
      expect(allowed).toContain(event.event);
      expect(declared.properties.data!.type).toBe('string');
      expect(JSON.parse(event.data!)).toEqual({ unread: 0 });
    }
  });

  it('answers one event and ends for a client that does not ask for an event stream; a fourth open stream closes the oldest', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const once = await callAs(server, admin, 'GET', NotificationPaths.stream);
    expect(once.status).toBe(200);
    expect(once.body).toContain('event: unread\ndata: {"unread":0}\n\n');

    const open = async () => {
      const res = await server.fetch(new Request(`${server.config.publicUrl}${NotificationPaths.stream}`, { headers: { authorization: `Bearer ${admin.accessToken}`, accept: 'text/event-stream' } }));
      const events = eventReader(res);
      expect(await events.next()).toEqual({ unread: 0 });
      return events;
    };
    const first = await open();
    const rest = [await open(), await open(), await open()];
    expect(await first.ended()).toBe(true);
    await Promise.all(rest.map((s) => s.cancel()));
  });
});

/** Reads `event: unread` payloads from an SSE response, one at a time. */
function eventReader(res: Response) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const pull = async (): Promise<boolean> => {
    const { value, done } = await reader.read();
    if (done) return false;
    buffer += decoder.decode(value, { stream: true });
    return true;
  };
  return {
    async next(): Promise<unknown> {
      for (;;) {
        const match = /event: unread\ndata: (.*)\n\n/.exec(buffer);
        if (match) {
          buffer = buffer.slice(match.index + match[0].length);
          return JSON.parse(match[1]!);
        }
        if (!(await pull())) throw new Error(`stream ended; left: ${buffer}`);
      }
    },
    async ended(): Promise<boolean> {
      while (await pull());
      return true;
    },
    cancel: () => reader.cancel(),
  };
}
