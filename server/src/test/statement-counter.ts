import type { CompiledQuery } from 'kysely';
import type { Db } from '../db';
import { isWrite, observeStatements } from '../db/statement-observer';

export interface StatementCount {
  /** Statements run (transaction control, i.e. begin/commit/rollback/savepoints, not included). */
  total: number;
  /** Of those, the ones that write: insert, update, delete, upsert, merge. */
  writes: number;
  /** Their SQL text, in the order they ran. */
  sql: string[];
}

/**
 * Counts the statements `db` runs while `work` runs, including those server code issues on the same
 * instance (pass `server.db` and make the HTTP call through `server.fetch` inside `work`). Everything
 * the Db runs meanwhile is counted, so nothing else should be using it.
 */
export async function countStatements(db: Db, work: () => Promise<unknown>): Promise<StatementCount> {
  const count: StatementCount = { total: 0, writes: 0, sql: [] };
  const stop = observeStatements(db, (query) => {
    count.total += 1;
    if (isWrite(query)) count.writes += 1;
    count.sql.push(query.sql);
  });
  try {
    await work();
  } finally {
    stop();
  }
  return count;
}

export { isWrite } from '../db/statement-observer';
