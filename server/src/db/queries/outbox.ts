import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../index';
import type { OutboxTable } from '../schema';
import type { OutboxAttachmentsTable } from '../schema-reports';

export type OutboxRow = Selectable<OutboxTable>;

export async function insertOutbox(db: Db, row: Insertable<OutboxTable>): Promise<void> {
  await db.insertInto('outbox').values(row).execute();
}

/** Files of a dev-outbox email (migration 037). */
export async function insertOutboxAttachments(db: Db, rows: Insertable<OutboxAttachmentsTable>[]): Promise<void> {
  if (rows.length) await db.insertInto('outbox_attachments').values(rows).execute();
}

/** The files of dev-outbox emails, oldest first per email. */
export function listOutboxAttachments(db: Db, outboxIds: readonly string[]): Promise<Selectable<OutboxAttachmentsTable>[]> {
  if (outboxIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('outbox_attachments').selectAll().where('outbox_id', 'in', outboxIds).orderBy('id').execute();
}

/** Newest first; id breaks ties between messages of the same millisecond. */
export function listOutbox(db: Db, limit = 200): Promise<OutboxRow[]> {
  return db.selectFrom('outbox').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}
