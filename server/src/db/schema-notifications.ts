/** The tables of migration 036 (notifications), merged into `Database` (schema.ts). */
export interface NotificationsTable {
  id: string;
  tenant_id: string;
  /** 'security' | 'webhooks' | 'billing': decides who sees it (services/connectivity/notifications.ts). */
  category: string;
  /** 'info' | 'warning' | 'critical'. */
  severity: string;
  title: string;
  body: string;
  link: string | null;
  /** Set by rules that write one notification per window (e.g. a burst of failed sign-ins). */
  dedupe_key: string | null;
  created_at: number;
}

/** One reader's state of one notification; no row: unread and unpinned. */
export interface NotificationStatesTable {
  notification_id: string;
  user_id: string;
  read_at: number | null;
  pinned_at: number | null;
  updated_at: number;
}

export interface NotificationTables {
  notifications: NotificationsTable;
  notification_states: NotificationStatesTable;
}
