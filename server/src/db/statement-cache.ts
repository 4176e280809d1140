import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** How many prepared statements one SQLite database keeps (the server's queries are far fewer distinct texts). */
export const STATEMENT_CACHE_SIZE = 512;

/**
 * The database as Kysely's SQLite dialect sees it, with `prepare` answered from a bounded cache:
 * Kysely prepares every statement again on each query, which cost 16% of a token grant's CPU.
 * SQLite re-prepares a cached statement by itself after a schema change, so migrations are safe.
 * A statement that is `busy` (an open `iterate()`, e.g. a streamed export) is never handed out
 * again while it runs: the caller then gets a fresh one, which replaces it in the cache.
 */
export function withStatementCache(database: BetterSqlite3.Database, size = STATEMENT_CACHE_SIZE): SqliteDatabase & { readonly cached: number } {
  // A Map iterates in insertion order: a hit is moved to the end, the first entry is the least recently used.
  const statements = new Map<string, BetterSqlite3.Statement>();
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
      const statement = database.prepare(sql);
      statements.delete(sql);
      statements.set(sql, statement);
      if (statements.size > size) statements.delete(statements.keys().next().value!);
      return statement;
    },
  };
}
