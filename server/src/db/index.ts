import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, sql, type Dialect } from 'kysely';
import { Migrator } from 'kysely';
import type { Config } from '../config';
import { migrationProvider, type DialectName } from './migrations';
import type { Database } from './schema';
import type pg from 'pg';
import { withPreparedStatements } from './pg-prepared';
import { checkpointOnThread } from './sqlite-checkpoints';
import { withStatementCache } from './statement-cache';
import { GatehouseSqliteDialect } from './sqlite-compiler';
import { observedDialect } from './statement-observer';

export type Db = Kysely<Database>;

export interface OpenedDb {
  db: Db;
  dialect: DialectName;
  close(): Promise<void>;
}

const INT8_OID = 20;
/** How many statement texts one PostgreSQL connection prepares (db/pg-prepared.ts). */
const PREPARED_PER_CONNECTION = 300;

/** The PostgreSQL driver, loaded only when DATABASE_URL names one: a SQLite start skips its ~0.2 s. */
const loadPg = async () => (await import('pg')).default;

type PostgresConfig = Pick<Config, 'databaseUrl' | 'databaseSchema'>;

/**
 * The PostgreSQL connection pool openDb makes for `config` (DATABASE_URL and DATABASE_SCHEMA). Made
 * apart from a Db only by the test harness, which keeps one per test database for the servers a
 * file starts, so that their connections, and what those have prepared, outlive each server.
 */
export async function createPostgresPool(config: PostgresConfig): Promise<pg.Pool> {
  if (!config.databaseUrl) throw new Error('createPostgresPool: DATABASE_URL is not set');
  const { Pool, types } = await loadPg();
  const schema = config.databaseSchema;
  return new Pool({
    connectionString: config.databaseUrl,
    max: 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
    // Timestamps are bigint ms; pg returns int8 as text unless told otherwise. Per-pool, not global.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') => (oid === INT8_OID ? (v: string) => Number(v) : types.getTypeParser(oid, format as 'text'))) as typeof types.getTypeParser,
    },
  });
}

/**
 * Opens the database the config names (PostgreSQL when DATABASE_URL is set, else SQLite). On
 * PostgreSQL, `postgresPool` (made by createPostgresPool for the same config) is used instead of a
 * pool of its own, and closing the Db leaves it open: its owner ends it.
 */
export async function openDb(
  config: PostgresConfig & Pick<Config, 'dataDir'> & Partial<Pick<Config, 'sqliteSynchronous' | 'databasePreparedStatements'>>,
  options: { postgresPool?: pg.Pool } = {},
): Promise<OpenedDb> {
  if (config.databaseUrl) {
    const schema = config.databaseSchema;
    if (schema) {
      // The schema must exist before a pool with this search_path can create tables in it.
      const client = new (await loadPg()).Client({ connectionString: config.databaseUrl });
      await client.connect();
      try {
        await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      } finally {
        await client.end();
      }
    }
    const shared = options.postgresPool;
    const pool: Pick<pg.Pool, 'connect' | 'end'> = shared ? { connect: () => shared.connect(), end: async () => undefined } : await createPostgresPool(config);
    const db = observableKysely(new PostgresDialect({ pool: config.databasePreparedStatements === false ? pool : withPreparedStatements(pool, { max: PREPARED_PER_CONNECTION }) }));
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  mkdirSync(config.dataDir, { recursive: true });
  const filePath = path.join(config.dataDir, 'gatehouse.db');
  const file = new SqliteDatabase(filePath);
  file.pragma('journal_mode = WAL');
  // NORMAL: a commit waits for the WAL write, and the disk only at checkpoints. A process crash loses
  // nothing; a power loss may undo the last commits but never corrupts the file. FULL waits for the
  // disk at every commit, which costs each write about ten times as much (docs/scaling.md).
  file.pragma(`synchronous = ${config.sqliteSynchronous === 'full' ? 'FULL' : 'NORMAL'}`);
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  // Temporary storage in memory: chiefly the statement journal, the pages a statement inside a
  // transaction may have to undo on its own. On a file it spilled to disk past 64 KiB, as an
  // audit record's insert (its indexes, search index and counts) does: a temporary file created,
  // written and deleted in the sign-in's transaction.
  file.pragma('temp_store = MEMORY');
  // The write-ahead log is copied into the file by a thread of its own, not in a request (sqlite-checkpoints.ts).
  const checkpoints = checkpointOnThread(file, filePath);
  const db = observableKysely(new GatehouseSqliteDialect({ database: withStatementCache(file) }));
  return {
    db,
    dialect: 'sqlite',
    close: async () => {
      await checkpoints.stop();
      await db.destroy();
    },
  };
}

/** A Kysely over `dialect` whose statements observeStatements can watch (tests count them). */
function observableKysely(dialect: Dialect): Db {
  const observed = observedDialect(dialect);
  const db = new Kysely<Database>({ dialect: observed.dialect });
  observed.register(db);
  return db;
}

/** Applies every pending migration; fails loudly with the migration's name. */
export async function migrate(db: Db, dialect: DialectName): Promise<void> {
  // Most starts find the database current (every further server process, every restart). Kysely's
  // Migrator would still introspect every table of every schema and take the lock; one read of the
  // migration table answers that case without either.
  if (await isCurrent(db, dialect)) return;
  // Kysely looks for its migration tables in every schema unless told which one; with several
  // schemas in one database (a test file each, or tenants of one server) it could find another
  // schema's lock table, skip creating its own, and fail with 'relation "kysely_migration_lock"
  // does not exist'. Pin them to the connection's own schema (public when none is set).
  if (dialect === 'sqlite') {
    await migrateOn(db, dialect, undefined);
    // Building a schema fills the write-ahead log (about 1,100 pages for a new database): copied into
    // the file now, before the server listens, a process that then writes little never needs the
    // checkpoint thread (sqlite-checkpoints.ts), as most test and CLI processes do not.
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
    return;
  }
  // Kysely checks for its tables by introspecting every schema of the database, which fails when
  // another schema is dropped meanwhile (parallel test files dropping theirs). Migrations and schema
  // drops therefore take one session-level advisory lock (`dropSchema` below); it also keeps two
  // servers starting at once from introspecting while the other creates tables.
  await withSchemaLock(db, async (conn) => {
    const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(conn)).rows[0]?.schema;
    await migrateOn(conn, dialect, schema);
  });
}

/** Runs `work` on one PostgreSQL connection holding the lock that migrations and schema drops share. */
export async function withSchemaLock<T>(db: Db, work: (conn: Db) => Promise<T>): Promise<T> {
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${SCHEMA_LOCK_ID})`.execute(conn);
    try {
      return await work(conn);
    } finally {
      await sql`select pg_advisory_unlock(${SCHEMA_LOCK_ID})`.execute(conn);
    }
  });
}

/** Applies migrations up to and including `name` only (migration tests), under the same lock. */
export async function migrateTo(db: Db, dialect: DialectName, name: string): Promise<void> {
  const run = async (conn: Db, schema: string | undefined) => {
    const { error } = await new Migrator({ db: conn, provider: migrationProvider(dialect), ...(schema ? { migrationTableSchema: schema } : {}) }).migrateTo(name);
    if (error) throw error;
  };
  if (dialect === 'sqlite') return run(db, undefined);
  await withSchemaLock(db, async (conn) => run(conn, (await sql<{ schema: string }>`select current_schema() as schema`.execute(conn)).rows[0]?.schema));
}

/** True when the connection's own schema has applied exactly the migrations this server knows. */
async function isCurrent(db: Db, dialect: DialectName): Promise<boolean> {
  const exists =
    dialect === 'postgres'
      ? (await sql<{ found: string | null }>`select to_regclass('kysely_migration')::text as found`.execute(db)).rows[0]?.found
      : (await sql<{ found: string }>`select name as found from sqlite_master where type = 'table' and name = 'kysely_migration'`.execute(db)).rows[0]?.found;
  if (!exists) return false;
  const applied = new Set((await sql<{ name: string }>`select name from kysely_migration`.execute(db)).rows.map((r) => r.name));
  const known = Object.keys(await migrationProvider(dialect).getMigrations());
  // A database migrated by a newer server has names this one lacks: the Migrator refuses that.
  return applied.size === known.length && known.every((name) => applied.has(name));
}

/** The advisory lock that migrations and schema drops share (an arbitrary, fixed 32-bit key). */
const SCHEMA_LOCK_ID = 0x47617465; // 'Gate'

async function migrateOn(db: Db, dialect: DialectName, schema: string | undefined): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider(dialect), ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${(error as Error).message ?? String(error)}`);
}

/** Drops a PostgreSQL schema and everything in it (tests), under the lock migrations take. */
export async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  const pg = await loadPg();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [SCHEMA_LOCK_ID]);
    await client.query(`DROP SCHEMA IF EXISTS "${schema.replaceAll('"', '""')}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** Cheap liveness check used by tests and health probes. */
export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
