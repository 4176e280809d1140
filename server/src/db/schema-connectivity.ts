import type { ColumnType } from 'kysely';

/** The tables of migration 033 (connectivity events and delivery queue), merged into `Database` (schema.ts); see the migration. */

export interface EventsTable {
  id: string;
  tenant_id: string;
  /** A catalogue key (shared/src/wire/connectivity/events.ts). */
  event_key: string;
  /** JSON of the event's data, per the catalogue's schema. */
  data: string;
  /** JSON `{ userId, email }` of who acted, null for the system. */
  actor: string | null;
  occurred_at: number;
  /** Set in the transaction that fanned the event out to the consumers; null until then. */
  dispatched_at: number | null;
  dispatch_attempts: ColumnType<number, number | undefined, number>;
  /** Why the last dispatch failed (consumer name and message); kept when the event is given up. */
  dispatch_error: string | null;
  lease_until: number | null;
  lease_token: string | null;
}

export interface JobsTable {
  id: string;
  /** webhook | email | sms | slack | report */
  kind: string;
  tenant_id: string;
  /** What the job delivers to (a webhook endpoint, a subscription, a report trigger...). */
  target_id: string;
  event_id: string | null;
  /** JSON the job's handler reads. */
  payload: string;
  /** pending | running | succeeded | failed | cancelled */
  status: string;
  /** Attempts started so far (the claim counts one). */
  attempt: ColumnType<number, number | undefined, number>;
  next_attempt_at: number;
  lease_until: number | null;
  lease_token: string | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

export interface ConnectivityTables {
  events: EventsTable;
  jobs: JobsTable;
}
