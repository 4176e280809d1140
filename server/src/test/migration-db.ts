import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuiltInRoles } from '@gatehouse/shared/wire';
import { dropSchema, migrateTo, openDb, type Db, type OpenedDb } from '../db';
import { migrationProvider } from '../db/migrations';
import type { DialectName } from './harness';

/**
 * A migration's test, once per dialect: SQLite always, PostgreSQL when DATABASE_URL is set (with
 * REQUIRE_POSTGRES=1 a missing one fails). Each block gets an empty database of its own, not the
 * migrated template of test/harness.ts: a data directory, and on PostgreSQL a schema of its own.
 * It is opened before the body's hooks run, and closed and dropped after them; the body migrates
 * it step by step (`migrateTo`) and reads it as `m.opened`.
 */
export function describeMigration(title: string, body: (dialect: DialectName, m: { readonly opened: OpenedDb }) => void): void {
  for (const dialect of ['sqlite', 'postgres'] as const) {
    const databaseUrl = process.env.DATABASE_URL;
    const skip = dialect === 'postgres' && !databaseUrl && process.env.REQUIRE_POSTGRES !== '1';
    (skip ? describe.skip : describe)(`${title} [${dialect}]`, () => {
      let dataDir = '';
      const schema = `gh_${randomBytes(6).toString('hex')}`;
      const m = {} as { opened: OpenedDb };
      beforeAll(async () => {
        dataDir = mkdtempSync(path.join(tmpdir(), 'gatehouse-migration-'));
        if (dialect === 'postgres' && !databaseUrl) throw new Error('REQUIRE_POSTGRES=1 but DATABASE_URL is not set.');
        m.opened = await openDb({ dataDir, databaseUrl: dialect === 'postgres' ? databaseUrl! : null, databaseSchema: dialect === 'postgres' ? schema : null });
      });
      afterAll(async () => {
        await m.opened?.close();
        rmSync(dataDir, { recursive: true, force: true });
        if (dialect === 'postgres' && databaseUrl) await dropSchema(databaseUrl, schema);
      });
      body(dialect, m);
    });
  }
}

/** Migrates `db` up (or down) to the migration just before `name`: the state a migration's test starts from. */
export async function migrateToBefore(db: Db, dialect: DialectName, name: string): Promise<void> {
  const names = Object.keys(await migrationProvider(dialect).getMigrations()).sort();
  const at = names.indexOf(name);
  if (at < 1) throw new Error(`no migration before ${name}`);
  await migrateTo(db, dialect, names[at - 1]!);
}

/**
 * The test of a migration that grants a feature's permissions to the built-in roles of accounts made
 * before it (035_channels, 037_reports): Admin every key, Read only the read keys, other roles
 * nothing, and a key already in the catalogue and granted is kept once. `existing` is the key a
 * deployment had already (in `category`); `grants` names the keys in the test's title.
 */
export function describeBuiltInGrantsMigration(name: string, spec: { keys: readonly string[]; existing: { key: string; name: string }; category: string; grants: string }): void {
  const { keys, existing, category } = spec;
  describeMigration(`migration ${name}`, (dialect, m) => {
    beforeAll(async () => {
      await migrateToBefore(m.opened.db, dialect, name);
      const db = m.opened.db as any;
      const now = Date.now();
      await db.insertInto('tenants').values([{ id: 't1', name: 'Old account', is_reseller: 0, created_at: now }, { id: 't2', name: 'Other', is_reseller: 0, created_at: now }]).execute();
      await db
        .insertInto('roles')
        .values([
          { id: 't1-admin', tenant_id: 't1', key: BuiltInRoles.Admin.key, name: 'Admin', is_default: 0, created_at: now },
          { id: 't1-readonly', tenant_id: 't1', key: BuiltInRoles.ReadOnly.key, name: 'Read only', is_default: 1, created_at: now },
          { id: 't1-support', tenant_id: 't1', key: BuiltInRoles.Support.key, name: 'Support', is_default: 0, created_at: now },
          { id: 't2-admin', tenant_id: 't2', key: BuiltInRoles.Admin.key, name: 'Admin', is_default: 0, created_at: now },
        ])
        .execute();
      // One key already in the catalogue and granted to t2's Admin (a deployment that ran this code before the migration).
      await db.insertInto('permissions').values({ id: 'p-existing', key: existing.key, name: existing.name, description: null, category_id: category }).execute();
      await db.insertInto('role_permissions').values({ role_id: 't2-admin', permission_id: 'p-existing' }).execute();
      // Up to this migration only: later ones may grant keys of their own.
      await migrateTo(m.opened.db, dialect, name);
    });

    const keysOf = async (roleId: string) =>
      (await m.opened.db.selectFrom('role_permissions as rp').innerJoin('permissions as p', 'p.id', 'rp.permission_id').select('p.key').where('rp.role_id', '=', roleId).execute())
        .map((r) => r.key)
        .sort();

    it(`grants ${spec.grants} to the built-in Admin roles and the read keys to Read only, and nothing to other roles`, async () => {
      expect(await keysOf('t1-admin')).toEqual([...keys].sort());
      expect(await keysOf('t1-readonly')).toEqual(keys.filter((k) => k.includes('.read.')).sort());
      expect(await keysOf('t1-support')).toEqual([]);
      // The existing grant kept once, the others added.
      expect(await keysOf('t2-admin')).toEqual([...keys].sort());
    });

    it('adds the missing keys to the catalogue and keeps the one that was there', async () => {
      const rows = await m.opened.db.selectFrom('permissions').select(['id', 'key', 'category_id']).where('key', 'in', [...keys]).execute();
      expect(rows.map((r) => r.key).sort()).toEqual([...keys].sort());
      expect(rows.find((r) => r.key === existing.key)!.id).toBe('p-existing');
      expect(new Set(rows.map((r) => r.category_id))).toEqual(new Set([category]));
    });
  });
}
