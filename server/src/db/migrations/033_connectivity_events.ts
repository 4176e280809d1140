import type { Kysely, Migration } from 'kysely';

/**
 * Connectivity's outbox and delivery queue (issue 16), portable across SQLite and PostgreSQL
 * (timestamps epoch ms, JSON as text).
 *
 * - `events`: every catalogue event, written in the transaction of the change that raises it (the
 *   outbox). The worker claims undispatched rows under a lease (`lease_until`, `lease_token`) and
 *   marks them dispatched in the transaction that fans them out to the consumers; a consumer that
 *   keeps failing is given up after a few attempts (`dispatch_attempts`, `dispatch_error`).
 * - `jobs`: one delivery (webhook, email, SMS, Slack message, report) to one target. Claimed by
 *   any server process under a lease: a process killed mid-job loses nothing, another claims the
 *   job again once `lease_until` has passed. `lease_token` is the claim's, so only the claimant
 *   records the outcome.
 * Both are pruned by the worker: finished jobs and dispatched events older than the retention
 * (an event only once no job of it is pending or running).
 */
export const connectivityEventsMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
      .addColumn('event_key', 'text', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('actor', 'text')
      .addColumn('occurred_at', 'bigint', (c) => c.notNull())
      .addColumn('dispatched_at', 'bigint')
      .addColumn('dispatch_attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('dispatch_error', 'text')
      .addColumn('lease_until', 'bigint')
      .addColumn('lease_token', 'text')
      .execute();
    await db.schema.createIndex('events_undispatched').on('events').columns(['dispatched_at', 'occurred_at']).execute();
    await db.schema.createIndex('events_by_tenant').on('events').columns(['tenant_id', 'occurred_at']).execute();

    await db.schema
      .createTable('jobs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
      .addColumn('target_id', 'text', (c) => c.notNull())
      .addColumn('event_id', 'text')
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
      .addColumn('lease_until', 'bigint')
      .addColumn('lease_token', 'text')
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    // The claim: pending jobs by due time, running jobs by lease expiry.
    await db.schema.createIndex('jobs_due').on('jobs').columns(['status', 'next_attempt_at']).execute();
    await db.schema.createIndex('jobs_leased').on('jobs').columns(['status', 'lease_until']).execute();
    await db.schema.createIndex('jobs_by_target').on('jobs').columns(['kind', 'target_id', 'status']).execute();
    // Pruning keeps an event while a job of it may still run.
    await db.schema.createIndex('jobs_by_event').on('jobs').columns(['event_id', 'status']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('jobs').execute();
    await db.schema.dropTable('events').execute();
  },
};
