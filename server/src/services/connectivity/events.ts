/**
 * Raising events (issue 16 "Events are written in the same transaction as the change"): an event
 * is a row of the `events` outbox, written through the caller's transaction, so it exists exactly
 * when the change it describes committed. The worker (worker.ts) hands it to the consumers later.
 */
import type { EventKey } from '@gatehouse/shared/wire';
import { newId } from '../../crypto';
import type { Db } from '../../db';
import { insertEvent, type EventRow } from '../../db/queries/connectivity-queue';

/** Who acted: a user (an admin, or the user themselves), or null for the system. */
export interface EventActor {
  userId: string | null;
  email: string | null;
}

export interface RaisedEvent {
  id: string;
  tenantId: string;
  key: EventKey;
  data: Record<string, unknown>;
  actor: EventActor | null;
  /** ms since epoch */
  occurredAt: number;
}

/** Writes the event into the `events` outbox through `db` — pass the transaction of the change, so a rollback raises nothing. */
export async function raiseEvent(
  db: Db,
  input: { tenantId: string; key: EventKey; data: Record<string, unknown>; actor: EventActor | null },
  now: number,
): Promise<RaisedEvent> {
  const event: RaisedEvent = { id: newId(), tenantId: input.tenantId, key: input.key, data: input.data, actor: input.actor, occurredAt: now };
  await insertEvent(db, {
    id: event.id,
    tenant_id: event.tenantId,
    event_key: event.key,
    data: JSON.stringify(event.data),
    actor: event.actor ? JSON.stringify({ userId: event.actor.userId, email: event.actor.email }) : null,
    occurred_at: now,
  });
  return event;
}

/** The event a stored row holds. */
export function eventFromRow(row: EventRow): RaisedEvent {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    key: row.event_key as EventKey,
    data: JSON.parse(row.data) as Record<string, unknown>,
    actor: row.actor ? (JSON.parse(row.actor) as EventActor) : null,
    occurredAt: Number(row.occurred_at),
  };
}
