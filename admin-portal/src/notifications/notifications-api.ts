/** The notification bell's calls (issue 16 "Notifications"), through the portal's API client. */
import { NOTIFICATIONS_PAGE_SIZE, NotificationPaths } from '@gatehouse/shared/admin-paths';
import type { NotificationList } from '@gatehouse/shared/wire';
import type { GatehouseApi } from '../contract';

export type { Notification, NotificationList } from '@gatehouse/shared/wire';

export interface NotificationsApi {
  list(offset?: number, limit?: number): Promise<NotificationList>;
  setStatus(notificationId: string, status: 'read' | 'unread'): Promise<{ unread: number }>;
  setPin(notificationId: string, status: 'pinned' | 'unpinned'): Promise<{ unread: number }>;
  markAllRead(): Promise<{ unread: number }>;
  /** The server-sent events of the unread count. */
  stream(): Promise<ReadableStream<Uint8Array>>;
}

export function createNotificationsApi(api: GatehouseApi): NotificationsApi {
  return {
    list: (offset = 0, limit = NOTIFICATIONS_PAGE_SIZE) => api.request<NotificationList>('GET', NotificationPaths.list, { query: { offset, limit } }),
    setStatus: (notificationId, status) => api.request('PUT', NotificationPaths.status, { body: { notificationId, status } }),
    setPin: (notificationId, status) => api.request('PUT', NotificationPaths.pin, { body: { notificationId, status } }),
    markAllRead: () => api.request('POST', NotificationPaths.markAllRead),
    stream: () => api.request<ReadableStream<Uint8Array>>('GET', NotificationPaths.stream, { responseType: 'stream' }),
  };
}
