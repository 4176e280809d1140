/** SQL of the SCIM request log (migration 029): the last N requests per connection. */
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../index';
import type { ScimRequestsTable } from '../schema-scim';

export type ScimRequestRow = Selectable<ScimRequestsTable>;

/**
 * Stores one request and drops the connection's requests older than its `keep` newest ones. The
 * order is (created_at, id) on both dialects, so equal times still drop exactly the surplus.
 */
export async function insertScimRequest(db: Db, row: Insertable<ScimRequestsTable>, keep: number): Promise<void> {
  await db.insertInto('scim_requests').values(row).execute();
  const cutoff = await db
    .selectFrom('scim_requests')
    .select(['created_at', 'id'])
    .where('connection_id', '=', row.connection_id)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(keep)
    .limit(1)
    .executeTakeFirst();
  if (!cutoff) return;
  await db
    .deleteFrom('scim_requests')
    .where('connection_id', '=', row.connection_id)
    .where((eb) => eb.or([eb('created_at', '<', cutoff.created_at), eb.and([eb('created_at', '=', cutoff.created_at), eb('id', '<=', cutoff.id)])]))
    .execute();
}

/** A page of a connection's requests, newest first, and how many it holds. */
export async function listScimRequests(db: Db, connectionId: string, offset: number, limit: number): Promise<{ rows: ScimRequestRow[]; total: number }> {
  const rows = await db
    .selectFrom('scim_requests')
    .selectAll()
    .where('connection_id', '=', connectionId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();
  const count = await db.selectFrom('scim_requests').select((eb) => eb.fn.countAll<number | string>().as('n')).where('connection_id', '=', connectionId).executeTakeFirstOrThrow();
  return { rows, total: Number(count.n) };
}
