/** Helpers of the tests that check which catalogue events a change raised (issue 16). */
import { EventDataSchemas, type EventKey } from '@gatehouse/shared/wire';
import { expect } from 'vitest';
import type { GatehouseServer } from '../app';

export interface StoredEvent {
  id: string;
  tenantId: string;
  key: string;
  data: Record<string, unknown>;
  actor: { userId: string | null; email: string | null } | null;
  occurredAt: number;
}

/**
 * The events of a tenant, oldest first (optionally of one key). Each one's data is checked against
 * the catalogue's schema of its key here, so every test that reads events also proves they conform.
 */
export async function eventsOf(server: GatehouseServer, tenantId: string, key?: EventKey): Promise<StoredEvent[]> {
  let query = server.db.selectFrom('events').selectAll().where('tenant_id', '=', tenantId);
  if (key) query = query.where('event_key', '=', key);
  const rows = await query.orderBy('occurred_at').orderBy('id').execute();
  return rows.map((row) => {
    const data = JSON.parse(row.data) as Record<string, unknown>;
    const schema = EventDataSchemas[row.event_key as EventKey];
    expect(schema, `${row.event_key} is a catalogue key`).toBeDefined();
    const parsed = schema.safeParse(data);
    expect(parsed.success, `${row.event_key} data ${row.data} matches the catalogue: ${parsed.error?.message ?? ''}`).toBe(true);
    return { id: row.id, tenantId: row.tenant_id, key: row.event_key, data, actor: row.actor ? JSON.parse(row.actor) : null, occurredAt: Number(row.occurred_at) };
  });
}

/** The one event of `key` in the tenant raised after `since` (an event count before the change); fails unless exactly one. */
export async function onlyEvent(server: GatehouseServer, tenantId: string, key: EventKey, since = 0): Promise<StoredEvent> {
  const events = (await eventsOf(server, tenantId, key)).slice(since);
  expect(events.map((e) => e.key)).toEqual([key]);
  return events[0]!;
}

/** How many events of `key` the tenant has now (to pass as `since` after a change). */
export async function countEvents(server: GatehouseServer, tenantId: string, key: EventKey): Promise<number> {
  return (await eventsOf(server, tenantId, key)).length;
}
