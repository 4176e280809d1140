/**
 * Events are written in the same transaction as their change (issue 16): when the event cannot be
 * written (here the `events` table is made unavailable in the test's own database), the change is
 * not kept either. Regression tests for the call sites that wrote the change, then the audit row
 * and its event with the plain database handle (the change stayed, without its event).
 */
import { AdminPaths, ApiPaths, SsoPaths } from '@gatehouse/shared/wire';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { callAs, pathOf, tenantWithAdmin } from '../../test/admin-helpers';
import { eventsOf } from '../../test/event-helpers';
import { describeDialects, mailbox, uniqueEmail } from '../../test/harness';

const ROOMY = { RATE_LIMIT_SIGNUP_PER_IP: '1000/3600' };

/** Runs `call` while no event can be written, then puts the table back. */
async function withoutEvents<T>(server: GatehouseServer, call: () => Promise<T>): Promise<T> {
  await sql`ALTER TABLE events RENAME TO events_unavailable`.execute(server.db);
  try {
    return await call();
  } finally {
    await sql`ALTER TABLE events_unavailable RENAME TO events`.execute(server.db);
  }
}

function auditCount(server: GatehouseServer, tenantId: string): Promise<number> {
  return server.db
    .selectFrom('audits')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('tenant_id', '=', tenantId)
    .executeTakeFirstOrThrow()
    .then((r) => Number(r.n));
}

describeDialects('events written in the change transaction', (h) => {
  it('an SSO configuration change, domain or group mapping whose event cannot be written is not kept (sso.configuration_changed)', async () => {
    const server = await h.start(ROOMY);
    const admin = await tenantWithAdmin(server);
    const created = await callAs(server, admin, 'POST', SsoPaths.configurations, { body: { type: 'saml', enabled: false } });
    expect(created.status).toBe(201);
    const configId = created.body.id as string;
    const configuration = pathOf(SsoPaths.configuration, { configId });
    const audits = await auditCount(server, admin.tenantId);

    const patched = await withoutEvents(server, () => callAs(server, admin, 'PATCH', configuration, { body: { enabled: true } }));
    expect(patched.status).toBe(500);
    const added = await withoutEvents(server, () => callAs(server, admin, 'POST', pathOf(SsoPaths.domains, { configId }), { body: { domain: 'atomic.example.com' } }));
    expect(added.status).toBe(500);

    const after = await callAs(server, admin, 'GET', configuration);
    expect(after.body).toMatchObject({ enabled: false, domains: [] });
    expect(await auditCount(server, admin.tenantId)).toBe(audits);
    // With events writable again the same change is kept with its event.
    expect((await callAs(server, admin, 'PATCH', configuration, { body: { enabled: true } })).status).toBe(200);
    expect((await eventsOf(server, admin.tenantId, 'sso.configuration_changed')).map((e) => e.data.change)).toEqual(['created', 'updated']);
  });

  it('an invitation whose user.invited cannot be written creates no user, membership or invitation and sends no email', async () => {
    const server = await h.start(ROOMY);
    const admin = await tenantWithAdmin(server);
    const email = uniqueEmail('atomic');
    const res = await withoutEvents(server, () => callAs(server, admin, 'POST', ApiPaths.inviteUser, { body: { email, name: 'Atomic' } }));
    expect(res.status).toBe(500);
    expect(await server.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
    expect((await mailbox(server)).filter((m) => m.to === email)).toEqual([]);
    // The same invitation goes through afterwards, with its event and its email.
    expect((await callAs(server, admin, 'POST', ApiPaths.inviteUser, { body: { email, name: 'Atomic' } })).status).toBe(201);
    expect((await eventsOf(server, admin.tenantId, 'user.invited')).map((e) => e.data.email)).toEqual([email]);
    expect((await mailbox(server)).filter((m) => m.to === email)).toHaveLength(1);
  });

  it('a bulk invitation raises each user.invited with its invitation: none written, none kept', async () => {
    const server = await h.start(ROOMY);
    const admin = await tenantWithAdmin(server);
    const email = uniqueEmail('bulk-atomic');
    const res = await withoutEvents(server, () => callAs(server, admin, 'POST', AdminPaths.bulkInvite, { body: { emails: [email] } }));
    expect(res.status).toBe(500);
    expect(await server.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
    expect((await mailbox(server)).filter((m) => m.to === email)).toEqual([]);
    const again = await callAs(server, admin, 'POST', AdminPaths.bulkInvite, { body: { emails: [email] } });
    expect(again.status).toBe(200);
    // One event per invitation (not a second one from the bulk audit row).
    expect((await eventsOf(server, admin.tenantId, 'user.invited')).map((e) => e.data.email)).toEqual([email]);
  });
});
