import type { Kysely, Migration } from 'kysely';

/**
 * Webhooks (issue 16), portable across SQLite and PostgreSQL (timestamps epoch ms, JSON as text,
 * booleans as 0/1).
 *
 * - `webhook_endpoints`: a tenant's endpoint: URL, description, the event keys it subscribes to,
 *   whether it is active, its `whsec_` signing secret (AES-256-GCM sealed when
 *   GATEHOUSE_KEY_ENCRYPTION_KEY is set) and, for 24 hours after a rotation, the previous one;
 *   `failing_since` (the first failure of an unbroken run of failures) and, once it failed for 5
 *   days, `disabled_at` and `disabled_reason`.
 * - `webhook_attempts`: one row per delivery attempt (queued deliveries and tests): the event, the
 *   attempt number, the outcome, the duration, the request sent and the answer's heads and first
 *   64 KB. `job_id` names the delivery job of the queue (retry requeues it).
 */
export const webhooksMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('webhook_endpoints')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
      .addColumn('url', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('event_keys', 'text', (c) => c.notNull())
      .addColumn('is_active', 'integer', (c) => c.notNull())
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('previous_secret', 'text')
      .addColumn('previous_secret_expires_at', 'bigint')
      .addColumn('failing_since', 'bigint')
      .addColumn('disabled_at', 'bigint')
      .addColumn('disabled_reason', 'text')
      .addColumn('created_by', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('webhook_endpoints_by_tenant').on('webhook_endpoints').columns(['tenant_id', 'created_at']).execute();

    await db.schema
      .createTable('webhook_attempts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('endpoint_id', 'text', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
      .addColumn('job_id', 'text')
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('event_key', 'text', (c) => c.notNull())
      .addColumn('attempt', 'integer', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('status_code', 'integer')
      .addColumn('duration_ms', 'integer')
      .addColumn('error', 'text')
      .addColumn('request_headers', 'text', (c) => c.notNull())
      .addColumn('request_body', 'text', (c) => c.notNull())
      .addColumn('response_headers', 'text')
      .addColumn('response_body', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('webhook_attempts_by_endpoint').on('webhook_attempts').columns(['endpoint_id', 'created_at', 'id']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('webhook_attempts').execute();
    await db.schema.dropTable('webhook_endpoints').execute();
  },
};
