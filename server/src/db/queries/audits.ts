import type { Insertable } from 'kysely';
import { sql } from 'kysely';
import type { Db } from '../index';
import type { AuditsTable } from '../schema-admin';

export async function insertAudit(db: Db, row: Insertable<AuditsTable>): Promise<void> {
  await db.insertInto('audits').values(row).execute();
}

/**
 * The tenant a user's own authentication event is recorded in: `preferred` (the user's last tenant)
 * while the user has a membership there in any state, else the user's oldest membership, else null.
 * Disabled, locked and expired memberships count: their admins still need to see the attempts.
 */
export async function auditTenantOf(db: Db, userId: string, preferred: string | null): Promise<string | null> {
  const rows = await db.selectFrom('user_tenants').select(['tenant_id']).where('user_id', '=', userId).orderBy('created_at', 'asc').orderBy('tenant_id', 'asc').execute();
  if (preferred && rows.some((r) => r.tenant_id === preferred)) return preferred;
  return rows[0]?.tenant_id ?? null;
}

/** A tenant's newest audit records first (the audits list of a later slice pages through these). */
export function listTenantAudits(db: Db, tenantId: string, limit: number) {
  return db.selectFrom('audits').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

/** The list's filters on a tenant's records (seed 001 "filters by column type"); see AUDIT_COLUMNS. */
export interface AuditRowFilters {
  createdAtFrom?: number;
  createdAtTo?: number;
  email?: string;
  action?: string;
  description?: string;
  ip?: string;
  severity?: string;
  userAgent?: string;
}

/** `%`, `_` and `\` taken literally in a LIKE pattern (with ESCAPE '\'). */
const likeLiteral = (value: string) => value.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** A tenant's records matching `filters`; the equality filters and the time range read from the audits_by_* indexes. */
function filteredAudits(db: Db, tenantId: string, filters: AuditRowFilters) {
  let q = db.selectFrom('audits').where('tenant_id', '=', tenantId);
  if (filters.createdAtFrom !== undefined) q = q.where('created_at', '>=', filters.createdAtFrom);
  if (filters.createdAtTo !== undefined) q = q.where('created_at', '<=', filters.createdAtTo);
  if (filters.severity) q = q.where('severity', '=', filters.severity);
  if (filters.action) q = q.where('action', '=', filters.action);
  if (filters.email) q = q.where(sql`lower(email)`, '=', filters.email.toLowerCase());
  if (filters.ip) q = filters.ip.endsWith('*') ? q.where(sql<boolean>`ip like ${`${likeLiteral(filters.ip.slice(0, -1))}%`} escape '\\'`) : q.where('ip', '=', filters.ip);
  for (const column of ['description', 'user_agent'] as const) {
    const value = column === 'description' ? filters.description : filters.userAgent;
    if (value) q = q.where(sql<boolean>`lower(${sql.ref(column)}) like ${`%${likeLiteral(value.toLowerCase())}%`} escape '\\'`);
  }
  return q;
}

/** Whether any filter is set (an unset filter is undefined or ''). */
function isFiltered(filters: AuditRowFilters): boolean {
  return Object.values(filters).some((value) => value !== undefined && value !== '');
}

/** One page of a tenant's records by time (indexed offset: the page is read in index order), and the count of matches. */
export async function pageTenantAudits(db: Db, tenantId: string, filters: AuditRowFilters, direction: 'asc' | 'desc', offset: number, count: number) {
  const rows = await filteredAudits(db, tenantId, filters).selectAll().orderBy('created_at', direction).orderBy('id', direction).offset(offset).limit(count).execute();
  return { rows, total: await countTenantAudits(db, tenantId, filters) };
}

/** The query of one page, for query-plan checks (bench/audits-scale.test.ts). */
export function auditsPageQuery(db: Db, tenantId: string, filters: AuditRowFilters, direction: 'asc' | 'desc', offset: number, count: number) {
  return filteredAudits(db, tenantId, filters).selectAll().orderBy('created_at', direction).orderBy('id', direction).offset(offset).limit(count);
}

/** Keyset batch for the CSV export: the `limit` records after `after` (created_at, id) in `direction` order. */
export function auditsAfter(db: Db, tenantId: string, filters: AuditRowFilters, direction: 'asc' | 'desc', after: { createdAt: number; id: string } | null, limit: number) {
  return auditsAfterQuery(db, tenantId, filters, direction, after, limit).execute();
}

export function auditsAfterQuery(db: Db, tenantId: string, filters: AuditRowFilters, direction: 'asc' | 'desc', after: { createdAt: number; id: string } | null, limit: number) {
  let q = filteredAudits(db, tenantId, filters);
  if (after) {
    const op = direction === 'desc' ? '<' : '>';
    // A row-value comparison: both databases seek the (tenant_id, created_at, id) index to the cursor.
    q = q.where(sql<boolean>`(created_at, id) ${sql.raw(op)} (${after.createdAt}, ${after.id})`);
  }
  return q.selectAll().orderBy('created_at', direction).orderBy('id', direction).limit(limit);
}

/** A tenant's count of audit records, from the counter migration 023 keeps (no scan of the records). */
export async function tenantAuditTotal(db: Db, tenantId: string): Promise<number> {
  const row = await db.selectFrom('audit_counts').select('n').where('tenant_id', '=', tenantId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * The count of a tenant's records matching `filters` (the stats use it with a time range and
 * severity). Without filters it is the tenant's counter; with them, a count over the index range.
 */
export async function countTenantAudits(db: Db, tenantId: string, filters: AuditRowFilters): Promise<number> {
  if (!isFiltered(filters)) return tenantAuditTotal(db, tenantId);
  const row = await filteredAudits(db, tenantId, filters).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
