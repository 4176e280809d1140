import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** How many prepared statements one SQLite database keeps (the server's queries are far fewer distinct texts). */
export const STATEMENT_CACHE_SIZE = 512;

/** Statements that change the schema: after one, every reader reads its columns' names again. */
const SCHEMA_CHANGE = /^\s*(create|alter|drop)\b/i;

/** What Kysely's SQLite connection calls on a statement. */
type CachedStatement = Pick<BetterSqlite3.Statement, 'reader' | 'busy' | 'all' | 'run' | 'iterate'>;

/**
 * The database as Kysely's SQLite dialect sees it, with `prepare` answered from a bounded cache:
 * Kysely prepares every statement again on each query, which cost 16% of a token grant's CPU.
 * SQLite re-prepares a cached statement by itself after a schema change, so migrations are safe.
 * A statement that is `busy` (an open `iterate()`, e.g. a streamed export) is never handed out
 * again while it runs: the caller then gets a fresh one, which replaces it in the cache.
 */
export function withStatementCache(database: BetterSqlite3.Database, size = STATEMENT_CACHE_SIZE): SqliteDatabase & { readonly cached: number } {
  // A Map iterates in insertion order: a hit is moved to the end, the first entry is the least recently used.
  const statements = new Map<string, CachedStatement>();
  const schema = { generation: 0 };
  return {
    get cached() {
      return statements.size;
    },
    close: () => {
      statements.clear();
      database.close();
    },
    prepare(sql: string) {
      const hit = statements.get(sql);
      if (hit && !hit.busy) {
        statements.delete(sql);
        statements.set(sql, hit);
        return hit;
      }
      const prepared = database.prepare(sql);
      const statement = prepared.reader ? rowsBuiltOnce(prepared, schema) : SCHEMA_CHANGE.test(sql) ? changesSchema(prepared, schema) : prepared;
      statements.delete(sql);
      statements.set(sql, statement);
      if (statements.size > size) statements.delete(statements.keys().next().value!);
      return statement;
    },
  };
}

/** A schema statement: each run moves the generation on, so every reader reads its columns' names again. */
function changesSchema(statement: BetterSqlite3.Statement, schema: { generation: number }): CachedStatement {
  return {
    reader: false,
    get busy() {
      return statement.busy;
    },
    all: (...params: unknown[]) => statement.all(...params),
    iterate: (...params: unknown[]) => statement.iterate(...params),
    run(...params: unknown[]) {
      try {
        return statement.run(...params);
      } finally {
        schema.generation += 1;
      }
    },
  } as CachedStatement;
}

/**
 * A reader whose rows are built from SQLite's values by a function made once for its columns (issue
 * 17). better-sqlite3 builds each row object by looking up every column's name in V8's string table
 * and adding the properties one by one: 5.5% of a refresh's main thread went there, for its one
 * wide row. Here the statement answers arrays (`raw`), and one object literal per row, with the
 * columns as its keys in their order, makes the same object: same keys, same order, same values (a
 * name that repeats keeps its first place and its last value, as better-sqlite3 does).
 *
 * The names are read again when the schema may have changed under the statement (SQLite prepares
 * it again by itself, and `select *` then answers other columns): after a schema statement through
 * this cache (a migration), and whenever a row's length differs from the names'.
 */
function rowsBuiltOnce(statement: BetterSqlite3.Statement, schema: { readonly generation: number }): CachedStatement {
  type Build = (values: unknown[]) => Record<string, unknown>;
  let generation = -1;
  let width = -1;
  let build: Build = () => ({});
  const builderFor = (values: unknown[]): Build => {
    if (generation !== schema.generation || values.length !== width) {
      const names = statement.columns().map((c) => c.name);
      generation = schema.generation;
      width = names.length;
      // Keys are JSON string literals, so any name is quoted and escaped: the source is only ever an
      // object literal. `__proto__` is a computed key, which makes a property (a literal one would set the prototype).
      const keys = names.map((name, i) => `${name === '__proto__' ? '["__proto__"]' : JSON.stringify(name)}: v[${i}]`);
      build = new Function('v', `return {${keys.join(', ')}};`) as Build;
    }
    return build;
  };
  statement.raw(true);
  return {
    reader: true,
    get busy() {
      return statement.busy;
    },
    all(...params: unknown[]) {
      const rows = statement.all(...params) as unknown[][];
      if (rows.length === 0) return rows;
      return rows.map(builderFor(rows[0]!));
    },
    *iterate(...params: unknown[]) {
      let make: Build | null = null;
      for (const values of statement.iterate(...params) as IterableIterator<unknown[]>) {
        make ??= builderFor(values);
        yield make(values);
      }
    },
    run: (...params: unknown[]) => statement.run(...params),
  } as CachedStatement;
}
