import type { Kysely, Migration } from 'kysely';

/**
 * The portal's notifications (issue 16 "Notifications"). One `notifications` row per tenant and
 * category (security, webhooks, billing): who sees it is decided when it is read, from the reader's
 * permissions then, so an admin added later sees it too. `notification_states` holds each reader's
 * own read and pin state; no row means unread and unpinned. `dedupe_key` lets a rule (a burst of
 * failed sign-ins) write one notification per window instead of one per event.
 */
export const notificationsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('notifications')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
      .addColumn('category', 'text', (c) => c.notNull())
      .addColumn('severity', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('link', 'text')
      .addColumn('dedupe_key', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('notifications_by_tenant').on('notifications').columns(['tenant_id', 'category', 'created_at']).execute();
    await db.schema.createIndex('notifications_by_dedupe').on('notifications').columns(['tenant_id', 'dedupe_key', 'created_at']).execute();
    await db.schema
      .createTable('notification_states')
      .addColumn('notification_id', 'text', (c) => c.notNull().references('notifications.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('read_at', 'bigint')
      .addColumn('pinned_at', 'bigint')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('notification_states_pk', ['notification_id', 'user_id'])
      .execute();
    await db.schema.createIndex('notification_states_by_user').on('notification_states').columns(['user_id', 'notification_id']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('notification_states').execute();
    await db.schema.dropTable('notifications').execute();
  },
};
