import { ErrorCodes, NotificationPaths, WEBHOOK_TIMEOUT_MESSAGE, WEBHOOK_TIMEOUT_MS, WEBHOOK_UNREACHABLE_MESSAGE, WebhookPaths } from '@gatehouse/shared/wire';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { afterEach, expect, it, vi } from 'vitest';
import type { GatehouseServer } from '../../app';
import { raiseEvent } from '../../services/connectivity/events';
import { auditsOf, callAs, inviteMember, pathOf, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { describeDialects, movableClock } from '../../test/harness';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const KEK = 'ab'.repeat(32);

const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.stop()));
});
async function receiver(): Promise<WebhookReceiver> {
  const r = await startWebhookReceiver();
  receivers.push(r);
  return r;
}

async function createEndpoint(server: GatehouseServer, admin: TenantAdmin, url: string, eventKeys: string[] = ['user.invited'], extra: Record<string, unknown> = {}) {
  const res = await callAs(server, admin, 'POST', WebhookPaths.webhooks, { body: { url, description: 'CRM sync', eventKeys, isActive: true, ...extra } });
  expect(res.status).toBe(201);
  return res.body as { _id: string; url: string; eventKeys: string[]; isActive: boolean; secret: string };
}

/** A tenant and its admin, with the events of its sign-up already dispatched (so they are no endpoint's concern). */
async function newTenant(server: GatehouseServer, prefix = 'admin'): Promise<TenantAdmin> {
  const admin = await tenantWithAdmin(server, prefix);
  await server.connectivity.worker.runDue();
  return admin;
}

const logsOf = async (server: GatehouseServer, admin: TenantAdmin, id: string, query = '') => {
  const res = await callAs(server, admin, 'GET', `${pathOf(WebhookPaths.webhookLogs, { id })}${query}`);
  expect(res.status).toBe(200);
  return res.body as { rows: any[]; total: number };
};

const jobsOf = (server: GatehouseServer, endpointId: string) => server.db.selectFrom('jobs').selectAll().where('kind', '=', 'webhook').where('target_id', '=', endpointId).execute();

/** An event of the admin's tenant, raised as the services raise them (the outbox, then the worker). */
const raise = (server: GatehouseServer, tenantId: string, now: number, data: Record<string, unknown> = { userId: 'u-1', email: 'x@example.com' }) =>
  raiseEvent(server.db, { tenantId, key: 'user.created', data, actor: { userId: 'admin-1', email: 'admin@example.com' } }, now);

describeDialects('webhooks', (harness) => {
  // Access tokens outlive the moved clocks of these tests (days); secrets are sealed at rest (one key for the file's database).
  const start = (clock = movableClock()) => harness.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60', ACCESS_TOKEN_TTL: String(30 * 24 * 3600), GATEHOUSE_KEY_ENCRYPTION_KEY: KEK }, { clock });

  it('creates an endpoint answering exactly { _id, url, eventKeys, isActive, secret }, lists it without the secret, updates it by _id, deletes it, and audits each change without the secret', async () => {
    const server = await start();
    const admin = await newTenant(server);
    const r = await receiver();
    const created = await createEndpoint(server, admin, r.url, ['user.invited', 'user.created']);
    expect(Object.keys(created).sort()).toEqual(['_id', 'eventKeys', 'isActive', 'secret', 'url']);
    expect(created).toMatchObject({ url: r.url, eventKeys: ['user.invited', 'user.created'], isActive: true });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    // Sealed at rest: the secret is nowhere in the row.
    const row = await server.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', created._id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(created.secret.slice('whsec_'.length));
    expect(row.secret).toMatch(/^enc:v1:/);

    const listed = await callAs(server, admin, 'GET', WebhookPaths.webhooks);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([{ _id: created._id, url: r.url, description: 'CRM sync', eventKeys: ['user.invited', 'user.created'], isActive: true, createdAt: expect.any(Number), disabledAt: null, disabledReason: null }]);
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');

    const updated = await callAs(server, admin, 'POST', WebhookPaths.webhooks, { body: { _id: created._id, url: `${r.url}/v2`, description: 'CRM v2', eventKeys: ['user.deleted'], isActive: false } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ _id: created._id, url: `${r.url}/v2`, description: 'CRM v2', eventKeys: ['user.deleted'], isActive: false });
    expect(updated.body.secret).toBeUndefined();
    expect((await callAs(server, admin, 'GET', WebhookPaths.webhooks)).body).toHaveLength(1);

    const rotated = await callAs(server, admin, 'POST', pathOf(WebhookPaths.webhookRotateSecret, { id: created._id }));
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.secret);

    expect((await callAs(server, admin, 'DELETE', pathOf(WebhookPaths.webhook, { id: created._id }))).status).toBe(204);
    expect((await callAs(server, admin, 'DELETE', pathOf(WebhookPaths.webhook, { id: created._id }))).status).toBe(404);
    expect((await callAs(server, admin, 'GET', WebhookPaths.webhooks)).body).toEqual([]);

    const audits = (await auditsOf(server, admin.tenantId)).filter((a) => a.action.startsWith('Webhook'));
    expect(audits.map((a) => a.action).sort()).toEqual(['Webhook created', 'Webhook deleted', 'Webhook secret rotated', 'Webhook updated']);
    const update = audits.find((a) => a.action === 'Webhook updated')!;
    expect(JSON.parse(update.json!)).toMatchObject({ endpointId: created._id, before: { url: r.url, isActive: true, eventKeys: ['user.invited', 'user.created'] }, after: { url: `${r.url}/v2`, isActive: false, eventKeys: ['user.deleted'] } });
    const text = JSON.stringify(audits);
    expect(text).not.toContain(created.secret.slice(6));
    expect(text).not.toContain(rotated.body.secret.slice(6));
  });

  it('refuses bad input with a 400 naming the field, and loses nothing', async () => {
    const server = await start();
    const admin = await newTenant(server);
    const r = await receiver();
    const post = (body: Record<string, unknown>) => callAs(server, admin, 'POST', WebhookPaths.webhooks, { body });
    const base = { url: r.url, description: 'x', eventKeys: ['user.invited'], isActive: true };
    const refusals: [Record<string, unknown>, RegExp][] = [
      [{ ...base, url: 'ftp://hooks.example.com/x' }, /url/],
      [{ ...base, url: 'not a url' }, /url/],
      [{ ...base, url: 'https://user:pw@hooks.example.com/x' }, /url/],
      [{ ...base, eventKeys: ['user.nonexistent'] }, /eventKeys/],
      [{ ...base, eventKeys: [] }, /eventKeys/],
      [{ ...base, eventKeys: 'user.invited' }, /eventKeys/],
      [{ ...base, isActive: 'yes' }, /isActive/],
      [{ ...base, secret: 'whsec_mine' }, /secret|Unrecognized|unrecognized/],
      [{ description: 'x', eventKeys: ['user.invited'] }, /url/],
    ];
    for (const [body, field] of refusals) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errorCode).toBe(ErrorCodes.validation);
      expect(res.body.errors.join(' ')).toMatch(field);
    }
    expect((await callAs(server, admin, 'GET', WebhookPaths.webhooks)).body).toEqual([]);
    const created = await createEndpoint(server, admin, r.url);
    // An update with bad input changes nothing.
    expect((await post({ ...base, _id: created._id, url: 'ftp://x.example' })).status).toBe(400);
    expect((await post({ ...base, _id: 'no-such-endpoint' })).status).toBe(404);
    expect((await callAs(server, admin, 'GET', WebhookPaths.webhooks)).body[0]).toMatchObject({ url: r.url, eventKeys: ['user.invited'] });
    const bad = await callAs(server, admin, 'POST', pathOf(WebhookPaths.webhookTest, { id: created._id }), { body: { eventKey: 'user.nonexistent' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.join(' ')).toMatch(/eventKey/);
    expect((await callAs(server, admin, 'GET', `${pathOf(WebhookPaths.webhookLogs, { id: created._id })}?limit=0`)).status).toBe(400);
    expect((await callAs(server, admin, 'GET', `${pathOf(WebhookPaths.webhookLogs, { id: created._id })}?offset=-1`)).status).toBe(400);
  });

  it('outside dev mode refuses plain http and private or loopback targets when saving, and never delivers to them', async () => {
    // Dev mode to sign up (the dev mailbox), then a second server on the same database outside dev mode.
    const devServer = await start();
    const admin = await newTenant(devServer);
    const r = await receiver();
    const saved = await createEndpoint(devServer, admin, r.url, ['user.created']);
    const server = await harness.start({ GATEHOUSE_DEV: '0', ACCESS_TOKEN_TTL: String(30 * 24 * 3600), GATEHOUSE_KEY_ENCRYPTION_KEY: KEK });
    expect(server.config.dev).toBe(false);
    for (const url of ['http://hooks.example.com/x', 'https://127.0.0.1/x', 'https://10.1.2.3/x', 'https://169.254.169.254/latest', 'https://[::1]/x', 'https://[::ffff:127.0.0.1]/x', 'https://localhost/x']) {
      const res = await callAs(server, admin, 'POST', WebhookPaths.webhooks, { body: { url, description: '', eventKeys: ['user.created'], isActive: true } });
      expect(res.status, url).toBe(400);
      expect(res.body.errors[0], url).toMatch(/^url: must (be an https URL|point to a public address)/);
    }
    // An endpoint saved in dev mode to loopback is not called outside it: the test fails with the reason, nothing is sent.
    const test = await callAs(server, admin, 'POST', pathOf(WebhookPaths.webhookTest, { id: saved._id }), { body: { eventKey: 'user.invited' } });
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ status: 'failed', statusCode: null });
    expect(test.body.message).toBe(WEBHOOK_UNREACHABLE_MESSAGE);
    await raise(server, admin.tenantId, Date.now());
    await server.connectivity.worker.runDue();
    expect(r.received).toHaveLength(0);
    expect((await callAs(server, admin, 'GET', WebhookPaths.webhooks)).body).toHaveLength(1);
  });

  it("another tenant's admin finds none of the endpoints, logs or attempts (404), and changes nothing", async () => {
    const server = await start();
    const admin = await newTenant(server);
    const other = await newTenant(server, 'other');
    const r = await receiver();
    const created = await createEndpoint(server, admin, r.url);
    const test = await callAs(server, admin, 'POST', pathOf(WebhookPaths.webhookTest, { id: created._id }), { body: { eventKey: 'user.invited' } });
    expect(test.body.status).toBe('success');
    const id = created._id;
    expect((await callAs(server, other, 'GET', WebhookPaths.webhooks)).body).toEqual([]);
    expect((await callAs(server, other, 'POST', WebhookPaths.webhooks, { body: { _id: id, url: r.url, description: 'mine', eventKeys: ['user.created'], isActive: false } })).status).toBe(404);
    expect((await callAs(server, other, 'DELETE', pathOf(WebhookPaths.webhook, { id }))).status).toBe(404);
    expect((await callAs(server, other, 'POST', pathOf(WebhookPaths.webhookRotateSecret, { id }))).status).toBe(404);
    expect((await callAs(server, other, 'POST', pathOf(WebhookPaths.webhookTest, { id }), { body: { eventKey: 'user.invited' } })).status).toBe(404);
    expect((await callAs(server, other, 'GET', pathOf(WebhookPaths.webhookLogs, { id }))).status).toBe(404);
    expect((await callAs(server, other, 'POST', pathOf(WebhookPaths.webhookLogRetry, { logId: test.body.logId }))).status).toBe(404);
    // Naming the tenant does not help: the other admin is no member of it.
    expect((await callAs(server, other, 'GET', WebhookPaths.webhooks, { tenantId: admin.tenantId })).status).toBe(404);
    expect(r.received).toHaveLength(1);
    expect((await callAs(server, admin, 'GET', WebhookPaths.webhooks)).body[0]).toMatchObject({ _id: id, description: 'CRM sync', isActive: true });
  });

  it('inviting a user raises user.invited, delivered once signed so that standardwebhooks and svix both verify it', async () => {
    const server = await start();
    const admin = await newTenant(server);
    const r = await receiver();
    const endpoint = await createEndpoint(server, admin, r.url, ['user.invited']);
    const other = await createEndpoint(server, admin, (await receiver()).url, ['user.deleted']);
    const { userId, email } = await inviteMember(server, admin);
    await server.connectivity.worker.runDue();
    const [got] = await r.waitFor(1);
    expect(r.received).toHaveLength(1);
    expect(receivers[1]!.received).toHaveLength(0);
    const headers = got!.headers;
    expect(headers['content-type']).toBe('application/json');
    for (const verify of [(s: string) => new StandardWebhook(s).verify(got!.body, headers), (s: string) => new SvixWebhook(s).verify(got!.body, headers)]) {
      expect(verify(endpoint.secret)).toMatchObject({ type: 'user.invited' });
      expect(() => verify(other.secret)).toThrow();
      expect(() => new StandardWebhook(endpoint.secret).verify(got!.body.replace(userId, 'someone-else'), headers)).toThrow();
    }
    const payload = JSON.parse(got!.body);
    expect(payload).toMatchObject({ type: 'user.invited', timestamp: expect.any(String), data: { userId, tenantId: admin.tenantId, actor: { userId: admin.userId, email: admin.email } } });
    expect(JSON.stringify(payload)).toContain(email);
    // webhook-id is the event's id, the same one the log shows.
    const logs = await logsOf(server, admin, endpoint._id);
    expect(logs.rows).toHaveLength(1);
    expect(logs.rows[0]).toMatchObject({ eventKey: 'user.invited', eventId: headers['webhook-id'], status: 'success', attempt: 1, statusCode: 200, error: null, requestBody: got!.body, responseBody: 'ok' });
    expect(logs.rows[0].requestHeaders['webhook-signature']).toBe(headers['webhook-signature']);
    expect(logs.rows[0].durationMs).toBeGreaterThanOrEqual(0);
    expect(logs.rows[0].responseHeaders['content-type']).toBe('text/plain');
    // Nothing more is due: the delivery happened once.
    await server.connectivity.worker.runDue();
    expect(r.received).toHaveLength(1);
  });

  it("retries a receiver that fails, then times out, then succeeds, on Svix's schedule (0 s, 5 s, 5 min), and a success clears the failure", async () => {
    const clock = movableClock();
    const server = await start(clock);
    const admin = await newTenant(server);
    const r = await receiver();
    const endpoint = await createEndpoint(server, admin, r.url, ['user.created']);
    r.script({ status: 500, body: 'boom' }, 'hang', { status: 200, body: 'fine' });
    const t0 = clock.now();
    const event = await raise(server, admin.tenantId, t0);
    const worker = server.connectivity.worker;

    await worker.runDue();
    expect(r.received).toHaveLength(1);
    let [job] = await jobsOf(server, endpoint._id);
    expect(job).toMatchObject({ status: 'pending', attempt: 1, event_id: event.id });
    expect(Number(job!.next_attempt_at)).toBe(t0 + 5 * SECOND);
    const failing = await server.db.selectFrom('webhook_endpoints').select('failing_since').where('id', '=', endpoint._id).executeTakeFirstOrThrow();
    expect(Number(failing.failing_since)).toBe(t0);

    // Not due yet. (The worker's own count would include jobs other tests of this file left in the database.)
    clock.advance(4 * SECOND);
    await worker.runDue();
    expect(r.received).toHaveLength(1);
    expect((await jobsOf(server, endpoint._id))[0]).toMatchObject({ status: 'pending', attempt: 1 });

    // The second attempt hangs: the 15 s deadline ends it. guardedFetch's deadline is a setTimeout,
    // so a fake clock passes the 15 s at once (the receiver, database and Date stay real).
    clock.advance(1 * SECOND);
    const t2 = clock.now();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let finished = false;
      const run = worker.runDue().finally(() => (finished = true));
      await r.waitFor(2);
      await vi.advanceTimersByTimeAsync(WEBHOOK_TIMEOUT_MS - 100);
      expect(finished, 'the hanging attempt is still waiting 100 ms before its deadline').toBe(false);
      await vi.advanceTimersByTimeAsync(100);
      await run;
    } finally {
      vi.useRealTimers();
    }
    expect(WEBHOOK_TIMEOUT_MS).toBe(15_000);
    expect(r.received).toHaveLength(2);
    [job] = await jobsOf(server, endpoint._id);
    expect(job).toMatchObject({ status: 'pending', attempt: 2 });
    expect(Number(job!.next_attempt_at)).toBe(t2 + 5 * MINUTE);

    clock.advance(5 * MINUTE - SECOND);
    await worker.runDue();
    expect(r.received).toHaveLength(2);
    clock.advance(SECOND);
    await worker.runDue();
    expect(r.received).toHaveLength(3);
    [job] = await jobsOf(server, endpoint._id);
    expect(job).toMatchObject({ status: 'succeeded', attempt: 3 });
    // One message: the same webhook-id and body on every attempt.
    expect(new Set(r.received.map((x) => x.headers['webhook-id']))).toEqual(new Set([event.id]));
    expect(new Set(r.received.map((x) => x.body)).size).toBe(1);

    const logs = await logsOf(server, admin, endpoint._id);
    expect(logs.total).toBe(3);
    expect(logs.rows.map((x) => [x.attempt, x.status, x.statusCode])).toEqual([
      [3, 'success', 200],
      [2, 'failed', null],
      [1, 'failed', 500],
    ]);
    expect(logs.rows[1].error).toBe(WEBHOOK_TIMEOUT_MESSAGE);
    expect(logs.rows[2].error).toMatch(/500/);
    expect(logs.rows[2].responseBody).toBe('boom');
    const after = await server.db.selectFrom('webhook_endpoints').select('failing_since').where('id', '=', endpoint._id).executeTakeFirstOrThrow();
    expect(after.failing_since).toBeNull();
  });

  it('follows the whole schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: 8 attempts) and then gives up', async () => {
    const clock = movableClock();
    const server = await start(clock);
    const admin = await newTenant(server);
    const r = await receiver();
    const endpoint = await createEndpoint(server, admin, r.url, ['user.created']);
    r.script({ status: 503 });
    await raise(server, admin.tenantId, clock.now());
    const delays = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];
    await server.connectivity.worker.runDue();
    for (const [i, delay] of delays.entries()) {
      clock.advance(delay - 1);
      await server.connectivity.worker.runDue();
      expect(r.received, `not before the delay ${delay} ms`).toHaveLength(i + 1);
      clock.advance(1);
      await server.connectivity.worker.runDue();
      expect(r.received).toHaveLength(i + 2);
    }
    const [job] = await jobsOf(server, endpoint._id);
    expect(job).toMatchObject({ status: 'failed', attempt: 8 });
    clock.advance(DAY);
    await server.connectivity.worker.runDue();
    expect(r.received).toHaveLength(8);
  });

  it('a receiver answering webhook-delivery: abort-message stops the retries of that message', async () => {
    const clock = movableClock();
    const server = await start(clock);
    const admin = await newTenant(server);
    const r = await receiver();
    const endpoint = await createEndpoint(server, admin, r.url, ['user.created']);
    r.script({ status: 410, headers: { 'webhook-delivery': 'abort-message' } });
    await raise(server, admin.tenantId, clock.now());
    await server.connectivity.worker.runDue();
    clock.advance(DAY);
    await server.connectivity.worker.runDue();
    expect(r.received).toHaveLength(1);
    const [job] = await jobsOf(server, endpoint._id);
    expect(job).toMatchObject({ status: 'failed', attempt: 1 });
    const logs = await logsOf(server, admin, endpoint._id);
    expect(logs.rows[0]).toMatchObject({ status: 'failed', statusCode: 410 });
    expect(logs.rows[0].error).toMatch(/abort-message/);
    // The next message is delivered as usual.
    r.script({ status: 200 });
    await raise(server, admin.tenantId, clock.now());
    await server.connectivity.worker.runDue();
    expect(r.received).toHaveLength(2);
  });

  it("an endpoint failing for 5 days is disabled: its admins are notified, webhook.endpoint_disabled is raised, its deliveries stop; enabling it again starts afresh", async () => {
    const clock = movableClock();
    const server = await start(clock);
    const admin = await newTenant(server);
    const r = await receiver();
    const watcher = await receiver();
    const endpoint = await createEndpoint(server, admin, r.url, ['user.created']);
    // A second endpoint of the tenant listens for the disabling.
    await createEndpoint(server, admin, watcher.url, ['webhook.endpoint_disabled']);
    r.script({ status: 500 });
    const t0 = clock.now();
    await raise(server, admin.tenantId, t0);
    await server.connectivity.worker.runDue();
    // Failing for just under 5 days: still active.
    clock.advance(5 * DAY - MINUTE);
    await raise(server, admin.tenantId, clock.now());
    await server.connectivity.worker.runDue();
    const endpointOf = async () => ((await callAs(server, admin, 'GET', WebhookPaths.webhooks)).body as { _id: string; disabledReason: string }[]).find((e) => e._id === endpoint._id);
    expect(await endpointOf()).toMatchObject({ isActive: true, disabledAt: null });
    clock.advance(MINUTE);
    await raise(server, admin.tenantId, clock.now());
    await server.connectivity.worker.runDue();
    const disabledAt = clock.now();
    const listed = (await endpointOf())!;
    expect(listed).toMatchObject({ _id: endpoint._id, isActive: false, disabledAt });
    expect(listed.disabledReason).toContain(new Date(t0).toISOString());
    // Pending retries of earlier messages are cancelled; new events no longer go there.
    const jobs = await jobsOf(server, endpoint._id);
    expect(jobs.filter((j) => j.status === 'pending')).toEqual([]);
    const seen = r.received.length;
    await raise(server, admin.tenantId, clock.now());
    clock.advance(DAY);
    await server.connectivity.worker.runDue();
    expect(r.received).toHaveLength(seen);

    const notifications = await callAs(server, admin, 'GET', NotificationPaths.list);
    expect(notifications.status).toBe(200);
    const note = notifications.body.rows.find((n: { category: string }) => n.category === 'webhooks');
    expect(note).toMatchObject({ severity: 'critical', title: 'Webhook endpoint disabled', status: 'unread' });
    expect(note.body).toContain(r.url);

    const disabledEvents = watcher.received.map((x) => JSON.parse(x.body)).filter((p) => p.type === 'webhook.endpoint_disabled');
    expect(disabledEvents).toHaveLength(1);
    expect(disabledEvents[0].data).toMatchObject({ endpointId: endpoint._id, url: r.url, tenantId: admin.tenantId, actor: null });

    r.script({ status: 200 });
    const enabled = await callAs(server, admin, 'POST', WebhookPaths.webhooks, { body: { _id: endpoint._id, url: r.url, description: 'CRM sync', eventKeys: ['user.created'], isActive: true } });
    expect(enabled.body).toMatchObject({ isActive: true, disabledAt: null, disabledReason: null });
    const row = await server.db.selectFrom('webhook_endpoints').select('failing_since').where('id', '=', endpoint._id).executeTakeFirstOrThrow();
    expect(row.failing_since).toBeNull();
    await raise(server, admin.tenantId, clock.now());
    await server.connectivity.worker.runDue();
    expect(r.received).toHaveLength(seen + 1);
  });

  it('test sends a signed example now: success only on 200 or 201, otherwise failed with a message; each test is in the log', async () => {
    const server = await start();
    const admin = await newTenant(server);
    const r = await receiver();
    const endpoint = await createEndpoint(server, admin, r.url);
    const test = () => callAs(server, admin, 'POST', pathOf(WebhookPaths.webhookTest, { id: endpoint._id }), { body: { eventKey: 'user.invited' } });
    const outcomes: [number, string][] = [];
    for (const status of [200, 201, 202, 204, 500]) {
      r.script({ status });
      const res = await test();
      expect(res.status).toBe(200);
      outcomes.push([res.body.statusCode, res.body.status]);
      if (res.body.status === 'failed') expect(res.body.message).toMatch(String(status));
    }
    expect(outcomes).toEqual([
      [200, 'success'],
      [201, 'success'],
      [202, 'failed'],
      [204, 'failed'],
      [500, 'failed'],
    ]);
    // A body with a NUL (which a PostgreSQL text column refuses) is logged with it replaced.
    r.script({ status: 200, body: 'a\u0000b' });
    const nul = await test();
    expect(nul.body.status).toBe('success');
    expect((await logsOf(server, admin, endpoint._id)).rows.find((x) => x.id === nul.body.logId).responseBody).toBe('a\uFFFDb');
    const got = r.received[0]!;
    expect(new StandardWebhook(endpoint.secret).verify(got.body, got.headers)).toMatchObject({ type: 'user.invited', data: { tenantId: admin.tenantId, actor: { userId: admin.userId } } });
    // A receiver that is down: failed with a message, no status code.
    await r.stop();
    receivers.splice(receivers.indexOf(r), 1);
    const down = await test();
    expect(down.body).toMatchObject({ status: 'failed', statusCode: null });
    expect(down.body.message).toBe(WEBHOOK_UNREACHABLE_MESSAGE);
    const logs = await logsOf(server, admin, endpoint._id);
    expect(logs.total).toBe(7);
    expect(logs.rows.find((x) => x.id === down.body.logId)).toMatchObject({ status: 'failed', statusCode: null, eventKey: 'user.invited' });
  });

  it('the log pages 10 attempts from offset 0 by default; retry delivers a logged message again through the queue (202 queued)', async () => {
    const server = await start();
    const admin = await newTenant(server);
    const r = await receiver();
    const endpoint = await createEndpoint(server, admin, r.url, ['user.created']);
    r.script({ status: 200 });
    for (let i = 0; i < 11; i++) await raise(server, admin.tenantId, Date.now(), { userId: `u-${i}`, email: `u${i}@example.com` });
    await server.connectivity.worker.runDue();
    expect(r.received).toHaveLength(11);
    const page = await logsOf(server, admin, endpoint._id);
    expect(page.total).toBe(11);
    expect(page.rows).toHaveLength(10);
    const rest = await logsOf(server, admin, endpoint._id, '?offset=10&limit=10');
    expect(rest.rows).toHaveLength(1);
    expect(new Set([...page.rows, ...rest.rows].map((x) => x.id)).size).toBe(11);
    expect((await logsOf(server, admin, endpoint._id, '?limit=3')).rows).toHaveLength(3);

    const target = rest.rows[0];
    const retried = await callAs(server, admin, 'POST', pathOf(WebhookPaths.webhookLogRetry, { logId: target.id }));
    expect(retried.status).toBe(202);
    expect(retried.body).toEqual({ status: 'queued' });
    await server.connectivity.worker.runDue();
    expect(r.received).toHaveLength(12);
    expect(r.received[11]!.headers['webhook-id']).toBe(target.eventId);
    expect(r.received[11]!.body).toBe(target.requestBody);
    expect((await logsOf(server, admin, endpoint._id)).total).toBe(12);

    // A test attempt has no job: its retry queues a new delivery of the same message.
    const test = await callAs(server, admin, 'POST', pathOf(WebhookPaths.webhookTest, { id: endpoint._id }), { body: { eventKey: 'user.invited' } });
    expect((await callAs(server, admin, 'POST', pathOf(WebhookPaths.webhookLogRetry, { logId: test.body.logId }))).status).toBe(202);
    await server.connectivity.worker.runDue();
    expect(r.received).toHaveLength(14);
    expect(r.received[13]!.body).toBe(r.received[12]!.body);
    expect((await callAs(server, admin, 'POST', pathOf(WebhookPaths.webhookLogRetry, { logId: 'no-such-log' }))).status).toBe(404);
    // Tests and retries are admin actions: audited.
    const actions = (await auditsOf(server, admin.tenantId)).map((x) => x.action);
    expect(actions.filter((x) => x === 'Webhook delivery retried')).toHaveLength(2);
    expect(actions.filter((x) => x === 'Webhook test sent')).toHaveLength(1);
  });

  it('after a rotation both secrets sign for 24 hours, then only the new one', async () => {
    const clock = movableClock();
    const server = await start(clock);
    const admin = await newTenant(server);
    const r = await receiver();
    const endpoint = await createEndpoint(server, admin, r.url, ['user.created']);
    const rotated = (await callAs(server, admin, 'POST', pathOf(WebhookPaths.webhookRotateSecret, { id: endpoint._id }))).body.secret as string;
    await raise(server, admin.tenantId, clock.now());
    await server.connectivity.worker.runDue();
    const during = r.received[0]!;
    expect(during.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const secret of [endpoint.secret, rotated]) {
      expect(new StandardWebhook(secret).verify(during.body, during.headers)).toMatchObject({ type: 'user.created' });
      expect(new SvixWebhook(secret).verify(during.body, during.headers)).toMatchObject({ type: 'user.created' });
    }
    clock.advance(DAY + SECOND);
    await raise(server, admin.tenantId, clock.now());
    await server.connectivity.worker.runDue();
    const afterwards = r.received[1]!;
    expect(afterwards.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    const logs = await logsOf(server, admin, endpoint._id);
    expect(logs.rows[0].requestHeaders['webhook-signature']).toBe(afterwards.headers['webhook-signature']);
  });

  it('deleting an endpoint, or making it inactive, cancels its pending deliveries', async () => {
    const clock = movableClock();
    const server = await start(clock);
    const admin = await newTenant(server);
    const r = await receiver();
    const a = await createEndpoint(server, admin, r.url, ['user.created']);
    const b = await createEndpoint(server, admin, `${r.url}/b`, ['user.created']);
    r.script({ status: 500 });
    await raise(server, admin.tenantId, clock.now());
    await server.connectivity.worker.runDue();
    expect(r.received).toHaveLength(2);
    expect((await callAs(server, admin, 'DELETE', pathOf(WebhookPaths.webhook, { id: a._id }))).status).toBe(204);
    expect((await callAs(server, admin, 'POST', WebhookPaths.webhooks, { body: { _id: b._id, url: `${r.url}/b`, description: '', eventKeys: ['user.created'], isActive: false } })).status).toBe(200);
    clock.advance(HOUR);
    await server.connectivity.worker.runDue();
    expect(r.received).toHaveLength(2);
    expect((await jobsOf(server, b._id)).map((j) => j.status)).toEqual(['cancelled']);
    const retry = await callAs(server, admin, 'POST', pathOf(WebhookPaths.webhookLogRetry, { logId: (await logsOf(server, admin, b._id)).rows[0].id }));
    expect(retry.status).toBe(400);
    expect(retry.body.errors[0]).toMatch(/inactive/);
  });
});
