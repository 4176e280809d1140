/**
 * Wire schemas of the portal's notifications (issue 16 "Notifications"; seed 001 sections 3 and 7).
 * A notification is written once per tenant and category; read and pin state is each admin's own.
 */
import { z } from 'zod';
import {
  NOTIFICATIONS_MAX_PAGE_SIZE,
  NOTIFICATIONS_PAGE_SIZE,
  NotificationCategories,
  NotificationPinStatuses,
  NotificationReadStatuses,
  NotificationSeverities,
} from './notification-paths';

export * from './notification-paths';

export const Notification = z.object({
  id: z.string(),
  category: z.enum(NotificationCategories),
  severity: z.enum(NotificationSeverities),
  title: z.string(),
  body: z.string(),
  /** A portal path or URL that shows more, or null. */
  link: z.string().nullable(),
  /** Epoch milliseconds. */
  createdAt: z.number().int(),
  status: z.enum(NotificationReadStatuses),
  pinned: z.boolean(),
});
export type Notification = z.infer<typeof Notification>;

export const NotificationList = z.object({
  rows: z.array(Notification),
  /** Every notification the caller sees, not only this page. */
  total: z.number().int().min(0),
  /** The caller's unread count, over all pages. */
  unread: z.number().int().min(0),
});
export type NotificationList = z.infer<typeof NotificationList>;

export const NotificationListQuery = z.object({
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(NOTIFICATIONS_MAX_PAGE_SIZE).default(NOTIFICATIONS_PAGE_SIZE),
});
export type NotificationListQuery = z.infer<typeof NotificationListQuery>;

const notificationId = z.string().trim().min(1).max(64);

export const NotificationStatusRequest = z.object({ notificationId, status: z.enum(NotificationReadStatuses) }).strict();
export type NotificationStatusRequest = z.infer<typeof NotificationStatusRequest>;

export const NotificationPinRequest = z.object({ notificationId, status: z.enum(NotificationPinStatuses) }).strict();
export type NotificationPinRequest = z.infer<typeof NotificationPinRequest>;

/** The answer of status, pin and mark-all-read: the caller's unread count after the change. */
export const NotificationUnread = z.object({ unread: z.number().int().min(0) });
export type NotificationUnread = z.infer<typeof NotificationUnread>;
