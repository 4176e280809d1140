import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { Migrator } from 'kysely';
import pg from 'pg';
import type { Config } from '../config';
import { migrationProvider, type DialectName } from './migrations';
import type { Database } from './schema';

export type Db = Kysely<Database>;

export interface OpenedDb {
  db: Db;
  dialect: DialectName;
  close(): Promise<void>;
}

const INT8_OID = 20;

/** Opens the database the config names (PostgreSQL when DATABASE_URL is set, else SQLite). */
export async function openDb(config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'dataDir'>): Promise<OpenedDb> {
  if (config.databaseUrl) {
    const schema = config.databaseSchema;
    if (schema) {
      // The schema must exist before a pool with this search_path can create tables in it.
      const client = new pg.Client({ connectionString: config.databaseUrl });
      await client.connect();
      try {
        await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      } finally {
        await client.end();
      }
    }
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: 10,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
      // Timestamps are bigint ms; pg returns int8 as text unless told otherwise. Per-pool, not global.
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === INT8_OID ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
      },
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  mkdirSync(config.dataDir, { recursive: true });
  const file = new SqliteDatabase(path.join(config.dataDir, 'gatehouse.db'));
  file.pragma('journal_mode = WAL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: file }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/** Applies every pending migration; fails loudly with the migration's name. */
export async function migrate(db: Db, dialect: DialectName): Promise<void> {
  // Kysely looks for its migration tables in every schema unless told which one; with several
  // schemas in one database (a test file each, or tenants of one server) it could find another
  // schema's lock table, skip creating its own, and fail with 'relation "kysely_migration_lock"
  // does not exist'. Pin them to the connection's own schema (public when none is set).
  const schema = dialect === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
  const migrator = new Migrator({ db, provider: migrationProvider(dialect), ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${(error as Error).message ?? String(error)}`);
}

/** Cheap liveness check used by tests and health probes. */
export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
