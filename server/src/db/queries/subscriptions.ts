/** A tenant's subscriptions (migration 028). The current one and the effective plan are in tenant-plan.ts. */
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '..';
import type { SubscriptionsTable } from '../schema-billing';

export type SubscriptionRecord = Selectable<SubscriptionsTable>;

/** The tenant's subscriptions, newest first. */
export function listSubscriptions(db: Db, tenantId: string): Promise<SubscriptionRecord[]> {
  return db.selectFrom('subscriptions').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

/** Whether the tenant ever had a subscription with a trial (one trial per tenant). */
export async function hasHadTrial(db: Db, tenantId: string): Promise<boolean> {
  const row = await db.selectFrom('subscriptions').select('id').where('tenant_id', '=', tenantId).where('trial_end', 'is not', null).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** One subscription of the tenant (another tenant's is never found). */
export function findSubscription(db: Db, tenantId: string, id: string): Promise<SubscriptionRecord | undefined> {
  return db.selectFrom('subscriptions').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}

export function findSubscriptionByExternalId(db: Db, externalId: string): Promise<SubscriptionRecord | undefined> {
  return db.selectFrom('subscriptions').selectAll().where('external_id', '=', externalId).executeTakeFirst();
}

/** Inserts the subscription unless its Stripe id is already stored; answers whether it was inserted. */
export async function insertSubscription(db: Db, row: Insertable<SubscriptionsTable>): Promise<boolean> {
  const res = await db.insertInto('subscriptions').values(row).onConflict((oc) => oc.column('external_id').doNothing()).executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * Applies a change from Stripe unless the row already holds a newer one: only when the row's
 * `source_updated_at` is not after `sourceTime`. A canceled subscription is final at Stripe (it is
 * never active again), so no other status replaces 'canceled': Stripe's times are whole seconds,
 * and an update of the cancellation's second delivered after it must not revive it. Answers
 * whether it changed anything.
 */
export async function updateSubscriptionFromSource(db: Db, id: string, sourceTime: number, patch: Updateable<SubscriptionsTable>): Promise<boolean> {
  let query = db
    .updateTable('subscriptions')
    .set({ ...patch, source_updated_at: sourceTime })
    .where('id', '=', id)
    .where('source_updated_at', '<=', sourceTime);
  if (patch.status !== undefined && patch.status !== 'canceled') query = query.where('status', '!=', 'canceled');
  const res = await query.executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** A local change (not from Stripe): the payment method on file. */
export async function setSubscriptionPaymentMethod(db: Db, id: string, paymentMethodId: string, now: number): Promise<void> {
  await db.updateTable('subscriptions').set({ payment_method_id: paymentMethodId, updated_at: now }).where('id', '=', id).execute();
}
