import { randomBytes } from 'node:crypto';
import type { Kysely, Migration } from 'kysely';

/**
 * Notification channels (issue 16; seed 001 sections 3 and 5): email and SMS subscriptions per event
 * key, and the tenant's Slack workspace with its channel subscriptions. Portable across SQLite and
 * PostgreSQL (timestamps epoch ms, booleans 0/1, lists as JSON text).
 *
 * - `channel_event_configs`: an event key's switch per tenant and channel ('email' | 'sms').
 * - `channel_subscriptions`: recipients of one event key; a row always has at least one recipient.
 * - `slack_workspaces`: one per tenant; the bot token sealed, never answered.
 * - `slack_subscriptions`: channel ids per event key; a row always has at least one channel.
 * - `slack_oauth_states`: hashed, single-use OAuth states bound to the tenant and the admin.
 * A tenant's removal takes all of them along.
 *
 * The channels' permission keys join the catalogue, and every existing account's built-in Admin role
 * gets all six and its Read only role the three read keys, as a new account's roles do (BuiltInRoles):
 * otherwise the admins of accounts made before this release could not open the channels at all.
 */
/** The permission keys of this migration (frozen here: later renames in the wire must not change what it did). */
const CHANNEL_PERMISSIONS = [
  { key: 'fe.connectivity.read.emailConfig', name: 'Read email config' },
  { key: 'fe.connectivity.write.emailConfig', name: 'Write email config' },
  { key: 'fe.connectivity.read.smsConfig', name: 'Read sms config' },
  { key: 'fe.connectivity.write.smsConfig', name: 'Write sms config' },
  { key: 'fe.connectivity.read.slackApp', name: 'Read slack app' },
  { key: 'fe.connectivity.write.slackApp', name: 'Write slack app' },
] as const;

async function grantToBuiltInRoles(db: Kysely<any>, roleKey: string, permissionKeys: string[]): Promise<void> {
  await db
    .insertInto('role_permissions')
    .columns(['role_id', 'permission_id'])
    .expression(
      db
        .selectFrom('roles as r')
        .innerJoin('permissions as p', (join) => join.onTrue())
        .select(['r.id as role_id', 'p.id as permission_id'])
        .where('r.key', '=', roleKey)
        .where('p.key', 'in', permissionKeys)
        .where((eb) => eb.not(eb.exists(eb.selectFrom('role_permissions as rp').select('rp.role_id').whereRef('rp.role_id', '=', 'r.id').whereRef('rp.permission_id', '=', 'p.id')))),
    )
    .execute();
}

export const channelsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('channel_event_configs')
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
      .addColumn('channel', 'text', (c) => c.notNull())
      .addColumn('event_key', 'text', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('channel_event_configs_pk', ['tenant_id', 'channel', 'event_key'])
      .execute();
    await db.schema
      .createTable('channel_subscriptions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
      .addColumn('channel', 'text', (c) => c.notNull())
      .addColumn('event_key', 'text', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('recipients', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('channel_subscriptions_by_event').on('channel_subscriptions').columns(['tenant_id', 'channel', 'event_key']).execute();
    await db.schema
      .createTable('slack_workspaces')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull().unique().references('tenants.id').onDelete('cascade'))
      .addColumn('team_id', 'text')
      .addColumn('team_name', 'text')
      .addColumn('bot_token', 'text')
      .addColumn('bot_user_id', 'text')
      .addColumn('connected_by', 'text')
      .addColumn('connected_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('slack_subscriptions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
      .addColumn('workspace_id', 'text', (c) => c.notNull().references('slack_workspaces.id').onDelete('cascade'))
      .addColumn('event_key', 'text', (c) => c.notNull())
      .addColumn('channel_ids', 'text', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('slack_subscriptions_by_event').on('slack_subscriptions').columns(['tenant_id', 'event_key']).execute();
    await db.schema
      .createTable('slack_oauth_states')
      .addColumn('state_hash', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('slack_oauth_states_by_expiry').on('slack_oauth_states').column('expires_at').execute();

    for (const permission of CHANNEL_PERMISSIONS) {
      await db
        .insertInto('permissions')
        .values({ id: randomBytes(16).toString('hex'), key: permission.key, name: permission.name, description: null, category_id: 'connectivity' })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
    }
    await grantToBuiltInRoles(db, 'Admin', CHANNEL_PERMISSIONS.map((p) => p.key));
    await grantToBuiltInRoles(db, 'ReadOnly', CHANNEL_PERMISSIONS.filter((p) => p.key.includes('.read.')).map((p) => p.key));
  },
  async down(db: Kysely<any>) {
    // The grants and catalogue entries stay: other roles may hold the keys by then, and they are harmless without the tables.
    await db.schema.dropTable('slack_oauth_states').execute();
    await db.schema.dropTable('slack_subscriptions').execute();
    await db.schema.dropTable('slack_workspaces').execute();
    await db.schema.dropTable('channel_subscriptions').execute();
    await db.schema.dropTable('channel_event_configs').execute();
  },
};
