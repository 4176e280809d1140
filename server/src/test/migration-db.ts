import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
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
