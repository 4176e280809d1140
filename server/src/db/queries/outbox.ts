import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../index';
import type { OutboxTable } from '../schema';

export type OutboxRow = Selectable<OutboxTable>;

export async function insertOutbox(db: Db, row: Insertable<OutboxTable>): Promise<void> {
  await db.insertInto('outbox').values(row).execute();
}

/** Newest first; id breaks ties between messages of the same millisecond. */
export function listOutbox(db: Db, limit = 200): Promise<OutboxRow[]> {
  return db.selectFrom('outbox').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}
