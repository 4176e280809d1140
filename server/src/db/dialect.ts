import { PostgresAdapter } from 'kysely';
import type { Db } from './index';

/** True when `db` (or a transaction or connection of it) runs on PostgreSQL, false on SQLite. */
export function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
