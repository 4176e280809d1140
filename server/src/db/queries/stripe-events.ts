/** The Stripe events applied (migration 028), so a replayed event is applied once. */
import type { Db } from '..';

/** Records the event; false when it was recorded before (a replay). Run it in the transaction of the change the event makes. */
export async function recordStripeEvent(db: Db, event: { id: string; type: string; created: number }, now: number): Promise<boolean> {
  const res = await db
    .insertInto('stripe_events')
    .values({ id: event.id, type: event.type, created: event.created, received_at: now })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function countStripeEvents(db: Db, id: string): Promise<number> {
  const row = await db.selectFrom('stripe_events').select((eb) => eb.fn.countAll<number>().as('n')).where('id', '=', id).executeTakeFirst();
  return Number(row?.n ?? 0);
}
