/**
 * Migrates one database per dialect once for the whole run, as a template: each `describeDialects`
 * block then starts from a copy (a file copy for SQLite, `CREATE DATABASE ... TEMPLATE` for
 * PostgreSQL) instead of running every migration again. Migrations themselves are tested in
 * `db/migrate.test.ts` and `db/migrations/*.test.ts`, which build their databases step by step.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrate, openDb } from '../db';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated SQLite database file to copy. */
    sqliteTemplate: string;
    /** The name of a migrated PostgreSQL database to create copies from ('' without DATABASE_URL). */
    postgresTemplate: string;
  }
}

/** The tablespace in memory that scripts/test-bench/postgres.sh makes for the test databases. */
const TEST_TABLESPACE = 'gatehouse_tests';

/** `url` with its database name replaced. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-template-'));
  const sqlite = await openDb({ dataDir: dir, databaseUrl: null, databaseSchema: null });
  await migrate(sqlite.db, 'sqlite');
  await sqlite.close(); // checkpoints the WAL: the template is one file
  project.provide('sqliteTemplate', path.join(dir, 'gatehouse.db'));

  const databaseUrl = process.env.DATABASE_URL;
  let template = '';
  if (databaseUrl) {
    template = `gh_template_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
    await admin.connect();
    // In memory when the test bench made the tablespace (scripts/test-bench/postgres.sh), and so is
    // every copy, which takes its template's tablespace; else on the default one.
    try {
      await admin.query(`CREATE DATABASE "${template}" TABLESPACE ${TEST_TABLESPACE}`);
    } catch {
      await admin.query(`CREATE DATABASE "${template}"`);
    }
    await admin.end();
    const postgres = await openDb({ dataDir: dir, databaseUrl: withDatabase(databaseUrl, template), databaseSchema: null });
    await migrate(postgres.db, 'postgres');
    await postgres.close(); // a template must have no connections when it is copied
  }
  project.provide('postgresTemplate', template);

  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (databaseUrl && template) {
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      // The copies a block made but never ran to drop (a PostgreSQL block skipped by a filter, or one
      // whose run stopped early), by the run's template name they start with (test/harness.ts).
      const left = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE starts_with(datname, $1)`, [`${template}_`]);
      for (const { datname } of left.rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      await admin.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
      await admin.end();
    }
  };
}
