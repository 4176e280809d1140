/**
 * The portal's notifications (issue 16 "Notifications": security events, webhook endpoint disabled,
 * subscription issues; seed 001 sections 3 and 7: read, unread, pinned, unpinned, mark-all-read).
 *
 * A notification is written once for a tenant and a category; its readers are resolved when it is
 * read, from the reader's permissions at that moment: the tenant's admins holding a key of the
 * category (below), and super users acting in the tenant. So an admin who gets the permission later
 * sees earlier notifications too, and one who loses it stops seeing them. Read and pin state is each
 * reader's own (`notification_states`).
 */
import type { Notification, NotificationCategory, NotificationList, NotificationSeverity } from '@gatehouse/shared/wire';
import { NOTIFICATION_AUDIENCE, NotificationCategories } from '@gatehouse/shared/wire';
import { newId } from '../../crypto';
import type { Db } from '../../db';
import {
  countReaderNotifications,
  findReaderNotification,
  insertNotification,
  listReaderNotifications,
  markAllNotificationsRead,
  setNotificationState,
  type ReaderNotificationRow,
  type ReaderScope,
} from '../../db/queries/notifications';
import { Errors } from '../../errors';
import { covers } from '../admin/permissions';


/** What a notification says; `link` is a portal path or URL (optional). */
export interface NotificationInput {
  tenantId: string;
  category: NotificationCategory;
  severity: NotificationSeverity;
  title: string;
  body: string;
  link?: string | null;
}

const TITLE_MAX = 200;
const BODY_MAX = 2000;

/**
 * Writes a notification for the tenant's admins of `category`. `db` may be a transaction: the
 * notification commits with the change that raised it. `dedupeKey` is for rules that want one
 * notification per window (see notification-rules.ts).
 */
export async function notifyTenantAdmins(db: Db, input: NotificationInput & { dedupeKey?: string | null }, now: number): Promise<void> {
  if (!NotificationCategories.includes(input.category)) throw new Error(`notifyTenantAdmins: unknown category ${String(input.category)}`);
  await insertNotification(db, {
    id: newId(),
    tenant_id: input.tenantId,
    category: input.category,
    severity: input.severity,
    title: input.title.slice(0, TITLE_MAX),
    body: input.body.slice(0, BODY_MAX),
    link: input.link ?? null,
    dedupe_key: input.dedupeKey ?? null,
    created_at: now,
  });
  notificationChanges.bump(input.tenantId);
}

/** The reader of notifications: a user acting in a tenant with these keys (the admin guard's result). */
export interface NotificationReader {
  userId: string;
  tenantId: string;
  superUser: boolean;
  keys: readonly string[];
}

/** The categories a reader sees; empty when none. */
export function readerCategories(reader: Pick<NotificationReader, 'superUser' | 'keys'>): NotificationCategory[] {
  if (reader.superUser) return [...NotificationCategories];
  return NotificationCategories.filter((category) => NOTIFICATION_AUDIENCE[category].some((key) => covers(reader.keys, key)));
}

function scopeOf(reader: NotificationReader): ReaderScope {
  return { tenantId: reader.tenantId, userId: reader.userId, categories: readerCategories(reader) };
}

function toWire(row: ReaderNotificationRow): Notification {
  return {
    id: row.id,
    category: row.category as NotificationCategory,
    severity: row.severity as NotificationSeverity,
    title: row.title,
    body: row.body,
    link: row.link,
    createdAt: Number(row.created_at),
    status: row.read_at === null ? 'unread' : 'read',
    pinned: row.pinned_at !== null,
  };
}

const notFound = () => Errors.notFound('Notification not found');

/** The reader's page (pinned first, then newest) with their totals. */
export async function listNotifications(db: Db, reader: NotificationReader, page: { offset: number; limit: number }): Promise<NotificationList> {
  const scope = scopeOf(reader);
  const [rows, counts] = await Promise.all([listReaderNotifications(db, scope, page), countReaderNotifications(db, scope)]);
  return { rows: rows.map(toWire), total: counts.total, unread: counts.unread };
}

/** The reader's unread count. */
export async function unreadCount(db: Db, reader: NotificationReader): Promise<number> {
  return (await countReaderNotifications(db, scopeOf(reader))).unread;
}

/** Marks one notification read or unread for the reader; 404 when they do not see it. */
export async function setReadStatus(db: Db, reader: NotificationReader, notificationId: string, status: 'read' | 'unread', now: number): Promise<number> {
  const scope = scopeOf(reader);
  const row = await findReaderNotification(db, scope, notificationId);
  if (!row) throw notFound();
  const readAt = status === 'read' ? (row.read_at ?? now) : null;
  await setNotificationState(db, { notificationId: row.id, userId: reader.userId, readAt, now });
  notificationChanges.bump(reader.tenantId);
  return (await countReaderNotifications(db, scope)).unread;
}

/** Pins or unpins one notification for the reader; 404 when they do not see it. */
export async function setPinStatus(db: Db, reader: NotificationReader, notificationId: string, status: 'pinned' | 'unpinned', now: number): Promise<number> {
  const scope = scopeOf(reader);
  const row = await findReaderNotification(db, scope, notificationId);
  if (!row) throw notFound();
  const pinnedAt = status === 'pinned' ? (row.pinned_at ?? now) : null;
  await setNotificationState(db, { notificationId: row.id, userId: reader.userId, pinnedAt, now });
  return (await countReaderNotifications(db, scope)).unread;
}

/** Every notification the reader sees becomes read; answers their unread count after (0). */
export async function markAllRead(db: Db, reader: NotificationReader, now: number): Promise<number> {
  const scope = scopeOf(reader);
  await markAllNotificationsRead(db, scope, now);
  notificationChanges.bump(reader.tenantId);
  return (await countReaderNotifications(db, scope)).unread;
}

/**
 * In-process change signal per tenant: the stream wakes at once on a change made by this process,
 * and checks the database on its interval for changes made by other processes.
 */
class NotificationChanges {
  private readonly listeners = new Map<string, Set<() => void>>();

  bump(tenantId: string): void {
    for (const listener of this.listeners.get(tenantId) ?? []) listener();
  }

  /** Calls `listener` after each change in the tenant; answers the unsubscribe. */
  subscribe(tenantId: string, listener: () => void): () => void {
    let set = this.listeners.get(tenantId);
    if (!set) this.listeners.set(tenantId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(tenantId);
    };
  }
}

export const notificationChanges = new NotificationChanges();
