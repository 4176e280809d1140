/**
 * The audit log as admins read it (seed 001 sections 3 "Audit log", 7 "Audits", 9): one page with
 * offset, count, sort and column filters; stats (total, totalToday, severeThisWeek); the column
 * metadata; and the CSV export `audits.csv`, produced in keyset batches so the server never holds
 * the whole result (tenants reach 1,000,000 records). Always the caller's tenant only.
 */
import { AUDIT_COLUMNS, type AuditColumnName, type AuditRecord, type AuditsMetadata, type AuditsQuery, type AuditsResponse, type AuditsStats, type ExportAuditsRequest } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Db } from '../../db';
import { isPostgres } from '../../db/dialect';
import { auditColumnsAfter, auditCsvBatchAfter, auditsAfter, countTenantAudits, pageTenantAudits, tenantAuditTotal, type AuditKeyset, type AuditRowFilters } from '../../db/queries/audits';
import { Errors } from '../../errors';
import { decodeCursor, encodeCursor, listFingerprint } from './list-cursor';
import type { AuditsTable } from '../../db/schema-admin';
import type { AdminCaller } from './access';

const DAY = 86_400_000;
/**
 * Records per keyset batch of the export. Smaller batches lower PostgreSQL's peak RSS during a
 * 1,000,000-record export (garbage of the driver's results that reaches the old generation before a
 * full collection; what stays live is under 2 MB) but cost throughput: bench/audits-scale.test.ts at
 * load ~1.7 gave +185 MB and 145,000 records/s at 1,000, +120 MB and 101,000 at 250, +128 MB and
 * 92,000 at 100. 1,000 keeps the export well above 100,000 records/s on both dialects.
 */
export const EXPORT_BATCH = 1000;

/** The record's column each CSV column shows (`present` maps them the same way). */
const COLUMN_OF = {
  createdAt: 'created_at',
  email: 'email',
  action: 'action',
  description: 'description',
  ip: 'ip',
  severity: 'severity',
  userAgent: 'user_agent',
  json: 'json',
  tenantId: 'tenant_id',
} as const satisfies Record<AuditColumnName, keyof Row>;

export interface AdminAuditService {
  list(caller: AdminCaller, query: AuditsQuery): Promise<AuditsResponse>;
  stats(caller: AdminCaller): Promise<AuditsStats>;
  metadata(): AuditsMetadata;
  /** The CSV text, header line first, in chunks of up to EXPORT_BATCH records. */
  exportCsv(caller: AdminCaller, request: ExportAuditsRequest): AsyncGenerator<string>;
}

type Row = Pick<AuditsTable, 'id' | 'tenant_id' | 'email' | 'action' | 'description' | 'ip' | 'severity' | 'user_agent' | 'json' | 'created_at'>;

export function present(row: Row): AuditRecord {
  return {
    id: row.id,
    createdAt: new Date(Number(row.created_at)).toISOString(),
    email: row.email,
    action: row.action,
    description: row.description,
    ip: row.ip,
    severity: row.severity,
    userAgent: row.user_agent,
    json: row.json,
    tenantId: row.tenant_id,
  };
}

/**
 * One CSV cell (RFC 4180): always quoted, quotes doubled. A cell a spreadsheet would run as a
 * formula (starting with = + - @, tab or carriage return) gets a leading apostrophe first.
 */
export function csvCell(value: string | null | undefined): string {
  let text = value ?? '';
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

function filtersOf(query: Partial<AuditsQuery>): AuditRowFilters {
  const { createdAtFrom, createdAtTo, email, action, description, ip, severity, userAgent } = query;
  return { createdAtFrom, createdAtTo, email, action, description, ip, severity, userAgent };
}

export function createAdminAuditService(deps: { db: Db; clock: Clock }): AdminAuditService {
  const { db, clock } = deps;
  return {
    async list(caller, query) {
      const filters = filtersOf(query);
      // What the list is: a cursor of another direction or filter is refused.
      const fingerprint = listFingerprint([query.sortBy, query.sortDirection, filters]);
      let rows: Row[];
      let total: number;
      let hasNext: boolean;
      let hasPrev: boolean;
      if (query.cursor) {
        if (query.offset !== 0) throw Errors.validation('cursor: give either a cursor or an offset, not both', { parameter: 'cursor' });
        const { way, key } = decodeCursor(query.cursor, 'audits', fingerprint, ['integer', 'text']);
        // The page after the cursor reads on in the list's direction; the page before reads back from it.
        const travel = way === 'next' ? query.sortDirection : query.sortDirection === 'asc' ? 'desc' : 'asc';
        const [read, count] = await Promise.all([
          auditsAfter(db, { tenantId: caller.tenantId, filters, direction: travel, after: { createdAt: key[0] as number, id: key[1] as string }, limit: query.count + 1 }),
          countTenantAudits(db, caller.tenantId, filters),
        ]);
        rows = read.slice(0, query.count);
        if (way === 'prev') rows.reverse();
        total = count;
        // The cursor's own record lies on the side the page was read from.
        hasNext = way === 'next' ? read.length > query.count : rows.length > 0;
        hasPrev = way === 'prev' ? read.length > query.count : rows.length > 0;
      } else {
        ({ rows, total } = await pageTenantAudits(db, caller.tenantId, filters, query.sortDirection, query.offset, query.count));
        hasPrev = query.offset > 0 && rows.length > 0;
        hasNext = query.offset + rows.length < total;
      }
      const cursorAt = (way: 'next' | 'prev', row: Row | undefined) => (row ? encodeCursor('audits', fingerprint, way, [Number(row.created_at), row.id]) : null);
      return {
        data: rows.map(present),
        total,
        nextCursor: hasNext ? cursorAt('next', rows[rows.length - 1]) : null,
        prevCursor: hasPrev ? cursorAt('prev', rows[0]) : null,
      };
    },

    async stats(caller) {
      const now = clock.now();
      const startOfDay = now - (now % DAY); // UTC midnight
      const [total, totalToday, severeThisWeek] = await Promise.all([
        tenantAuditTotal(db, caller.tenantId), // the counter of migration 023, not a count of the rows
        countTenantAudits(db, caller.tenantId, { createdAtFrom: startOfDay }),
        countTenantAudits(db, caller.tenantId, { severity: 'High', createdAtFrom: now - 7 * DAY }),
      ]);
      return { total, totalToday, severeThisWeek };
    },

    metadata() {
      return { columns: AUDIT_COLUMNS.map((c) => ({ ...c })) };
    },

    async *exportCsv(caller, request) {
      const header: { name: AuditColumnName; displayName: string }[] =
        request.headerProps ?? AUDIT_COLUMNS.filter((c) => c.showInTable).map((c) => ({ name: c.name as AuditColumnName, displayName: c.displayName }));
      yield `${header.map((h) => csvCell(h.displayName)).join(',')}\r\n`;
      const filters = filtersOf(request.filters);
      // Only the columns the file shows: each cell as `present` gives it, without a record object per row.
      const columns = header.map((h) => COLUMN_OF[h.name]);
      const cell = (row: Pick<Row, (typeof columns)[number] | 'created_at'>, name: AuditColumnName) =>
        csvCell(name === 'createdAt' ? new Date(Number(row.created_at)).toISOString() : row[COLUMN_OF[name]] as string | null);
      // PostgreSQL builds each batch's text itself (auditCsvBatchAfter), one string per batch. Read as
      // rows, a batch arrives over several socket reads, and its row objects and field strings are
      // alive while the process waits for the rest: V8 runs its young-generation collections in
      // those waits, and moved nearly every row to the old generation, which only a full collection
      // empties. A 1,000,000-record export grew the process by +48 to +189 MB that way, and by under
      // 20 MB as one text per batch (bench/audits-scale.test.ts). SQLite reads a batch synchronously,
      // so its rows die young and it keeps the row path.
      const inDatabase = isPostgres(db);
      // One batch as CSV text and the cursor after it. The rows die inside this function, so the
      // generator holds only the text while it waits for the reader and the next batch.
      const readBatch = async (after: AuditKeyset | null) => {
        const batch = { tenantId: caller.tenantId, filters, direction: request.sortDirection, after, limit: EXPORT_BATCH };
        if (inDatabase) {
          const { text, count, last } = await auditCsvBatchAfter(db, batch, columns);
          return { text: count ? `${text}\r\n` : '', next: count === EXPORT_BATCH ? last : null };
        }
        const rows = await auditColumnsAfter(db, batch, columns);
        const lines = rows.map((row) => header.map((h) => cell(row, h.name)).join(','));
        const last = rows[rows.length - 1];
        return { text: lines.length ? `${lines.join('\r\n')}\r\n` : '', next: rows.length === EXPORT_BATCH && last ? { createdAt: Number(last.created_at), id: last.id } : null };
      };
      let next: AuditKeyset | null = null;
      do {
        const { text, next: cursor } = await readBatch(next);
        if (text) yield text;
        next = cursor;
      } while (next);
    },
  };
}
