import type { Insertable } from 'kysely';
import { sql } from 'kysely';
import { isPostgres } from '../dialect';
import type { Db } from '../index';
import type { AuditsTable } from '../schema-admin';
import { AUDIT_HOUR_MS } from '../migrations/041_audits_search';
import { precompiledInsert } from '../precompiled';

export async function insertAudit(db: Db, row: Insertable<AuditsTable>): Promise<void> {
  await insertAuditRow(db, row);
}

const insertAuditRow = precompiledInsert('audits');

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

/** Sorts after every character an IP holds, so `[p, p + MAX_CHAR)` is exactly "starts with p". */
const MAX_CHAR = '\u{10FFFF}';

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
  if (filters.ip && filters.ip.endsWith('*')) {
    const prefix = filters.ip.slice(0, -1);
    q = q.where(sql<boolean>`ip like ${`${likeLiteral(prefix)}%`} escape '\\'`);
    // A prefix without letters is the same in any case (SQLite's LIKE ignores ASCII case): also a range of audits_by_ip.
    if (/^[0-9.:]+$/.test(prefix)) q = q.where('ip', '>=', prefix).where('ip', '<', `${prefix}${MAX_CHAR}`);
  } else if (filters.ip) q = q.where('ip', '=', filters.ip);
  for (const column of ['description', 'user_agent'] as const) {
    const value = column === 'description' ? filters.description : filters.userAgent;
    if (value) q = q.where(sql<boolean>`lower(${sql.ref(column)}) like ${`%${likeLiteral(value.toLowerCase())}%`} escape '\\'`);
  }
  // SQLite: the trigram index of migration 041 narrows the description filter to its candidates (of
  // any tenant; the conditions above keep the tenant's and the exact match). PostgreSQL's trigram
  // index serves the LIKE itself. Below 3 characters there is no trigram: the filter scans.
  if (filters.description && [...filters.description].length >= 3 && !isPostgres(db)) {
    q = q.where(sql<boolean>`audits.rowid in (select rowid from audits_fts where audits_fts match ${ftsPhrase(filters.description)})`);
  }
  return q;
}

/** The needle as one FTS5 phrase (quotes doubled): with the trigram tokenizer, "contains this substring" in any case. */
const ftsPhrase = (value: string) => `"${value.replace(/"/g, '""')}"`;

/** Whether any filter is set (an unset filter is undefined or ''). */
function isFiltered(filters: AuditRowFilters): boolean {
  return Object.values(filters).some((value) => value !== undefined && value !== '');
}

/**
 * One page of a tenant's records by time, and the count of matches (counted first: the page is read
 * from the nearer end of the list, the back half in reverse order; past the first rows as a deferred
 * join, the ids from the covering audits_by_* index and then just the page's records).
 */
export async function pageTenantAudits(db: Db, tenantId: string, filters: AuditRowFilters, direction: 'asc' | 'desc', offset: number, count: number) {
  const total = await countTenantAudits(db, tenantId, filters);
  const page = auditsPagePlan(db, tenantId, filters, direction, offset, count, total);
  if (page.limit === 0) return { rows: [], total };
  let rows;
  if (page.keys) {
    const ids = (await page.keys.execute()).map((r) => r.id);
    const byId = new Map((await db.selectFrom('audits').selectAll().where('tenant_id', '=', tenantId).where('id', 'in', ids).execute()).map((r) => [r.id, r]));
    rows = ids.flatMap((id) => byId.get(id) ?? []);
  } else rows = await page.rows.execute();
  return { rows: page.reversed ? rows.reverse() : rows, total };
}

/**
 * How a page is read when `total` records match: `keys` (the ids, when rows are skipped) or `rows`
 * (the records), in `direction` order or, `reversed`, from the end of the list.
 */
export function auditsPagePlan(db: Db, tenantId: string, filters: AuditRowFilters, direction: 'asc' | 'desc', offset: number, count: number, total: number) {
  const limit = Math.max(0, Math.min(count, total - offset));
  const reversed = offset + limit / 2 > total / 2;
  const skip = reversed ? total - offset - limit : offset;
  const order = reversed ? (direction === 'asc' ? 'desc' : 'asc') : direction;
  const ordered = filteredAudits(db, tenantId, filters).orderBy('created_at', order).orderBy('id', order);
  return { reversed, limit, keys: skip > 0 ? ordered.select('id').limit(limit).offset(skip) : null, rows: ordered.selectAll().limit(limit) };
}

/** The statement that reads one page (its ids when rows are skipped), for query-plan checks; `total` defaults to a list that goes on. */
export function auditsPageQuery(db: Db, tenantId: string, filters: AuditRowFilters, direction: 'asc' | 'desc', offset: number, count: number, total = Number.MAX_SAFE_INTEGER) {
  const page = auditsPagePlan(db, tenantId, filters, direction, offset, count, total);
  return page.keys ?? page.rows;
}

/** Where a keyset batch starts: after this record (its created_at and id). */
export type AuditKeyset = { createdAt: number; id: string };

/** One keyset batch of a tenant's records: the `limit` records after `after` in `direction` order. */
export interface AuditBatch {
  tenantId: string;
  filters: AuditRowFilters;
  direction: 'asc' | 'desc';
  after: AuditKeyset | null;
  limit: number;
}

/** A keyset batch's records: a cursor page of the audit log. */
export function auditsAfter(db: Db, batch: AuditBatch) {
  return auditsAfterQuery(db, batch).execute();
}

/** The batch's statement with its select list cleared, for the export's two readers below. */
function batchQuery(db: Db, batch: AuditBatch) {
  return auditsAfterQuery(db, batch).clearSelect();
}

/** The batch with only `columns` (and the keyset's created_at and id): what the CSV export reads on SQLite. */
export function auditColumnsAfter<C extends keyof AuditsTable>(db: Db, batch: AuditBatch, columns: readonly C[]) {
  return batchQuery(db, batch)
    .select([...new Set<C | 'id' | 'created_at'>(['id', 'created_at', ...columns])])
    .execute();
}

/**
 * PostgreSQL: one keyset batch of the CSV export as one text, built by the database as csvCell and
 * `toISOString` write it (the export's equivalence test holds both dialects to that): every cell
 * quoted, quotes doubled, a leading = + - @ tab or CR behind an apostrophe, a time as
 * YYYY-MM-DDTHH:MM:SS.mmmZ in UTC from exact millisecond arithmetic, records joined by CRLF. With
 * the batch's size and its last record (the next batch's keyset). Why: services/admin/audits.ts.
 */
export async function auditCsvBatchAfter(db: Db, batch: AuditBatch, columns: readonly (keyof AuditsTable)[]): Promise<{ text: string; count: number; last: AuditKeyset | null }> {
  const cell = (column: keyof AuditsTable) => {
    const value =
      column === 'created_at'
        ? sql`to_char(timestamp 'epoch' + created_at * interval '1 millisecond', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
        : sql`coalesce(${sql.ref(column)}, '')`;
    return sql`'"' || replace(case when left(${value}, 1) in ('=', '+', '-', '@', E'\t', E'\r') then '''' || ${value} else ${value} end, '"', '""') || '"'`;
  };
  const line = columns.length ? sql.join(columns.map(cell), sql` || ',' || `) : sql`''`;
  const order = sql.raw(batch.direction);
  const back = sql.raw(batch.direction === 'asc' ? 'desc' : 'asc');
  const lines = batchQuery(db, batch).select(['id', 'created_at', sql<string>`${line}`.as('line')]);
  const row = await db
    .with('batch', () => lines)
    .selectFrom('batch')
    .select([
      sql<string | null>`string_agg(line, E'\r\n' order by created_at ${order}, id ${order})`.as('text'),
      sql<string>`count(*)`.as('count'),
      sql<string | null>`(array_agg(created_at order by created_at ${back}, id ${back}))[1]`.as('last_created_at'),
      sql<string | null>`(array_agg(id order by created_at ${back}, id ${back}))[1]`.as('last_id'),
    ])
    .executeTakeFirstOrThrow();
  const count = Number(row.count);
  return { text: row.text ?? '', count, last: count && row.last_id !== null ? { createdAt: Number(row.last_created_at), id: row.last_id } : null };
}

/** A keyset batch's statement (exported for the scale bench's query plans). */
export function auditsAfterQuery(db: Db, { tenantId, filters, direction, after, limit }: AuditBatch) {
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
 * severity). Without filters it is the tenant's counter; with only a time range, action and
 * severity, the hourly counts of migration 041 (whole hours) plus the index count of the partial
 * hours at the range's ends, in one statement; with any other filter, a count over the index range.
 */
export async function countTenantAudits(db: Db, tenantId: string, filters: AuditRowFilters): Promise<number> {
  if (!isFiltered(filters)) return tenantAuditTotal(db, tenantId);
  const row = await countAuditsQuery(db, tenantId, filters).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The filters the hourly counts of migration 041 answer. */
const HOURLY_FILTERS = new Set(['createdAtFrom', 'createdAtTo', 'action', 'severity']);

/** The statement countTenantAudits runs for a filtered count (exported for query-plan checks). */
export function countAuditsQuery(db: Db, tenantId: string, filters: AuditRowFilters) {
  const count = (f: AuditRowFilters) => filteredAudits(db, tenantId, f).select((eb) => eb.fn.countAll<number | string>().as('n'));
  const set = Object.entries(filters).filter(([, value]) => value !== undefined && value !== '');
  if (!set.every(([key]) => HOURLY_FILTERS.has(key))) return count(filters);
  const { createdAtFrom: from, createdAtTo: to } = filters;
  // Whole hours [firstHour, endHour) lie inside the range; the records before and after them are counted from the index.
  const firstHour = from === undefined ? undefined : Math.ceil(from / AUDIT_HOUR_MS);
  const endHour = to === undefined ? undefined : Math.floor((to + 1) / AUDIT_HOUR_MS);
  if (firstHour !== undefined && endHour !== undefined && firstHour >= endHour) return count(filters);
  let hours = db.selectFrom('audit_hours').where('tenant_id', '=', tenantId);
  if (filters.action) hours = hours.where('action', '=', filters.action);
  if (filters.severity) hours = hours.where('severity', '=', filters.severity);
  if (firstHour !== undefined) hours = hours.where('hour', '>=', firstHour);
  if (endHour !== undefined) hours = hours.where('hour', '<', endHour);
  const parts = [sql`(${hours.select(sql<number | string>`coalesce(sum(n), 0)`.as('n'))})`];
  if (firstHour !== undefined) parts.push(sql`(${count({ ...filters, createdAtTo: firstHour * AUDIT_HOUR_MS - 1 })})`);
  if (endHour !== undefined) parts.push(sql`(${count({ ...filters, createdAtFrom: endHour * AUDIT_HOUR_MS })})`);
  return db.selectNoFrom(sql<number | string>`${sql.join(parts, sql` + `)}`.as('n'));
}
