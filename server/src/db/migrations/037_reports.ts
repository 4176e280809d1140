import { randomBytes } from 'node:crypto';
import type { Kysely, Migration } from 'kysely';

/**
 * Reports (issue 16; seed 001 sections 1, 3, 7), portable across SQLite and PostgreSQL (timestamps
 * epoch ms, JSON as text).
 *
 * - `tenant_reports`: a tenant's saved reports: a template and its validated `data_filters`.
 * - `report_triggers`: a schedule (weekly or monthly) that emails a saved report to `recipients`;
 *   `next_run_at` is when its `report` job is due (null while disabled). Removing the report removes
 *   its triggers. `created_by` is the admin who last saved it: a run checks they still hold the
 *   report's permissions (no foreign key: a deleted creator must be seen, not cascade silently);
 *   `disabled_reason` says why a run turned it off.
 * - `outbox_attachments`: files of a dev-outbox email (a report's PDF); SMTP sends them as MIME parts.
 *
 * The two reports permission keys join the catalogue, and every existing account's built-in Admin
 * role gets both and its Read only role the read key, as a new account's roles do (BuiltInRoles).
 */
/** The permission keys of this migration (frozen here: later renames in the wire must not change what it did). */
const REPORT_PERMISSIONS = [
  { key: 'fe.reports.read.reports', name: 'Read reports' },
  { key: 'fe.reports.write.reports', name: 'Write reports' },
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
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('disabled_reason', 'text')
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

      for (const permission of REPORT_PERMISSIONS) {
        await db
          .insertInto('permissions')
          .values({ id: randomBytes(16).toString('hex'), key: permission.key, name: permission.name, description: null, category_id: 'reports' })
          .onConflict((oc) => oc.column('key').doNothing())
          .execute();
      }
      await grantToBuiltInRoles(db, 'Admin', REPORT_PERMISSIONS.map((p) => p.key));
      await grantToBuiltInRoles(db, 'ReadOnly', REPORT_PERMISSIONS.filter((p) => p.key.includes('.read.')).map((p) => p.key));
    },
    async down(db: Kysely<any>) {
      // The grants and catalogue entries stay: other roles may hold the keys by then, and they are harmless without the tables.
      await db.schema.dropTable('outbox_attachments').execute();
      await db.schema.dropTable('report_triggers').execute();
      await db.schema.dropTable('tenant_reports').execute();
    },
  };
}
