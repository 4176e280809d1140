/**
 * Paths, states and limits of the portal's notifications (issue 16 "Notifications"; seed 001
 * sections 3 and 7: read, unread, pinned, unpinned, mark-all-read). Plain data, no zod, so the admin
 * portal's bell imports it at run time; the schemas are in notifications.ts.
 */
import { Permissions } from '../admin/permissions';

const base = '/notifications/resources/notifications/v1';

export const NotificationPaths = {
  /** GET `?offset=0&limit=20`: the caller's notifications (pinned first, then newest), `{ rows, total, unread }`. */
  list: base,
  /** PUT `{ notificationId, status: 'read' | 'unread' }`. */
  status: `${base}/status`,
  /** PUT `{ notificationId, status: 'pinned' | 'unpinned' }`. */
  pin: `${base}/pin`,
  /** POST: every notification the caller sees becomes read. */
  markAllRead: `${base}/mark-all-read`,
  /** GET: server-sent events, `event: unread` with `{ unread }` on connect and on every change. */
  stream: `${base}/stream`,
} as const;

/** Who a notification is for: the tenant's admins holding a permission of its category (see notifications.md). */
export const NotificationCategories = ['security', 'webhooks', 'billing'] as const;
export type NotificationCategory = (typeof NotificationCategories)[number];

/**
 * Who sees a category: the tenant's members holding any of these keys (and super users), decided
 * when the notification is read. The server filters by it; the portal shows the bell to holders.
 */
export const NOTIFICATION_AUDIENCE: Readonly<Record<NotificationCategory, readonly string[]>> = {
  security: [Permissions.securityPolicyRead, Permissions.auditsRead],
  webhooks: [Permissions.webhooksRead],
  billing: [Permissions.subscriptionsRead],
};
/** Every key that lets its holder read some category. */
export const NOTIFICATION_READER_PERMISSIONS: readonly string[] = [...new Set(Object.values(NOTIFICATION_AUDIENCE).flat())];

export const NotificationSeverities = ['info', 'warning', 'critical'] as const;
export type NotificationSeverity = (typeof NotificationSeverities)[number];

export const NotificationReadStatuses = ['read', 'unread'] as const;
export type NotificationReadStatus = (typeof NotificationReadStatuses)[number];
export const NotificationPinStatuses = ['pinned', 'unpinned'] as const;
export type NotificationPinStatus = (typeof NotificationPinStatuses)[number];

/** Default and largest page of the list. */
export const NOTIFICATIONS_PAGE_SIZE = 20;
export const NOTIFICATIONS_MAX_PAGE_SIZE = 100;
/** Open streams one user may hold; a new one beyond it closes their oldest. */
export const MAX_NOTIFICATION_STREAMS_PER_USER = 3;
/** Without the stream, the bell asks no more often than this (issue 16: "no faster than once a minute"). */
export const NOTIFICATIONS_POLL_MS = 60_000;
/** The stream's event names. */
export const NotificationStreamEvents = { unread: 'unread' } as const;
