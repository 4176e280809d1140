import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../index';
import type { NotificationsTable } from '../schema-notifications';

export type NotificationRow = Selectable<NotificationsTable>;

/** A notification with one reader's state. */
export interface ReaderNotificationRow extends NotificationRow {
  read_at: number | null;
  pinned_at: number | null;
}

/** What a reader sees: the notifications of one tenant in these categories, with the reader's state. */
export interface ReaderScope {
  tenantId: string;
  userId: string;
  categories: readonly string[];
}

export async function insertNotification(db: Db, row: Insertable<NotificationsTable>): Promise<void> {
  await db.insertInto('notifications').values(row).execute();
}

/** True when the tenant has a notification with this dedupe key written at or after `since`. */
export async function hasRecentNotification(db: Db, tenantId: string, dedupeKey: string, since: number): Promise<boolean> {
  const row = await db
    .selectFrom('notifications')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('dedupe_key', '=', dedupeKey)
    .where('created_at', '>=', since)
    .limit(1)
    .executeTakeFirst();
  return Boolean(row);
}

function visible(db: Db, scope: ReaderScope) {
  return db
    .selectFrom('notifications')
    .leftJoin('notification_states', (j) => j.onRef('notification_states.notification_id', '=', 'notifications.id').on('notification_states.user_id', '=', scope.userId))
    .where('notifications.tenant_id', '=', scope.tenantId)
    .where('notifications.category', 'in', scope.categories.length > 0 ? [...scope.categories] : ['\u0000none']);
}

/** One page for the reader: pinned first, then newest first. */
export function listReaderNotifications(db: Db, scope: ReaderScope, page: { offset: number; limit: number }): Promise<ReaderNotificationRow[]> {
  return visible(db, scope)
    .selectAll('notifications')
    .select(['notification_states.read_at as read_at', 'notification_states.pinned_at as pinned_at'])
    .orderBy(sql`case when notification_states.pinned_at is null then 1 else 0 end`)
    .orderBy('notifications.created_at', 'desc')
    .orderBy('notifications.id', 'desc')
    .offset(page.offset)
    .limit(page.limit)
    .execute();
}

/** The reader's total and unread counts. */
export async function countReaderNotifications(db: Db, scope: ReaderScope): Promise<{ total: number; unread: number }> {
  const row = await visible(db, scope)
    .select((eb) => [
      eb.fn.countAll<number | string>().as('total'),
      eb.fn.sum<number | string | null>(sql`case when notification_states.read_at is null then 1 else 0 end`).as('unread'),
    ])
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), unread: Number(row.unread ?? 0) };
}

/** The notification if the reader sees it (their tenant and a category of theirs), else undefined. */
export function findReaderNotification(db: Db, scope: ReaderScope, id: string): Promise<ReaderNotificationRow | undefined> {
  return visible(db, scope)
    .selectAll('notifications')
    .select(['notification_states.read_at as read_at', 'notification_states.pinned_at as pinned_at'])
    .where('notifications.id', '=', id)
    .executeTakeFirst();
}

/** Sets the reader's state of one notification (a field left undefined keeps its value). */
export async function setNotificationState(db: Db, q: { notificationId: string; userId: string; readAt?: number | null; pinnedAt?: number | null; now: number }): Promise<void> {
  const changes = { ...(q.readAt !== undefined ? { read_at: q.readAt } : {}), ...(q.pinnedAt !== undefined ? { pinned_at: q.pinnedAt } : {}), updated_at: q.now };
  await db
    .insertInto('notification_states')
    .values({ notification_id: q.notificationId, user_id: q.userId, read_at: q.readAt ?? null, pinned_at: q.pinnedAt ?? null, updated_at: q.now })
    .onConflict((oc) => oc.columns(['notification_id', 'user_id']).doUpdateSet(changes))
    .execute();
}

/** Marks every notification the reader sees as read; answers how many changed. */
export async function markAllNotificationsRead(db: Db, scope: ReaderScope, now: number): Promise<number> {
  const ids = db
    .selectFrom('notifications')
    .select('notifications.id')
    .where('notifications.tenant_id', '=', scope.tenantId)
    .where('notifications.category', 'in', scope.categories.length > 0 ? [...scope.categories] : ['\u0000none']);
  const updated = await db
    .updateTable('notification_states')
    .set({ read_at: now, updated_at: now })
    .where('user_id', '=', scope.userId)
    .where('read_at', 'is', null)
    .where('notification_id', 'in', ids)
    .executeTakeFirst();
  const inserted = await db
    .insertInto('notification_states')
    .columns(['notification_id', 'user_id', 'read_at', 'updated_at'])
    .expression(
      ids
        // Typed casts: PostgreSQL cannot infer a bare parameter's type in INSERT ... SELECT.
        .select([sql<string>`cast(${scope.userId} as text)`.as('user_id'), sql<number>`cast(${now} as bigint)`.as('read_at'), sql<number>`cast(${now} as bigint)`.as('updated_at')])
        .where((eb) =>
          eb.not(eb.exists(eb.selectFrom('notification_states as s').select('s.notification_id').whereRef('s.notification_id', '=', 'notifications.id').where('s.user_id', '=', scope.userId))),
        ),
    )
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) + Number(inserted.numInsertedOrUpdatedRows ?? 0);
}

/** Events of one key raised in the tenant within [from, to] (the `events` outbox of migration 033). */
export async function countTenantEvents(db: Db, q: { tenantId: string; eventKey: string; from: number; to: number }): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('tenant_id', '=', q.tenantId)
    .where('event_key', '=', q.eventKey)
    .where('occurred_at', '>=', q.from)
    .where('occurred_at', '<=', q.to)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Deletes up to `limit` notifications made before `cutoff` that no reader pinned (their read states go with them); answers how many. */
export async function pruneOldNotifications(db: Db, cutoff: number, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('notifications')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('notifications as n')
        .select('n.id')
        .where('n.created_at', '<', cutoff)
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('notification_states as s').select('s.notification_id').whereRef('s.notification_id', '=', 'n.id').where('s.pinned_at', 'is not', null))))
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
