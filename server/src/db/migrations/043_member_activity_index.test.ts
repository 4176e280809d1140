import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { migrateTo } from '../index';
import { queryPlan } from '../../test/query-plan';
import { describeMigration } from '../../test/migration-db';

/**
 * Migration 043: on PostgreSQL `user_tenants_by_activity` becomes `(tenant_id, active_at)` (SQLite
 * keeps migration 016's), and the inactive preset's count reads it alone (no table row), on the
 * memberships written before the migration too; down restores the index of migration 016.
 */
describeMigration(`migration 043_member_activity_index`, (dialect, m) => {
  const now = Date.now();
  const DAY = 86_400_000;
  const user = (id: string, lastLogin: number | null) => ({
    id, email: `${id}@m043.test`, username: null, name: id, password_hash: null, verified: 1, super_user: 0, disabled: 0, phone_number: null, address: null, job_title: null,
    profile_picture_id: null, metadata: null, last_tenant_id: null, created_at: now - 400 * DAY, last_login: lastLogin, is_breached_password: 0,
  });
  const columns = async (): Promise<string[]> => {
    if (dialect === 'sqlite') return (await sql<{ name: string }>`select name from pragma_index_info('user_tenants_by_activity') order by seqno`.execute(m.opened.db)).rows.map((r) => r.name);
    const { rows } = await sql<{ def: string }>`select pg_get_indexdef(c.oid) as def from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.relname = 'user_tenants_by_activity' and n.nspname = current_schema()`.execute(m.opened.db);
    return /\((.*)\)$/.exec(rows[0]!.def)![1]!.split(', ');
  };
  const inactive = async (tenantId: string) =>
    Number((await m.opened.db.selectFrom('user_tenants').select((eb) => eb.fn.countAll<number | string>().as('n')).where('tenant_id', '=', tenantId).where('active_at', '<', now - 90 * DAY).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    await migrateTo(m.opened.db, dialect, '042_cdn_rollouts');
    const db = m.opened.db as any;
    await db.insertInto('tenants').values([{ id: 't1', name: 'One', is_reseller: 0, created_at: now }, { id: 't2', name: 'Two', is_reseller: 0, created_at: now }]).execute();
    // t1: u1 inactive (signed in 100 days ago), u2 active, u3 never signed in (created 400 days ago); t2: u2.
    await db.insertInto('users').values([user('u1', now - 100 * DAY), user('u2', now - DAY), user('u3', null)]).execute();
    await db.insertInto('user_tenants').values([{ user_id: 'u1', tenant_id: 't1', created_at: now }, { user_id: 'u2', tenant_id: 't1', created_at: now }, { user_id: 'u3', tenant_id: 't1', created_at: now }, { user_id: 'u2', tenant_id: 't2', created_at: now }]).execute();
    expect(await columns()).toEqual(['tenant_id', 'active_at', 'user_id']);
    await migrateTo(m.opened.db, dialect, '043_member_activity_index');
  });

  const after = dialect === 'postgres' ? ['tenant_id', 'active_at'] : ['tenant_id', 'active_at', 'user_id'];

  it('indexes activity by tenant (on PostgreSQL without the user id), and counts the inactive members of a tenant from it alone', async () => {
    expect(await columns()).toEqual(after);
    expect(await inactive('t1')).toBe(2);
    expect(await inactive('t2')).toBe(0);
    const count = m.opened.db.selectFrom('user_tenants').select((eb) => eb.fn.countAll().as('n')).where('tenant_id', '=', 't1').where('active_at', '<', now - 90 * DAY).compile();
    // A few rows would be scanned by PostgreSQL whatever its indexes: the plan as for a large table.
    const plan = await m.opened.db.transaction().execute(async (trx) => {
      if (dialect === 'postgres') await sql`set local enable_seqscan = off`.execute(trx);
      if (dialect === 'postgres') await sql`set local enable_bitmapscan = off`.execute(trx);
      return queryPlan(trx, dialect, count);
    });
    expect(plan, plan).toMatch(dialect === 'postgres' ? /Index Only Scan using user_tenants_by_activity/ : /COVERING INDEX user_tenants_by_activity/);
  });

  it('goes down to the index of migration 016', async () => {
    await migrateTo(m.opened.db, dialect, '042_cdn_rollouts');
    expect(await columns()).toEqual(['tenant_id', 'active_at', 'user_id']);
    await migrateTo(m.opened.db, dialect, '043_member_activity_index');
    expect(await columns()).toEqual(after);
  });
});
