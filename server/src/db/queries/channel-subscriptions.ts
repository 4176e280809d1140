/** SQL of the email and SMS channels (migration 035): event-key switches and subscriptions, always by tenant and channel. */
import type { Db } from '..';
import type { ChannelEventConfigsTable, ChannelSubscriptionsTable } from '../schema-channels';
import { precompiled, type Params } from '../precompiled';

export type ChannelEventConfigRow = ChannelEventConfigsTable;
export type ChannelSubscriptionRow = ChannelSubscriptionsTable;
export type StoredChannel = 'email' | 'sms';

/** The tenant's event-key switches on one channel, by key. */
export async function listChannelEventConfigs(db: Db, tenantId: string, channel: StoredChannel): Promise<ChannelEventConfigRow[]> {
  return db.selectFrom('channel_event_configs').selectAll().where('tenant_id', '=', tenantId).where('channel', '=', channel).orderBy('event_key').execute();
}

export async function findChannelEventConfig(db: Db, tenantId: string, channel: StoredChannel, eventKey: string): Promise<ChannelEventConfigRow | undefined> {
  return db.selectFrom('channel_event_configs').selectAll().where('tenant_id', '=', tenantId).where('channel', '=', channel).where('event_key', '=', eventKey).executeTakeFirst();
}

export async function insertChannelEventConfig(db: Db, row: ChannelEventConfigRow): Promise<void> {
  await db.insertInto('channel_event_configs').values(row).execute();
}

export async function updateChannelEventConfig(db: Db, tenantId: string, channel: StoredChannel, eventKey: string, patch: Pick<ChannelEventConfigRow, 'enabled' | 'updated_at'>): Promise<void> {
  await db.updateTable('channel_event_configs').set(patch).where('tenant_id', '=', tenantId).where('channel', '=', channel).where('event_key', '=', eventKey).execute();
}

/** The tenant's subscriptions on one channel (one event key when given), oldest first. */
export async function listChannelSubscriptions(db: Db, tenantId: string, channel: StoredChannel, eventKey?: string): Promise<ChannelSubscriptionRow[]> {
  let q = db.selectFrom('channel_subscriptions').selectAll().where('tenant_id', '=', tenantId).where('channel', '=', channel);
  if (eventKey !== undefined) q = q.where('event_key', '=', eventKey);
  return q.orderBy('created_at').orderBy('id').execute();
}

export async function findChannelSubscription(db: Db, tenantId: string, channel: StoredChannel, eventKey: string, id: string): Promise<ChannelSubscriptionRow | undefined> {
  return db
    .selectFrom('channel_subscriptions')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('channel', '=', channel)
    .where('event_key', '=', eventKey)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function insertChannelSubscription(db: Db, row: ChannelSubscriptionRow): Promise<void> {
  await db.insertInto('channel_subscriptions').values(row).execute();
}

export async function updateChannelSubscription(db: Db, tenantId: string, id: string, patch: Pick<ChannelSubscriptionRow, 'enabled' | 'recipients' | 'updated_at'>): Promise<void> {
  await db.updateTable('channel_subscriptions').set(patch).where('tenant_id', '=', tenantId).where('id', '=', id).execute();
}

export async function deleteChannelSubscription(db: Db, tenantId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('channel_subscriptions').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * The enabled subscriptions of an event on both channels whose event-key switch is on (a key with no
 * switch row counts as on: subscriptions can only be made through a save, which writes the switch).
 */
export async function listDeliverableChannelSubscriptions(db: Db, tenantId: string, eventKey: string): Promise<ChannelSubscriptionRow[]> {
  return (await deliverableChannelSubscriptions(db, { tenantId, eventKey })).rows;
}

const deliverableChannelSubscriptions = precompiled((db, p: Params<{ tenantId: string; eventKey: string }>) =>
  db
    .selectFrom('channel_subscriptions as s')
    .leftJoin('channel_event_configs as c', (join) => join.onRef('c.tenant_id', '=', 's.tenant_id').onRef('c.channel', '=', 's.channel').onRef('c.event_key', '=', 's.event_key'))
    .selectAll('s')
    .where('s.tenant_id', '=', p.tenantId)
    .where('s.event_key', '=', p.eventKey)
    .where('s.enabled', '=', 1)
    .where((eb) => eb.or([eb('c.enabled', 'is', null), eb('c.enabled', '=', 1)]))
    .orderBy('s.created_at')
    .orderBy('s.id'),
);

/** One subscription by id in a tenant (the delivery re-reads it before sending). */
export async function findChannelSubscriptionById(db: Db, tenantId: string, id: string): Promise<ChannelSubscriptionRow | undefined> {
  return db.selectFrom('channel_subscriptions').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}
