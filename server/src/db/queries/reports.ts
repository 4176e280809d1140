/**
 * SQL of reports (migration 037): the tenant's saved reports and triggers, and the bounded reads
 * each template's data comes from (every list capped by its `limit`, at most REPORT_LIMITS.maxRows).
 */
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../index';
import type { ReportTriggersTable, TenantReportsTable } from '../schema-reports';

export type TenantReportRow = Selectable<TenantReportsTable>;
export type ReportTriggerRow = Selectable<ReportTriggersTable>;

const count = (n: number | string | bigint | undefined | null) => Number(n ?? 0);

export function listTenantReports(db: Db, tenantId: string): Promise<TenantReportRow[]> {
  return db.selectFrom('tenant_reports').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at', 'asc').orderBy('id', 'asc').execute();
}

export function findTenantReport(db: Db, tenantId: string, id: string): Promise<TenantReportRow | undefined> {
  return db.selectFrom('tenant_reports').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}

export async function countTenantReports(db: Db, tenantId: string): Promise<number> {
  const row = await db.selectFrom('tenant_reports').select((eb) => eb.fn.countAll<number | string>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirst();
  return count(row?.n);
}

export async function insertTenantReport(db: Db, row: Insertable<TenantReportsTable>): Promise<void> {
  await db.insertInto('tenant_reports').values(row).execute();
}

export async function updateTenantReport(db: Db, tenantId: string, id: string, patch: Updateable<TenantReportsTable>): Promise<void> {
  await db.updateTable('tenant_reports').set(patch).where('tenant_id', '=', tenantId).where('id', '=', id).execute();
}

export async function deleteTenantReport(db: Db, tenantId: string, id: string): Promise<void> {
  await db.deleteFrom('report_triggers').where('tenant_id', '=', tenantId).where('report_id', '=', id).execute();
  await db.deleteFrom('tenant_reports').where('tenant_id', '=', tenantId).where('id', '=', id).execute();
}

export function listReportTriggers(db: Db, tenantId: string): Promise<ReportTriggerRow[]> {
  return db.selectFrom('report_triggers').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at', 'asc').orderBy('id', 'asc').execute();
}

export function listTriggersOfReport(db: Db, tenantId: string, reportId: string): Promise<ReportTriggerRow[]> {
  return db.selectFrom('report_triggers').selectAll().where('tenant_id', '=', tenantId).where('report_id', '=', reportId).execute();
}

export function findReportTrigger(db: Db, tenantId: string, id: string): Promise<ReportTriggerRow | undefined> {
  return db.selectFrom('report_triggers').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}

export async function countReportTriggers(db: Db, tenantId: string): Promise<number> {
  const row = await db.selectFrom('report_triggers').select((eb) => eb.fn.countAll<number | string>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirst();
  return count(row?.n);
}

export async function insertReportTrigger(db: Db, row: Insertable<ReportTriggersTable>): Promise<void> {
  await db.insertInto('report_triggers').values(row).execute();
}

export async function updateReportTrigger(db: Db, tenantId: string, id: string, patch: Updateable<ReportTriggersTable>): Promise<void> {
  await db.updateTable('report_triggers').set(patch).where('tenant_id', '=', tenantId).where('id', '=', id).execute();
}

/**
 * Moves a trigger's next run from `expected` to `next` only if it is still `expected`: of two
 * processes running the same due job, one moves it and sends; the other finds it moved.
 */
export async function advanceReportTrigger(db: Db, id: string, expected: number, next: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('report_triggers')
    .set({ next_run_at: next, last_run_at: now, updated_at: now })
    .where('id', '=', id)
    .where('enabled', '=', 1)
    .where('next_run_at', '=', expected)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteReportTrigger(db: Db, tenantId: string, id: string): Promise<void> {
  await db.deleteFrom('report_triggers').where('tenant_id', '=', tenantId).where('id', '=', id).execute();
}

export async function tenantName(db: Db, tenantId: string): Promise<string | null> {
  const row = await db.selectFrom('tenants').select(['name']).where('id', '=', tenantId).executeTakeFirst();
  return row?.name ?? null;
}

export async function roleNamesOf(db: Db, tenantId: string, roleIds: readonly string[]): Promise<{ id: string; name: string }[]> {
  if (roleIds.length === 0) return [];
  return db.selectFrom('roles').select(['id', 'name']).where('tenant_id', '=', tenantId).where('id', 'in', roleIds).orderBy('name').execute();
}

export interface MemberFilters {
  createdFrom?: number;
  createdTo?: number;
  roleIds?: readonly string[];
  mfaEnrolled?: boolean;
}

/** Members of the tenant matching the filters: how many, how many enrolled in MFA, and the first `limit` by name. */
export async function membersForReport(db: Db, tenantId: string, f: MemberFilters, limit: number) {
  const base = () => {
    let q = db.selectFrom('user_tenants as ut').innerJoin('users as u', 'u.id', 'ut.user_id').where('ut.tenant_id', '=', tenantId);
    if (f.createdFrom !== undefined) q = q.where('ut.created_at', '>=', f.createdFrom);
    if (f.createdTo !== undefined) q = q.where('ut.created_at', '<=', f.createdTo);
    if (f.mfaEnrolled !== undefined) q = q.where('ut.mfa_enrolled', '=', f.mfaEnrolled ? 1 : 0);
    if (f.roleIds && f.roleIds.length > 0) {
      const roleIds = f.roleIds;
      q = q.where((eb) =>
        eb.exists(eb.selectFrom('user_roles as ur').select('ur.user_id').whereRef('ur.user_id', '=', 'ut.user_id').where('ur.tenant_id', '=', tenantId).where('ur.role_id', 'in', roleIds)),
      );
    }
    return q;
  };
  const totals = await base()
    .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.sum<number | string | null>('ut.mfa_enrolled').as('enrolled')])
    .executeTakeFirst();
  const rows = await base()
    .select(['u.id', 'u.email', 'u.name', 'ut.created_at', 'ut.mfa_enrolled', 'ut.active_at', 'ut.locked', 'ut.disabled_at'])
    .orderBy('ut.sort_name')
    .orderBy('u.id')
    .limit(limit)
    .execute();
  return { total: count(totals?.n), mfaEnrolled: count(totals?.enrolled), rows };
}

/** Audit records of the tenant in [from, to], optionally of some actions or one severity: counts per action and severity, and the newest `limit`. */
export async function auditsForReport(db: Db, tenantId: string, f: { from: number; to: number; actions?: readonly string[]; severity?: string }, limit: number) {
  const base = () => {
    let q = db.selectFrom('audits').where('tenant_id', '=', tenantId).where('created_at', '>=', f.from).where('created_at', '<=', f.to);
    if (f.actions) q = q.where('action', 'in', f.actions);
    if (f.severity) q = q.where('severity', '=', f.severity);
    return q;
  };
  const groups = await base()
    .select((eb) => ['action', 'severity', eb.fn.countAll<number | string>().as('n')])
    .groupBy(['action', 'severity'])
    .execute();
  const rows = await base()
    .select(['id', 'created_at', 'email', 'action', 'description', 'ip', 'severity'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return { groups: groups.map((g) => ({ action: g.action, severity: g.severity, n: count(g.n) })), rows };
}
