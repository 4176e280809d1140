import { ChannelPaths, DevPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { callAs, signIn, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { call, describeDialects, movableClock, type MailboxEntry } from '../../test/harness';
import { raiseEvent } from './events';

const FAILED = 'user.sign_in_failed';

async function outbox(server: GatehouseServer): Promise<MailboxEntry[]> {
  return (await call<MailboxEntry[]>(server, 'GET', DevPaths.mailboxJson)).body;
}

function subscribe(server: GatehouseServer, admin: TenantAdmin, channel: 'email' | 'sms', eventKey: string, recipients: string[], enabled = true) {
  return callAs(server, admin, 'POST', channel === 'email' ? ChannelPaths.email : ChannelPaths.sms, { body: { eventKey, enabled, subscriptions: [{ enabled: true, recipients }] } });
}

describeDialects('email and SMS delivery of events', (harness) => {
  const start = (clock = movableClock(), env: Record<string, string> = {}) => harness.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60', ACCESS_TOKEN_TTL: '86400', ...env }, { clock });
  const raise = (server: GatehouseServer, tenantId: string, now: number) =>
    raiseEvent(server.db, { tenantId, key: FAILED, data: { userId: null, email: 'victim@example.com', reason: 'wrong_password' }, actor: { userId: null, email: 'admin@example.com' } }, now);

  it("mails a failed sign-in of a member to the tenant's subscribed recipient, in the tenant's look, once", async () => {
    const clock = movableClock();
    const server = await start(clock);
    const admin = await tenantWithAdmin(server);
    expect((await subscribe(server, admin, 'email', FAILED, ['security@example.com'])).status).toBe(200);

    const refused = await signIn(server, admin.email, 'not the password at all');
    expect(refused.status).toBe(401);
    await server.connectivity.worker.runDue();

    const mails = (await outbox(server)).filter((m) => m.to === 'security@example.com');
    expect(mails).toHaveLength(1);
    const tenant = await server.db.selectFrom('tenants').select('name').where('id', '=', admin.tenantId).executeTakeFirstOrThrow();
    expect(mails[0]!.subject).toContain(tenant.name);
    expect(mails[0]!.text).toContain('(user.sign_in_failed)');
    expect(mails[0]!.text).toContain(`email: ${admin.email}`);
    expect(mails[0]!.html).toContain('Open the admin portal');

    // Once: another pass sends nothing more.
    await server.connectivity.worker.runDue();
    expect((await outbox(server)).filter((m) => m.to === 'security@example.com')).toHaveLength(1);
  });

  it('sends nothing for a switched-off event key, a disabled subscription, or a recipient removed after the event', async () => {
    const clock = movableClock();
    const server = await start(clock);
    const admin = await tenantWithAdmin(server);
    const saved = await subscribe(server, admin, 'email', FAILED, ['keep@example.com', 'gone@example.com']);
    const id = saved.body.subscriptions[0].id as string;

    await raise(server, admin.tenantId, clock.now());
    // After the event, before the worker runs: one recipient removed.
    await callAs(server, admin, 'PUT', ChannelPaths.emailSubscription.replace('{eventKey}', FAILED).replace('{id}', id), { body: { enabled: true, recipients: ['keep@example.com'] } });
    await server.connectivity.worker.runDue();
    const first = await outbox(server);
    expect(first.filter((m) => m.to === 'keep@example.com')).toHaveLength(1);
    expect(first.filter((m) => m.to === 'gone@example.com')).toHaveLength(0);

    await callAs(server, admin, 'PATCH', ChannelPaths.emailEvent.replace('{eventKey}', FAILED), { body: { enabled: false } });
    await raise(server, admin.tenantId, clock.now());
    await server.connectivity.worker.runDue();
    expect((await outbox(server)).filter((m) => m.to === 'keep@example.com')).toHaveLength(1);

    await callAs(server, admin, 'PATCH', ChannelPaths.emailEvent.replace('{eventKey}', FAILED), { body: { enabled: true } });
    await callAs(server, admin, 'PUT', ChannelPaths.emailSubscription.replace('{eventKey}', FAILED).replace('{id}', id), { body: { enabled: false, recipients: ['keep@example.com'] } });
    await raise(server, admin.tenantId, clock.now());
    await server.connectivity.worker.runDue();
    expect((await outbox(server)).filter((m) => m.to === 'keep@example.com')).toHaveLength(1);
    // Other tenants' events never reach this tenant's recipients.
    const other = await tenantWithAdmin(server, 'other');
    await raise(server, other.tenantId, clock.now());
    await callAs(server, admin, 'PUT', ChannelPaths.emailSubscription.replace('{eventKey}', FAILED).replace('{id}', id), { body: { enabled: true, recipients: ['keep@example.com'] } });
    await server.connectivity.worker.runDue();
    expect((await outbox(server)).filter((m) => m.to === 'keep@example.com')).toHaveLength(1);
  });

  it("holds an account's notification emails past its budget and sends them in the next window, and another account's emails are not held", async () => {
    const clock = movableClock();
    const server = await start(clock, { RATE_LIMIT_CHANNEL_EMAILS_PER_TENANT: '2/3600' });
    const admin = await tenantWithAdmin(server);
    const other = await tenantWithAdmin(server, 'other');
    const recipients = ['one@example.com', 'two@example.com', 'three@example.com'];
    expect((await subscribe(server, admin, 'email', FAILED, recipients)).status).toBe(200);
    expect((await subscribe(server, other, 'email', FAILED, ['theirs@example.com'])).status).toBe(200);
    await raise(server, admin.tenantId, clock.now());
    await raise(server, other.tenantId, clock.now());
    await server.connectivity.worker.runDue();

    const sent = async () => (await outbox(server)).filter((m) => [...recipients, 'theirs@example.com'].includes(m.to)).map((m) => m.to);
    const first = await sent();
    expect(first).toContain('theirs@example.com');
    expect(first.filter((to) => recipients.includes(to))).toHaveLength(2);
    const held = await server.db.selectFrom('jobs').select('last_error').where('tenant_id', '=', admin.tenantId).where('kind', '=', 'email').where('status', '=', 'pending').execute();
    expect(held).toHaveLength(1);
    expect(held[0]!.last_error).toMatch(/RATE_LIMIT_CHANNEL_EMAILS_PER_TENANT/);

    for (const step of [60_000, 10 * 60_000, 60 * 60_000]) {
      clock.advance(step);
      await server.connectivity.worker.runDue();
    }
    expect((await sent()).filter((to) => recipients.includes(to)).sort()).toEqual([...recipients].sort());
  });

  it('texts subscribed numbers through the SMS sender (dev outbox), and an SMS refused by a spent budget is sent later, not lost', async () => {
    const clock = movableClock();
    const server = await start(clock, { RATE_LIMIT_SMS_GLOBAL: '1/3600' });
    const admin = await tenantWithAdmin(server);
    expect((await subscribe(server, admin, 'sms', FAILED, ['+1 415 555 0100', '+44 20 7946 0018'])).status).toBe(200);
    await raise(server, admin.tenantId, clock.now());
    await server.connectivity.worker.runDue();

    const texts = () => outbox(server).then((all) => all.filter((m) => m.channel === 'sms'));
    const first = await texts();
    // The budget of one SMS an hour: one went, the other waits for a retry.
    expect(first).toHaveLength(1);
    expect(first[0]!.text).toMatch(/user\.sign_in_failed victim@example\.com at \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
    const waiting = await server.db.selectFrom('jobs').select(['status', 'last_error']).where('tenant_id', '=', admin.tenantId).where('kind', '=', 'sms').where('status', '=', 'pending').execute();
    expect(waiting).toHaveLength(1);
    expect(waiting[0]!.last_error).toMatch(/^ER-01311: /);

    // The retries at 1 min and 10 min still find the budget spent; the one after the hour sends it.
    for (const step of [60_000, 10 * 60_000, 60 * 60_000]) {
      clock.advance(step);
      await server.connectivity.worker.runDue();
    }
    const all = await texts();
    expect(all.map((m) => m.to).sort()).toEqual(['+14155550100', '+442079460018']);
    expect(await server.db.selectFrom('jobs').select('status').where('tenant_id', '=', admin.tenantId).where('kind', '=', 'sms').execute()).toEqual([{ status: 'succeeded' }, { status: 'succeeded' }]);
  });
});
