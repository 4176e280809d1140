import { beforeAll, expect, it } from 'vitest';
import { migrateTo } from '../index';
import { describeMigration } from '../../test/migration-db';

/**
 * Migration 044: a write of `users.last_login` copies only `active_at` onto the user's memberships,
 * through a trigger of its own; every other copied column still follows its own trigger. The copies
 * stay what migration 016 made them, on memberships written before the migration too, and down
 * restores the one trigger.
 */
describeMigration(`migration 044_member_activity_trigger`, (dialect, m) => {
  const now = Date.now();
  const DAY = 86_400_000;
  const created = now - 400 * DAY;
  const user = (id: string) => ({
    id, email: `${id}@m044.test`, username: null, name: `Name ${id}`, password_hash: null, verified: 1, super_user: 0, disabled: 0, phone_number: null, address: null, job_title: null,
    profile_picture_id: null, metadata: null, last_tenant_id: null, created_at: created, last_login: null, is_breached_password: 0,
  });
  const copies = async (userId: string) =>
    (m.opened.db as any)
      .selectFrom('user_tenants')
      .select(['tenant_id', 'sort_name', 'email', 'user_created_at', 'verified', 'locked', 'breached', 'active_at'])
      .where('user_id', '=', userId)
      .orderBy('tenant_id')
      .execute()
      .then((rows: Record<string, unknown>[]) => rows.map((r) => ({ ...r, user_created_at: Number(r.user_created_at), active_at: Number(r.active_at) })));
  const update = (userId: string, patch: Record<string, unknown>) => (m.opened.db as any).updateTable('users').set(patch).where('id', '=', userId).execute();

  beforeAll(async () => {
    await migrateTo(m.opened.db, dialect, '043_member_activity_index');
    const db = m.opened.db as any;
    await db.insertInto('tenants').values([{ id: 't1', name: 'One', is_reseller: 0, created_at: now }, { id: 't2', name: 'Two', is_reseller: 0, created_at: now }]).execute();
    await db.insertInto('users').values([user('u1'), user('u2')]).execute();
    await db.insertInto('user_tenants').values([{ user_id: 'u1', tenant_id: 't1', created_at: now }, { user_id: 'u1', tenant_id: 't2', created_at: now }, { user_id: 'u2', tenant_id: 't1', created_at: now }]).execute();
    await migrateTo(m.opened.db, dialect, '044_member_activity_trigger');
  });

  const copy = (tenant: string, over: Record<string, unknown> = {}) => ({ tenant_id: tenant, sort_name: 'name u1', email: 'u1@m044.test', user_created_at: created, verified: 1, locked: 0, breached: 0, active_at: created, ...over });

  it('moves active_at on every membership when the user signs in, and keeps the other copies', async () => {
    expect(await copies('u1')).toEqual([copy('t1'), copy('t2')]);
    await update('u1', { last_login: now - DAY });
    expect(await copies('u1')).toEqual([copy('t1', { active_at: now - DAY }), copy('t2', { active_at: now - DAY })]);
    // Another user's memberships did not move.
    expect((await copies('u2'))[0]).toMatchObject({ active_at: created });
  });

  it('still copies a change of the name, email, verification, lock or breached password, alone or with the last sign-in', async () => {
    await update('u1', { name: 'Renamed', email: 'renamed@m044.test', verified: 0, locked_at: now, is_breached_password: 1 });
    const changed = { sort_name: 'renamed', email: 'renamed@m044.test', verified: 0, locked: 1, breached: 1, active_at: now - DAY };
    expect(await copies('u1')).toEqual([copy('t1', changed), copy('t2', changed)]);
    await update('u1', { name: 'Both', last_login: now });
    expect(await copies('u1')).toEqual([copy('t1', { ...changed, sort_name: 'both', active_at: now }), copy('t2', { ...changed, sort_name: 'both', active_at: now })]);
    // A user who never signed in is as active as their account is old: a new creation time moves it.
    await update('u2', { created_at: created + DAY });
    expect((await copies('u2'))[0]).toMatchObject({ user_created_at: created + DAY, active_at: created + DAY });
  });

  it('goes down to the one trigger of migration 016, which copies every column again', async () => {
    await migrateTo(m.opened.db, dialect, '043_member_activity_index');
    await update('u2', { last_login: now - 2 * DAY, name: 'Down' });
    expect((await copies('u2'))[0]).toMatchObject({ sort_name: 'down', active_at: now - 2 * DAY });
    await migrateTo(m.opened.db, dialect, '044_member_activity_trigger');
    await update('u2', { last_login: now - 3 * DAY });
    expect((await copies('u2'))[0]).toMatchObject({ sort_name: 'down', active_at: now - 3 * DAY });
  });
});
