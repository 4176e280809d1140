import { ErrorCodes, MAX_WEBHOOK_ENDPOINTS, WEBHOOK_TRUNCATED_MARK, WEBHOOK_UNREACHABLE_MESSAGE, WebhookPaths } from '@gatehouse/shared/wire';
import { afterEach, expect, it, vi } from 'vitest';
import type { GatehouseServer } from '../../app';
import { auditsOf, callAs, pathOf, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { describeDialects } from '../../test/harness';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver';

/** Security review of the webhooks part (issue 16): no probe through the answers, bounded storage, limited tests and retries. */

const KEK = 'cd'.repeat(32);
const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(receivers.splice(0).map((r) => r.stop()));
});
async function receiver(): Promise<WebhookReceiver> {
  const r = await startWebhookReceiver();
  receivers.push(r);
  return r;
}

async function newTenant(server: GatehouseServer, prefix = 'admin'): Promise<TenantAdmin> {
  const admin = await tenantWithAdmin(server, prefix);
  await server.connectivity.worker.runDue();
  return admin;
}

async function createEndpoint(server: GatehouseServer, admin: TenantAdmin, url: string): Promise<{ _id: string; secret: string }> {
  const res = await callAs(server, admin, 'POST', WebhookPaths.webhooks, { body: { url, description: '', eventKeys: ['user.invited'], isActive: true } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const sendTest = (server: GatehouseServer, admin: TenantAdmin, id: string) => callAs(server, admin, 'POST', pathOf(WebhookPaths.webhookTest, { id }), { body: { eventKey: 'user.invited' } });

async function logRow(server: GatehouseServer, admin: TenantAdmin, id: string, logId: string) {
  const res = await callAs(server, admin, 'GET', `${pathOf(WebhookPaths.webhookLogs, { id })}?limit=100`);
  expect(res.status).toBe(200);
  return (res.body.rows as { id: string; error: string | null; responseBody: string | null }[]).find((x) => x.id === logId)!;
}

describeDialects('webhooks: security review', (harness) => {
  const env = { RATE_LIMIT_SIGNUP_PER_IP: '1000/60', GATEHOUSE_KEY_ENCRYPTION_KEY: KEK };
  const start = (extra: Record<string, string> = {}) => harness.start({ ...env, ...extra });

  it('a target that cannot be reached or is not allowed gets one generic message in the test answer and the log, whatever the cause; the cause goes to the server log only', async () => {
    const devServer = await start();
    const admin = await newTenant(devServer);
    const down = await receiver();
    const downUrl = `${down.url}/closed`;
    await down.stop();
    receivers.splice(receivers.indexOf(down), 1);
    // Saved in dev mode (no checks there), tried outside it: each is refused or unreachable for another reason.
    const targets = {
      refusedConnection: downUrl, // ECONNREFUSED
      unresolvable: 'http://no-such-host.invalid/hook', // ENOTFOUND
      plainHttp: 'http://hooks.example.com/hook',
      privateAddress: 'https://10.20.30.40/hook',
      loopback: 'https://[::1]/hook',
      otherPort: 'https://hooks.example.com:6379/hook',
    };
    const ids = Object.fromEntries(await Promise.all(Object.entries(targets).map(async ([name, url]) => [name, (await createEndpoint(devServer, admin, url))._id] as const)));
    const server = await start({ GATEHOUSE_DEV: '0' });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});

    const answers: Record<string, unknown> = {};
    for (const [name, id] of Object.entries(ids)) {
      // The two that need a connection are tried by the dev server (outside dev mode they are refused before any).
      const via = name === 'refusedConnection' || name === 'unresolvable' ? devServer : server;
      const res = await sendTest(via, admin, id);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'failed', statusCode: null });
      answers[name] = res.body.message;
      expect((await logRow(server, admin, id, res.body.logId)).error, name).toBe(WEBHOOK_UNREACHABLE_MESSAGE);
    }
    expect(new Set(Object.values(answers))).toEqual(new Set([WEBHOOK_UNREACHABLE_MESSAGE]));

    // The operator still learns why, from the server's log, which names neither the URL's path nor a secret.
    const records = warn.mock.calls.map((parts) => parts.join(' ')).filter((line) => line.includes('webhook delivery'));
    expect(records).toHaveLength(Object.keys(targets).length);
    expect(records.find((line) => line.includes(ids.refusedConnection!))).toMatch(/ECONNREFUSED/);
    expect(records.find((line) => line.includes(ids.privateAddress!))).toMatch(/forbidden_address/);
    expect(records.find((line) => line.includes(ids.otherPort!))).toMatch(/port 443 or 8443/);
    expect(records.join('\n')).not.toMatch(/\/hook|\/closed|whsec_/);
  });

  it('outside dev mode refuses, when saving, an https URL on any port but 443 and 8443, with a 400 naming url', async () => {
    const devServer = await start();
    const admin = await newTenant(devServer);
    const server = await start({ GATEHOUSE_DEV: '0' });
    for (const port of ['22', '80', '8080', '6379', '9200']) {
      const res = await callAs(server, admin, 'POST', WebhookPaths.webhooks, { body: { url: `https://hooks.example.com:${port}/x`, description: '', eventKeys: ['user.invited'], isActive: true } });
      expect(res.status, port).toBe(400);
      expect(res.body.errorCode).toBe(ErrorCodes.validation);
      expect(res.body.errors, port).toEqual(['url: must use port 443 or 8443']);
    }
    expect((await callAs(server, admin, 'GET', WebhookPaths.webhooks)).body).toEqual([]);
  });

  it("keeps at most 4 KB of a receiver's answer body in the log (read up to 64 KB), marked truncated, never cutting a character", async () => {
    const server = await start();
    const admin = await newTenant(server);
    const r = await receiver();
    const { _id } = await createEndpoint(server, admin, r.url);
    r.script({ status: 200, body: 'x'.repeat(200 * 1024) });
    const big = await sendTest(server, admin, _id);
    expect(big.body.status).toBe('success');
    expect((await logRow(server, admin, _id, big.body.logId)).responseBody).toBe(`${'x'.repeat(4096)}${WEBHOOK_TRUNCATED_MARK}`);

    // 'é' is two bytes: 2,048 of them are exactly 4 KB; one more byte of a 4-byte character would not fit and is dropped whole.
    r.script({ status: 500, body: `${'é'.repeat(2047)}a😀${'b'.repeat(10)}` });
    const multi = await sendTest(server, admin, _id);
    expect((await logRow(server, admin, _id, multi.body.logId)).responseBody).toBe(`${'é'.repeat(2047)}a${WEBHOOK_TRUNCATED_MARK}`);

    r.script({ status: 200, body: 'y'.repeat(4096) });
    const exact = await sendTest(server, admin, _id);
    expect((await logRow(server, admin, _id, exact.body.logId)).responseBody).toBe('y'.repeat(4096));
    const stored = await server.db.selectFrom('webhook_attempts').select('response_body').where('id', '=', big.body.logId).executeTakeFirstOrThrow();
    expect(Buffer.byteLength(stored.response_body!, 'utf8')).toBeLessThanOrEqual(4096 + Buffer.byteLength(WEBHOOK_TRUNCATED_MARK));
  });

  it(`a tenant has at most ${MAX_WEBHOOK_ENDPOINTS} endpoints: one more is refused with a 400 naming the limit, deleting one makes room, another tenant is not held`, async () => {
    const server = await start();
    const admin = await newTenant(server);
    const other = await newTenant(server, 'other');
    const r = await receiver();
    const created: string[] = [];
    for (let i = 0; i < MAX_WEBHOOK_ENDPOINTS; i++) created.push((await createEndpoint(server, admin, `${r.url}/e${i}`))._id);
    const over = await callAs(server, admin, 'POST', WebhookPaths.webhooks, { body: { url: `${r.url}/over`, description: '', eventKeys: ['user.invited'], isActive: true } });
    expect(over.status).toBe(400);
    expect(over.body.errorCode).toBe(ErrorCodes.validation);
    expect(over.body.errors.join(' ')).toContain(`at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints`);
    expect((await callAs(server, admin, 'GET', WebhookPaths.webhooks)).body).toHaveLength(MAX_WEBHOOK_ENDPOINTS);
    // Updating one of them is no new endpoint.
    expect((await callAs(server, admin, 'POST', WebhookPaths.webhooks, { body: { _id: created[0], url: `${r.url}/moved`, description: '', eventKeys: ['user.invited'], isActive: true } })).status).toBe(200);
    await createEndpoint(server, other, r.url);
    expect((await callAs(server, admin, 'DELETE', pathOf(WebhookPaths.webhook, { id: created[1]! }))).status).toBe(204);
    await createEndpoint(server, admin, `${r.url}/again`);
  }, 60_000);

  it('tests and retries are rate limited per tenant (429 with Retry-After, nothing sent over the limit); another tenant is not held', async () => {
    const server = await start({ RATE_LIMIT_WEBHOOK_TESTS_PER_TENANT: '2/600', RATE_LIMIT_WEBHOOK_RETRIES_PER_TENANT: '2/600' });
    const admin = await newTenant(server);
    const other = await newTenant(server, 'other');
    const r = await receiver();
    const { _id } = await createEndpoint(server, admin, r.url);
    const first = await sendTest(server, admin, _id);
    expect(first.body.status).toBe('success');
    expect((await sendTest(server, admin, _id)).status).toBe(200);
    const limited = await sendTest(server, admin, _id);
    expect(limited.status).toBe(429);
    expect(limited.body.errorCode).toBe(ErrorCodes.rateLimited);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(r.received).toHaveLength(2);
    const theirs = await createEndpoint(server, other, r.url);
    expect((await sendTest(server, other, theirs._id)).status).toBe(200);

    const retry = () => callAs(server, admin, 'POST', pathOf(WebhookPaths.webhookLogRetry, { logId: first.body.logId }));
    expect((await retry()).status).toBe(202);
    expect((await retry()).status).toBe(202);
    const tooMany = await retry();
    expect(tooMany.status).toBe(429);
    expect(tooMany.body.errorCode).toBe(ErrorCodes.rateLimited);
    expect(Number(tooMany.headers.get('retry-after'))).toBeGreaterThan(0);
    await server.connectivity.worker.runDue();
    // The test deliveries (2 + the other tenant's) and the two retries queued within the limit.
    expect(r.received).toHaveLength(5);
    const retried = (await auditsOf(server, admin.tenantId)).filter((a) => a.action === 'Webhook delivery retried');
    expect(retried).toHaveLength(2);
  });
});
