import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { migrate, migrateTo } from '../index';
import { describeMigration } from '../../test/migration-db';

/**
 * Migration 009 on a database that already holds users: SQLite rebuilds the users table to make
 * email nullable, so this proves no row, reference or constraint is lost on either dialect.
 */
describeMigration(`migration 009_sms_login on existing data`, (dialect, m) => {
  const now = Date.now();

  beforeAll(async () => {
    await migrateTo(m.opened.db, dialect, '008_passwordless');
    // Users as migration 008 left them (no phone_verified yet), with rows that reference them.
    const db = m.opened.db as any;
    await db.insertInto('tenants').values({ id: 't1', name: 'Acme', is_reseller: 0, application_url: null, metadata: null, created_at: now }).execute();
    for (const [id, email, phone] of [['u1', 'ada@example.com', '+44 20 7946 0958'], ['u2', 'bob@example.com', 'call me maybe'], ['u3', 'cy@example.com', null]] as const) {
      await db
        .insertInto('users')
        .values({ id, email, username: null, name: id, password_hash: 'hash', verified: 1, super_user: 0, disabled: 0, phone_number: phone, address: null, job_title: null, profile_picture_id: null, metadata: null, last_tenant_id: 't1', created_at: now, last_login: null })
        .execute();
      await db.insertInto('user_tenants').values({ user_id: id, tenant_id: 't1', created_at: now }).execute();
    }
    await db.insertInto('sessions').values({ id: 's1', user_id: 'u1', tenant_id: 't1', user_agent: null, ip: null, created_at: now, last_used_at: now, expires_at: now + 1000, revoked_at: null, auth_time: now, amr: '["pwd"]' }).execute();
    await db.insertInto('refresh_tokens').values({ token_hash: 'h1', session_id: 's1', created_at: now, expires_at: now + 1000, used_at: null }).execute();
    await migrate(m.opened.db, dialect);
  });

  it('keeps every user and the rows that reference them; phone numbers become E.164 where they parse', async () => {
    const users = await m.opened.db.selectFrom('users').select(['id', 'email', 'phone_number', 'phone_verified', 'password_hash']).orderBy('id').execute();
    expect(users).toEqual([
      { id: 'u1', email: 'ada@example.com', phone_number: '+442079460958', phone_verified: 0, password_hash: 'hash' },
      { id: 'u2', email: 'bob@example.com', phone_number: 'call me maybe', phone_verified: 0, password_hash: 'hash' },
      { id: 'u3', email: 'cy@example.com', phone_number: null, phone_verified: 0, password_hash: 'hash' },
    ]);
    expect(await m.opened.db.selectFrom('user_tenants').select('user_id').orderBy('user_id').execute()).toHaveLength(3);
    expect(await m.opened.db.selectFrom('refresh_tokens').selectAll().execute()).toHaveLength(1);
  });

  it('lets email be null (as often as needed) while a non-null email stays unique', async () => {
    const row = (id: string, email: string | null) => ({ id, email, username: null, name: id, password_hash: null, verified: 0, super_user: 0, disabled: 0, phone_number: null, address: null, job_title: null, profile_picture_id: null, metadata: null, last_tenant_id: null, created_at: now, last_login: null });
    await m.opened.db.insertInto('users').values(row('p1', null)).execute();
    await m.opened.db.insertInto('users').values(row('p2', null)).execute();
    await expect(m.opened.db.insertInto('users').values(row('dup', 'ada@example.com')).execute()).rejects.toThrow();
  });

  it('keeps the foreign keys working: deleting a user still cascades to its sessions and tokens', async () => {
    if (dialect === 'sqlite') expect((await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(m.opened.db)).rows[0]?.foreign_keys).toBe(1);
    await m.opened.db.deleteFrom('users').where('id', '=', 'u1').execute();
    expect(await m.opened.db.selectFrom('sessions').selectAll().where('user_id', '=', 'u1').execute()).toHaveLength(0);
    expect(await m.opened.db.selectFrom('refresh_tokens').selectAll().execute()).toHaveLength(0);
    expect(await m.opened.db.selectFrom('user_tenants').selectAll().where('user_id', '=', 'u1').execute()).toHaveLength(0);
  });

  it('allows a verified phone number on one user only', async () => {
    await m.opened.db.updateTable('users').set({ phone_number: '+14155550100', phone_verified: 1 }).where('id', '=', 'u2').execute();
    await m.opened.db.updateTable('users').set({ phone_number: '+14155550100' }).where('id', '=', 'u3').execute();
    await expect(m.opened.db.updateTable('users').set({ phone_verified: 1 }).where('id', '=', 'u3').execute()).rejects.toThrow();
  });
});
