import { beforeAll, expect, it } from 'vitest';
import { migrate } from '../index';
import { describeMigration, migrateToBefore } from '../../test/migration-db';

/**
 * Migration 022 (security review L8): usernames that already collide ignoring case keep the oldest
 * account's, the later look-alikes lose theirs, and the unique index on lower(username) then holds.
 */
describeMigration(`migration 022_security_fixes`, (dialect, m) => {
  const now = Date.now();
  const user = (id: string, username: string | null, createdAt: number) => ({
    id, email: `${id}@example.com`, username, name: id, password_hash: null, verified: 1, super_user: 0, disabled: 0,
    phone_number: null, address: null, job_title: null, profile_picture_id: null, metadata: null, last_tenant_id: null, created_at: createdAt, last_login: null,
  });

  beforeAll(async () => {
    await migrateToBefore(m.opened.db, dialect, '022_security_fixes');
    const db = m.opened.db as any;
    await db.insertInto('users').values([user('old', 'Alice', now), user('new', 'alice', now + 1), user('tie-b', 'BOB', now), user('tie-a', 'bob', now), user('solo', 'carol', now), user('none1', null, now), user('none2', null, now)]).execute();
    await migrate(m.opened.db, dialect);
  });

  it('L8: keeps the oldest of usernames colliding ignoring case, clears the look-alikes, then refuses new ones', async () => {
    const rows = await m.opened.db.selectFrom('users').select(['id', 'username']).orderBy('id').execute();
    expect(Object.fromEntries(rows.map((r) => [r.id, r.username]))).toEqual({ new: null, none1: null, none2: null, old: 'Alice', solo: 'carol', 'tie-a': 'bob', 'tie-b': null });
    await expect(m.opened.db.updateTable('users').set({ username: 'CAROL' }).where('id', '=', 'new').execute()).rejects.toThrow();
    await m.opened.db.updateTable('users').set({ username: 'dave' }).where('id', '=', 'new').execute();
  });
});
