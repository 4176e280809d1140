import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, migrate, openDb, type OpenedDb } from './index';
import { migrationProvider } from './migrations';

/**
 * `migrate` on a database that is already current answers from the migration table alone: it
 * neither waits for the migration lock nor runs the Migrator. A database holding a migration this
 * server does not know is still refused, as the Migrator refuses it.
 */
for (const dialect of ['sqlite', 'postgres'] as const) {
  const databaseUrl = process.env.DATABASE_URL;
  const skip = dialect === 'postgres' && !databaseUrl && process.env.REQUIRE_POSTGRES !== '1';
  (skip ? describe.skip : describe)(`migrate [${dialect}]`, () => {
    let opened: OpenedDb;
    let dataDir = '';
    const schema = `gh_${randomBytes(6).toString('hex')}`;

    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'gatehouse-migrate-'));
      if (dialect === 'postgres' && !databaseUrl) throw new Error('REQUIRE_POSTGRES=1 but DATABASE_URL is not set.');
      opened = await openDb({ dataDir, databaseUrl: dialect === 'postgres' ? databaseUrl! : null, databaseSchema: dialect === 'postgres' ? schema : null });
      await migrate(opened.db, dialect);
    });

    afterAll(async () => {
      await opened?.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (dialect === 'postgres' && databaseUrl) await dropSchema(databaseUrl, schema);
    });

    it('applies every migration once, and a second run changes nothing', async () => {
      const names = Object.keys(await migrationProvider(dialect).getMigrations()).sort();
      const applied = async () => (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(opened.db)).rows.map((r) => r.name);
      expect(await applied()).toEqual(names);
      await migrate(opened.db, dialect);
      expect(await applied()).toEqual(names);
    });

    // PostgreSQL only: SQLite has one process per database file and no shared lock.
    if (dialect === 'postgres') it('returns at once on a current database while another process holds the migration lock', async () => {
      // Another server process migrating (or a test dropping its schema) holds the shared lock.
      const holder = new pg.Client({ connectionString: databaseUrl });
      await holder.connect();
      try {
        await holder.query('select pg_advisory_lock($1)', [0x47617465]);
        const outcome = await Promise.race([migrate(opened.db, dialect).then(() => 'done'), new Promise((r) => setTimeout(() => r('waited for the lock'), 3000))]);
        expect(outcome).toBe('done');
      } finally {
        await holder.end();
      }
    });

    it('refuses a database that a newer server migrated further', async () => {
      await sql`insert into kysely_migration (name, timestamp) values ('999_from_a_newer_server', '2030-01-01T00:00:00.000Z')`.execute(opened.db);
      try {
        await expect(migrate(opened.db, dialect)).rejects.toThrow(/999_from_a_newer_server/);
      } finally {
        await sql`delete from kysely_migration where name = '999_from_a_newer_server'`.execute(opened.db);
      }
    });
  });
}
