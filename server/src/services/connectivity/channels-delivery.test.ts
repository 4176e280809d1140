import { ChannelPaths, DevPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { callAs, signIn, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { call, describeDialects, movableClock, type MailboxEntry } from '../../test/harness';
import { createSmsSender } from '../messaging/sms';
import { createRateLimiter } from '../platform/rate-limit';
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

  /** The texts to these numbers (the outbox, like the database, is the file's: tests use numbers of their own). */
  const texts = (server: GatehouseServer, numbers: string[]) => outbox(server).then((all) => all.filter((m) => m.channel === 'sms' && numbers.includes(m.to)));
  /** A clock `hours` ahead, so the 1 h budget windows counted in the file's database start empty for this test. */
  const clockAhead = (hours: number) => movableClock(Date.now() + hours * 60 * 60_000);
  const smsJobs = (server: GatehouseServer, tenantId: string) =>
    server.db.selectFrom('jobs').select(['status', 'last_error']).where('tenant_id', '=', tenantId).where('kind', '=', 'sms').orderBy('status').execute();

  it('texts subscribed numbers through the SMS sender (dev outbox); an SMS refused because the deployment budget is spent is dropped, not retried into the next window (security review: SMS budget drain)', async () => {
    const clock = clockAhead(12);
    const NUMBERS = ['+14155510100', '+442079460018'];
    const server = await start(clock, { RATE_LIMIT_SMS_GLOBAL: '1/3600' });
    const admin = await tenantWithAdmin(server);
    expect((await subscribe(server, admin, 'sms', FAILED, ['+1 415 551 0100', '+44 20 7946 0018'])).status).toBe(200);
    await raise(server, admin.tenantId, clock.now());
    await server.connectivity.worker.runDue();

    const first = await texts(server, NUMBERS);
    expect(first).toHaveLength(1);
    expect(first[0]!.text).toMatch(/user\.sign_in_failed victim@example\.com at \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
    const jobs = await smsJobs(server, admin.tenantId);
    expect(jobs.map((j) => j.status)).toEqual(['failed', 'succeeded']);
    expect(jobs[0]!.last_error).toMatch(/^ER-01311: .*RATE_LIMIT_SMS_GLOBAL/);

    // The next window does not send it: it was given up, so it cannot spend that window's budget.
    for (const step of [60_000, 10 * 60_000, 60 * 60_000, 2 * 60 * 60_000]) {
      clock.advance(step);
      await server.connectivity.worker.runDue();
    }
    expect(await texts(server, NUMBERS)).toHaveLength(1);
  });

  it("caps an account's notification SMS (RATE_LIMIT_CHANNEL_SMS_PER_TENANT): over it they are dropped, not retried, and another account's are still sent (security review: SMS budget drain)", async () => {
    const clock = clockAhead(24);
    const NUMBERS = ['+14155520100', '+14155520101', '+14155520102', '+14155520199'];
    const server = await start(clock, { RATE_LIMIT_CHANNEL_SMS_PER_TENANT: '2/3600' });
    const admin = await tenantWithAdmin(server);
    const other = await tenantWithAdmin(server, 'other');
    expect((await subscribe(server, admin, 'sms', FAILED, ['+14155520100', '+14155520101', '+14155520102'])).status).toBe(200);
    expect((await subscribe(server, other, 'sms', FAILED, ['+14155520199'])).status).toBe(200);
    await raise(server, admin.tenantId, clock.now());
    await raise(server, other.tenantId, clock.now());
    await server.connectivity.worker.runDue();

    const sent = (await texts(server, NUMBERS)).map((m) => m.to);
    expect(sent).toContain('+14155520199');
    expect(sent.filter((to) => to !== '+14155520199')).toHaveLength(2);
    const jobs = await smsJobs(server, admin.tenantId);
    expect(jobs.map((j) => j.status)).toEqual(['failed', 'succeeded', 'succeeded']);
    expect(jobs[0]!.last_error).toMatch(/RATE_LIMIT_CHANNEL_SMS_PER_TENANT/);
    clock.advance(2 * 60 * 60_000);
    await server.connectivity.worker.runDue();
    expect(await texts(server, NUMBERS)).toHaveLength(3);
  });

  it('keeps a reserve of the SMS budget for sign-in codes: notification SMS stop at their share (RATE_LIMIT_CHANNEL_SMS_GLOBAL) over every account, and a code SMS still goes out (security review: SMS budget drain)', async () => {
    const clock = clockAhead(36);
    const NUMBERS = ['+14155530100', '+14155530101', '+14155530102', '+14155530103', '+14155530142'];
    const server = await start(clock, { RATE_LIMIT_SMS_GLOBAL: '3/3600', RATE_LIMIT_CHANNEL_SMS_GLOBAL: '2/3600' });
    const a = await tenantWithAdmin(server);
    const b = await tenantWithAdmin(server, 'other');
    expect((await subscribe(server, a, 'sms', FAILED, ['+14155530100', '+14155530101'])).status).toBe(200);
    expect((await subscribe(server, b, 'sms', FAILED, ['+14155530102', '+14155530103'])).status).toBe(200);
    await raise(server, a.tenantId, clock.now());
    await raise(server, b.tenantId, clock.now());
    await server.connectivity.worker.runDue();
    expect(await texts(server, NUMBERS)).toHaveLength(2);
    const failed = [...(await smsJobs(server, a.tenantId)), ...(await smsJobs(server, b.tenantId))].filter((j) => j.status === 'failed');
    expect(failed).toHaveLength(2);
    for (const job of failed) expect(job.last_error).toMatch(/RATE_LIMIT_CHANNEL_SMS_GLOBAL/);

    // The deployment's SMS sender (as sign-in and recovery use it) still has the reserved unit.
    const limiter = createRateLimiter({ db: server.db, clock, config: server.config });
    const codes = createSmsSender({ db: server.db, clock, limiter, config: server.config });
    await codes.send({ to: '+14155530142', body: 'Your code is 123456' });
    expect((await texts(server, NUMBERS)).map((m) => m.to)).toContain('+14155530142');
  });

  it('sends one SMS and one email per recipient per event, however many subscriptions of the key list it (security review: SMS budget drain)', async () => {
    const clock = clockAhead(48);
    const NUMBERS = ['+14155540100', '+14155540101'];
    const server = await start(clock);
    const admin = await tenantWithAdmin(server);
    const twice = (recipients: string[]) => [{ enabled: true, recipients }, { enabled: true, recipients }, { enabled: true, recipients: [recipients[0]!] }];
    expect((await callAs(server, admin, 'POST', ChannelPaths.sms, { body: { eventKey: FAILED, enabled: true, subscriptions: twice(['+14155540100', '+14155540101']) } })).status).toBe(200);
    expect((await callAs(server, admin, 'POST', ChannelPaths.email, { body: { eventKey: FAILED, enabled: true, subscriptions: twice(['sec@example.com', 'ops@example.com']) } })).status).toBe(200);
    await raise(server, admin.tenantId, clock.now());
    await server.connectivity.worker.runDue();

    expect((await texts(server, NUMBERS)).map((m) => m.to).sort()).toEqual(['+14155540100', '+14155540101']);
    expect((await outbox(server)).filter((m) => ['sec@example.com', 'ops@example.com'].includes(m.to)).map((m) => m.to).sort()).toEqual(['ops@example.com', 'sec@example.com']);
    expect(await server.db.selectFrom('jobs').select('id').where('tenant_id', '=', admin.tenantId).where('kind', 'in', ['sms', 'email']).execute()).toHaveLength(4);
  });

  it('texts a number at most once per event key per 10 minutes (RATE_LIMIT_CHANNEL_SMS_PER_RECIPIENT): later events queue nothing for it; after the window it is texted again (security review: SMS budget drain)', async () => {
    const clock = clockAhead(60);
    const NUMBERS = ['+14155550100'];
    const server = await start(clock);
    const admin = await tenantWithAdmin(server);
    const other = await tenantWithAdmin(server, 'other');
    expect((await subscribe(server, admin, 'sms', FAILED, ['+14155550100'])).status).toBe(200);
    expect((await subscribe(server, admin, 'sms', 'user.locked', ['+14155550100'])).status).toBe(200);
    expect((await subscribe(server, other, 'sms', FAILED, ['+14155550100'])).status).toBe(200);
    for (let i = 0; i < 5; i++) await raise(server, admin.tenantId, clock.now());
    await raiseEvent(server.db, { tenantId: admin.tenantId, key: 'user.locked', data: { userId: 'u1', email: 'victim@example.com', reason: 'admin' }, actor: null }, clock.now());
    await raise(server, other.tenantId, clock.now());
    await server.connectivity.worker.runDue();

    // One for the failed sign-ins, one for the lock (another key), one for the other account.
    expect(await texts(server, NUMBERS)).toHaveLength(3);
    expect(await smsJobs(server, admin.tenantId)).toHaveLength(2);

    clock.advance(9 * 60_000);
    await raise(server, admin.tenantId, clock.now());
    await server.connectivity.worker.runDue();
    expect(await texts(server, NUMBERS)).toHaveLength(3);

    clock.advance(60_000);
    await raise(server, admin.tenantId, clock.now());
    await server.connectivity.worker.runDue();
    expect(await texts(server, NUMBERS)).toHaveLength(4);
  });
});
