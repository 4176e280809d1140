import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, migrate, migrateTo, openDb, type OpenedDb } from '../index';
import { migrationProvider } from './index';

/**
 * Migration 022 (security review L8): usernames that already collide ignoring case keep the oldest
 * account's, the later look-alikes lose theirs, and the unique index on lower(username) then holds.
 */
for (const dialect of ['sqlite', 'postgres'] as const) {
  const databaseUrl = process.env.DATABASE_URL;
  const skip = dialect === 'postgres' && !databaseUrl && process.env.REQUIRE_POSTGRES !== '1';
  (skip ? describe.skip : describe)(`migration 022_security_fixes [${dialect}]`, () => {
    let opened: OpenedDb;
    let dataDir = '';
    const schema = `gh_${randomBytes(6).toString('hex')}`;
    const now = Date.now();
    const user = (id: string, username: string | null, createdAt: number) => ({
      id, email: `${id}@example.com`, username, name: id, password_hash: null, verified: 1, super_user: 0, disabled: 0,
      phone_number: null, address: null, job_title: null, profile_picture_id: null, metadata: null, last_tenant_id: null, created_at: createdAt, last_login: null,
    });

    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'gatehouse-022-'));
      if (dialect === 'postgres' && !databaseUrl) throw new Error('REQUIRE_POSTGRES=1 but DATABASE_URL is not set.');
      opened = await openDb({ dataDir, databaseUrl: dialect === 'postgres' ? databaseUrl! : null, databaseSchema: dialect === 'postgres' ? schema : null });
      const names = Object.keys(await migrationProvider(dialect).getMigrations()).sort();
      await migrateTo(opened.db, dialect, names[names.indexOf('022_security_fixes') - 1]!);
      const db = opened.db as any;
      await db.insertInto('users').values([user('old', 'Alice', now), user('new', 'alice', now + 1), user('tie-b', 'BOB', now), user('tie-a', 'bob', now), user('solo', 'carol', now), user('none1', null, now), user('none2', null, now)]).execute();
      await migrate(opened.db, dialect);
    });

    afterAll(async () => {
      await opened?.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (dialect === 'postgres' && databaseUrl) await dropSchema(databaseUrl, schema);
    });

    it('L8: keeps the oldest of usernames colliding ignoring case, clears the look-alikes, then refuses new ones', async () => {
      const rows = await opened.db.selectFrom('users').select(['id', 'username']).orderBy('id').execute();
      expect(Object.fromEntries(rows.map((r) => [r.id, r.username]))).toEqual({ new: null, none1: null, none2: null, old: 'Alice', solo: 'carol', 'tie-a': 'bob', 'tie-b': null });
      await expect(opened.db.updateTable('users').set({ username: 'CAROL' }).where('id', '=', 'new').execute()).rejects.toThrow();
      await opened.db.updateTable('users').set({ username: 'dave' }).where('id', '=', 'new').execute();
    });
  });
}
