import { WebhookPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { callAs, tenantWithAdmin } from '../../test/admin-helpers';
import { describeDialects } from '../../test/harness';
import { insertWebhookAttempt, listWebhookAttempts } from './webhooks';

describeDialects('webhook attempts (the log)', (harness) => {
  it("keeps an endpoint's newest attempts only, ties broken by id, other endpoints untouched", async () => {
    const server = await harness.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60' });
    const admin = await tenantWithAdmin(server);
    const endpoint = async () => {
      const res = await callAs(server, admin, 'POST', WebhookPaths.webhooks, { body: { url: 'http://127.0.0.1:9/hook', description: '', eventKeys: ['user.created'], isActive: true } });
      expect(res.status).toBe(201);
      return res.body._id as string;
    };
    const [a, b] = [await endpoint(), await endpoint()];
    const attempt = (endpointId: string, id: string, createdAt: number) => ({
      id,
      endpoint_id: endpointId,
      tenant_id: admin.tenantId,
      job_id: null,
      event_id: `evt-${id}`,
      event_key: 'user.created',
      attempt: 1,
      status: 'failed',
      status_code: 500,
      duration_ms: 3,
      error: 'Receiver answered 500',
      request_headers: '{}',
      request_body: '{}',
      response_headers: '{}',
      response_body: '',
      created_at: createdAt,
    });
    await insertWebhookAttempt(server.db, attempt(b, 'b1', 1), 3);
    // Two attempts in one millisecond: the one with the higher id counts as newer.
    for (const [id, at] of [['a1', 1], ['a2', 2], ['a3a', 3], ['a3b', 3], ['a4', 4]] as const) await insertWebhookAttempt(server.db, attempt(a, id, at), 3);
    const kept = await listWebhookAttempts(server.db, a, 0, 10);
    expect(kept.total).toBe(3);
    expect(kept.rows.map((r) => r.id)).toEqual(['a4', 'a3b', 'a3a']);
    await insertWebhookAttempt(server.db, attempt(a, 'a5', 5), 3);
    expect((await listWebhookAttempts(server.db, a, 0, 10)).rows.map((r) => r.id)).toEqual(['a5', 'a4', 'a3b']);
    expect((await listWebhookAttempts(server.db, b, 0, 10)).rows.map((r) => r.id)).toEqual(['b1']);
  });
});
