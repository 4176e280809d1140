import type { Kysely, Migration } from 'kysely';

/**
 * Reports (issue 16; seed 001 sections 1, 3, 7), portable across SQLite and PostgreSQL (timestamps
 * epoch ms, JSON as text).
 *
 * - `tenant_reports`: a tenant's saved reports: a template and its validated `data_filters`.
 * - `report_triggers`: a schedule (weekly or monthly) that emails a saved report to `recipients`;
 *   `next_run_at` is when its `report` job is due (null while disabled). Removing the report removes
 *   its triggers.
 * - `outbox_attachments`: files of a dev-outbox email (a report's PDF); SMTP sends them as MIME parts.
 */
export function reportsMigration(binary: 'blob' | 'bytea'): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('tenant_reports')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
        .addColumn('template_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('data_filters', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('tenant_reports_by_tenant').on('tenant_reports').columns(['tenant_id', 'created_at']).execute();
      await db.schema
        .createTable('report_triggers')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
        .addColumn('report_id', 'text', (c) => c.notNull().references('tenant_reports.id').onDelete('cascade'))
        .addColumn('schedule', 'text', (c) => c.notNull())
        .addColumn('recipients', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('next_run_at', 'bigint')
        .addColumn('last_run_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('report_triggers_by_tenant').on('report_triggers').columns(['tenant_id', 'created_at']).execute();
      await db.schema.createIndex('report_triggers_by_report').on('report_triggers').column('report_id').execute();
      await db.schema
        .createTable('outbox_attachments')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('outbox_id', 'text', (c) => c.notNull().references('outbox.id').onDelete('cascade'))
        .addColumn('filename', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('bytes', binary, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('outbox_attachments_by_outbox').on('outbox_attachments').column('outbox_id').execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('outbox_attachments').execute();
      await db.schema.dropTable('report_triggers').execute();
      await db.schema.dropTable('tenant_reports').execute();
    },
  };
}
