import { beforeAll, expect, it } from 'vitest';
import { migrateTo } from '../index';
import { describeMigration, migrateToBefore } from '../../test/migration-db';

/**
 * Migration 040: the per-tenant counts of the users list count the memberships that existed before
 * it (all, without MFA, with a breached password), per tenant, and follow later inserts in bulk.
 */
describeMigration(`migration 040_member_counts`, (dialect, m) => {
  const now = Date.now();
  const user = (id: string, breached: number) => ({
    id, email: `${id}@m040.test`, username: null, name: id, password_hash: null, verified: 1, super_user: 0, disabled: 0, phone_number: null, address: null, job_title: null,
    profile_picture_id: null, metadata: null, last_tenant_id: null, created_at: now, last_login: null, is_breached_password: breached,
  });
  const counts = async () => (await m.opened.db.selectFrom('member_counts').selectAll().orderBy('tenant_id').execute()).map((r) => ({ tenant: r.tenant_id, n: Number(r.n), mfa: Number(r.mfa_unenrolled), breached: Number(r.breached) }));

  beforeAll(async () => {
    await migrateToBefore(m.opened.db, dialect, '040_member_counts');
    const db = m.opened.db as any;
    await db.insertInto('tenants').values([{ id: 't1', name: 'One', is_reseller: 0, created_at: now }, { id: 't2', name: 'Two', is_reseller: 0, created_at: now }]).execute();
    // t1: u1 (breached, MFA), u2, u3 (breached); t2: u1. Written before the counts existed.
    await db.insertInto('users').values([user('u1', 1), user('u2', 0), user('u3', 1)]).execute();
    await db.insertInto('mfa_devices').values({ id: 'd1', user_id: 'u1', type: 'authenticator', status: 'active', secret: null, email: null, last_used_step: null, created_at: now, verified_at: now }).execute();
    await db.insertInto('user_tenants').values([{ user_id: 'u1', tenant_id: 't1', created_at: now }, { user_id: 'u2', tenant_id: 't1', created_at: now }, { user_id: 'u3', tenant_id: 't1', created_at: now }, { user_id: 'u1', tenant_id: 't2', created_at: now }]).execute();
    await migrateTo(m.opened.db, dialect, '040_member_counts');
  });

  it('counts the memberships written before it, per tenant', async () => {
    expect(await counts()).toEqual([
      { tenant: 't1', n: 3, mfa: 2, breached: 2 },
      { tenant: 't2', n: 1, mfa: 0, breached: 1 },
    ]);
  });

  it('follows a bulk insert of memberships and a user change that reaches several tenants', async () => {
    const db = m.opened.db as any;
    await db.insertInto('users').values([user('u4', 0), user('u5', 1)]).execute();
    await db.insertInto('user_tenants').values([{ user_id: 'u4', tenant_id: 't2', created_at: now }, { user_id: 'u5', tenant_id: 't2', created_at: now }, { user_id: 'u2', tenant_id: 't2', created_at: now }]).execute();
    // u1 loses its device (unenrolled in t1 and t2) and its breached flag.
    await db.deleteFrom('mfa_devices').where('id', '=', 'd1').execute();
    await db.updateTable('users').set({ is_breached_password: 0 }).where('id', '=', 'u1').execute();
    expect(await counts()).toEqual([
      { tenant: 't1', n: 3, mfa: 3, breached: 1 },
      { tenant: 't2', n: 4, mfa: 4, breached: 1 },
    ]);
  });
});
