import { createHash } from 'node:crypto';
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';

/**
 * Each connection's preparing wrapper, kept with the connection: a pool that outlives a Db (the test
 * harness shares one between the servers a file starts) hands the next Db the same connections, and
 * they keep what they have prepared and count toward one bound.
 */
const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();

/**
 * PostgreSQL named prepared statements (issue 17): each pooled connection parses and plans a
 * statement once, then only binds and runs it. Planning was most of PostgreSQL's CPU per request:
 * 0.64 ms of the 0.69 ms a refresh's joined read cost, 0.52 of 0.56 ms for a user's roles.
 *
 * - A statement's name is a hash of its text, so the same text has one name in every connection.
 * - Statements with a list of values (`in (...)`), whose texts vary with the list's length, and
 *   statements without parameters run unnamed; each connection names at most `max` texts, then runs
 *   the rest unnamed, so a connection's prepared statements stay bounded.
 * - A prepared `select *` fails with "cached plan must not change result type" once a migration
 *   (e.g. of a newer version in a rolling deploy) adds a column. That text then gets a new name in
 *   that connection, and the statement is run again when no transaction was open; inside one, the
 *   transaction fails as it would have, and its retry succeeds.
 * - Behind a pooler that hands one session's statements to several servers' connections (PgBouncer's
 *   transaction mode before 1.21), turn this off: DATABASE_PREPARED_STATEMENTS=off.
 */
export function withPreparedStatements(pool: Pick<pg.Pool, 'connect' | 'end'>, options: { max: number }): PostgresPool {
  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) {
        wrapper = preparingClient(client, options.max);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}

/** The texts that are never named: value lists, whose number of placeholders varies. */
const VARYING = /\bin \(/i;
const STALE_PLAN_CODE = '0A000';
const STALE_PLAN = /cached plan must not change result type/i;


/** Statement names by text, shared by connections (bounded: texts beyond it are hashed each time). */
const names = new Map<string, string>();
const NAMES_KEPT = 5_000;

function nameOf(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `gh_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    if (names.size < NAMES_KEPT) names.set(text, name);
  }
  return name;
}

function preparingClient(client: pg.PoolClient, max: number): PostgresPoolClient {
  // Texts this connection has named (their name, with a suffix once a plan went stale).
  const named = new Map<string, string>();
  let inTransaction = false;

  async function run<R>(text: string, values: unknown[]): Promise<PostgresQueryResult<R>> {
    if (/^\s*(begin|start transaction)\b/i.test(text)) inTransaction = true;
    else if (/^\s*(commit|rollback)\s*$/i.test(text)) inTransaction = false;
    let name = named.get(text);
    if (!name) {
      if (values.length === 0 || named.size >= max || VARYING.test(text)) return client.query(text, values) as unknown as Promise<PostgresQueryResult<R>>;
      name = nameOf(text);
      named.set(text, name);
    }
    try {
      return (await client.query({ name, text, values })) as unknown as PostgresQueryResult<R>;
    } catch (err) {
      const e = err as { code?: string; message?: string };
      if (e.code !== STALE_PLAN_CODE || !STALE_PLAN.test(e.message ?? '')) throw err;
      // This connection's plan of the text is stale: a new name makes it parse again next time.
      named.set(text, `${name}_${Date.now().toString(36)}`);
      if (inTransaction) throw err;
      return run(text, values);
    }
  }

  return {
    query(sqlOrCursor: string | PostgresCursor<unknown>, parameters?: ReadonlyArray<unknown>) {
      if (typeof sqlOrCursor !== 'string') return client.query(sqlOrCursor as never);
      return run(sqlOrCursor, [...(parameters ?? [])]);
    },
    release: () => client.release(),
  } as PostgresPoolClient;
}
