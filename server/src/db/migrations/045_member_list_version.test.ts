import { beforeAll, expect, it } from 'vitest';
import { migrateTo } from '../index';
import { describeMigration, migrateToBefore } from '../../test/migration-db';

/**
 * Migration 045: `member_counts.list_version` starts at 0 for the tenants counted before it, then
 * rises with every statement that can move a row of the tenant's users list in some sort (a member
 * joins or leaves, an order column changes, also through the copy triggers of `users`), in every
 * tenant the statement touched, and not with a sign-in or a change of an unsorted column. The counts
 * of migration 040 stay exact beside it; down drops the column and keeps the counts.
 */
describeMigration(`migration 045_member_list_version`, (dialect, m) => {
  const now = Date.now();
  const user = (id: string) => ({
    id, email: `${id}@m045.test`, username: null, name: id, password_hash: null, verified: 1, super_user: 0, disabled: 0, phone_number: null, address: null, job_title: null,
    profile_picture_id: null, metadata: null, last_tenant_id: null, created_at: now, last_login: null, is_breached_password: 0,
  });
  const db = () => m.opened.db as any;
  const state = async () =>
    (await db().selectFrom('member_counts').selectAll().orderBy('tenant_id').execute()).map((r: Record<string, unknown>) => ({ tenant: r.tenant_id, n: Number(r.n), version: Number(r.list_version) }));
  const versions = async () => Object.fromEntries((await state()).map((s: { tenant: string; version: number }) => [s.tenant, s.version]));

  beforeAll(async () => {
    await migrateToBefore(m.opened.db, dialect, '045_member_list_version');
    await db().insertInto('tenants').values([{ id: 't1', name: 'One', is_reseller: 0, created_at: now }, { id: 't2', name: 'Two', is_reseller: 0, created_at: now }, { id: 't3', name: 'Three', is_reseller: 0, created_at: now }]).execute();
    await db().insertInto('users').values([user('u1'), user('u2'), user('u3')]).execute();
    await db().insertInto('user_tenants').values([{ user_id: 'u1', tenant_id: 't1', created_at: now }, { user_id: 'u2', tenant_id: 't1', created_at: now }, { user_id: 'u1', tenant_id: 't2', created_at: now }]).execute();
    await migrateTo(m.opened.db, dialect, '045_member_list_version');
  });

  it('starts at 0 for the tenants counted before it', async () => {
    expect(await state()).toEqual([
      { tenant: 't1', n: 2, version: 0 },
      { tenant: 't2', n: 1, version: 0 },
    ]);
  });

  it('rises with a join, a leave and an order column, in every tenant the change reaches, and not with a sign-in', async () => {
    const rises = async (what: string, change: () => Promise<unknown>, expected: Record<string, number>) => {
      const before = await versions();
      await change();
      const after = await versions();
      for (const tenant of ['t1', 't2', 't3']) expect(Math.sign((after[tenant] ?? 0) - (before[tenant] ?? 0)), `${what}: ${tenant}`).toBe(expected[tenant] ?? 0);
    };
    await rises('a sign-in', () => db().updateTable('users').set({ last_login: now + 1 }).where('id', '=', 'u1').execute(), {});
    await rises('an unsorted column of the membership', () => db().updateTable('user_tenants').set({ active_at: now + 2 }).where('user_id', '=', 'u2').execute(), {});
    await rises('a rename of a member of two tenants', () => db().updateTable('users').set({ name: 'Renamed' }).where('id', '=', 'u1').execute(), { t1: 1, t2: 1 });
    await rises('a new email', () => db().updateTable('users').set({ email: 'new@m045.test' }).where('id', '=', 'u2').execute(), { t1: 1 });
    await rises('a lockout', () => db().updateTable('users').set({ locked_at: now }).where('id', '=', 'u2').execute(), { t1: 1 });
    await rises('a first member of a new tenant', () => db().insertInto('user_tenants').values({ user_id: 'u3', tenant_id: 't3', created_at: now }).execute(), { t3: 1 });
    await rises('two joins in one statement', () => db().insertInto('user_tenants').values([{ user_id: 'u2', tenant_id: 't2', created_at: now }, { user_id: 'u3', tenant_id: 't1', created_at: now }]).execute(), { t1: 1, t2: 1 });
    await rises('a leave', () => db().deleteFrom('user_tenants').where('user_id', '=', 'u3').where('tenant_id', '=', 't1').execute(), { t1: 1 });
    // The counts stay exact beside the version.
    expect((await state()).map(({ tenant, n }: { tenant: string; n: number }) => ({ tenant, n }))).toEqual([
      { tenant: 't1', n: 2 },
      { tenant: 't2', n: 2 },
      { tenant: 't3', n: 1 },
    ]);
  });

  it('goes down to the counts of migration 040 without the version, and back up', async () => {
    await migrateTo(m.opened.db, dialect, '044_member_activity_trigger');
    await db().insertInto('user_tenants').values({ user_id: 'u1', tenant_id: 't3', created_at: now }).execute();
    expect((await db().selectFrom('member_counts').selectAll().where('tenant_id', '=', 't3').executeTakeFirst())).not.toHaveProperty('list_version');
    await migrateTo(m.opened.db, dialect, '045_member_list_version');
    expect(await state()).toContainEqual({ tenant: 't3', n: 2, version: 0 });
  });
});
