/**
 * Wire schemas of the audit log (seed 001 section 3 "Audit log", 7 "Audits", 9 "Audit page 20"):
 * the list (offset, count, sortBy, sortDirection, filters), stats, column metadata and the CSV export.
 * Paths, columns and constants are in `audit-paths.ts` (zod-free, so the admin portal can carry them).
 */
import { z } from 'zod';
import { AuditColumnNames, AuditColumnTypes, AuditSeverities, AUDITS_PAGE_SIZE } from './audit-paths';
import { ListCursorParam, ListCursors } from './list-cursor';

export const AuditColumnSchema = z.object({
  name: z.string(),
  displayName: z.string(),
  type: z.enum(AuditColumnTypes),
  sortable: z.boolean(),
  filterable: z.boolean(),
  showInTable: z.boolean(),
});

/** The last instant a Date holds (ECMA-262): a safe integer, well inside PostgreSQL's bigint. */
const MAX_TIME_MS = 8_640_000_000_000_000;
const EPOCH_MS = /^\d{1,16}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * Epoch milliseconds (a whole number from 0 to MAX_TIME_MS) or an ISO 8601 date; undefined for
 * anything else. Date.parse alone takes "1.5" or "-1" as dates, and an unbounded number reaches SQL
 * as an out-of-range bigint (a 500 on PostgreSQL).
 */
function timeOf(v: string): number | undefined {
  const t = EPOCH_MS.test(v) ? Number(v) : ISO_DATE.test(v) ? Date.parse(v) : NaN;
  return Number.isSafeInteger(t) && Math.abs(t) <= MAX_TIME_MS ? t : undefined;
}

const time = z
  .string()
  .trim()
  .max(40)
  .refine((v) => timeOf(v) !== undefined, `must be an ISO 8601 date or epoch milliseconds (a whole number from 0 to ${MAX_TIME_MS})`)
  .transform((v) => timeOf(v)!);

/** The column filters (all optional, combined with AND). */
export const AuditFilters = z.object({
  createdAtFrom: time.optional(),
  createdAtTo: time.optional(),
  email: z.string().trim().min(1).max(320).optional(),
  action: z.string().trim().min(1).max(200).optional(),
  description: z.string().trim().min(1).max(200).optional(),
  ip: z.string().trim().min(1).max(64).optional(),
  severity: z.enum(AuditSeverities).optional(),
  userAgent: z.string().trim().min(1).max(200).optional(),
});
export type AuditFilters = z.infer<typeof AuditFilters>;

const sort = { sortBy: z.enum(['createdAt']).default('createdAt'), sortDirection: z.enum(['asc', 'desc']).default('desc') };

export const AuditsQuery = AuditFilters.extend({
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
  count: z.coerce.number().int().min(1).max(100).default(AUDITS_PAGE_SIZE),
  ...sort,
  cursor: ListCursorParam.optional(),
  tenantId: z.string().max(64).optional(),
});
export type AuditsQuery = z.infer<typeof AuditsQuery>;

export const AuditRecord = z.object({
  id: z.string(),
  createdAt: z.string(),
  email: z.string().nullable(),
  action: z.string(),
  description: z.string(),
  ip: z.string().nullable(),
  severity: z.string(),
  userAgent: z.string().nullable(),
  json: z.string().nullable(),
  tenantId: z.string(),
});
export type AuditRecord = z.infer<typeof AuditRecord>;

export const AuditsResponse = z.object({ data: z.array(AuditRecord), total: z.number().int(), ...ListCursors });
export type AuditsResponse = z.infer<typeof AuditsResponse>;

export const AuditsStats = z.object({ total: z.number().int(), totalToday: z.number().int(), severeThisWeek: z.number().int() });
export type AuditsStats = z.infer<typeof AuditsStats>;

export const AuditsMetadata = z.object({ columns: z.array(AuditColumnSchema) });
export type AuditsMetadata = z.infer<typeof AuditsMetadata>;

/** CSV export: the list's sort and filters; headerProps picks and names the columns (default: the table's columns). */
export const ExportAuditsRequest = z
  .object({
    ...sort,
    offset: z.literal(0).default(0),
    filters: AuditFilters.strict().default({}),
    headerProps: z
      .array(z.object({ name: z.enum(AuditColumnNames), displayName: z.string().trim().min(1).max(100) }))
      .min(1)
      .max(AuditColumnNames.length)
      .optional(),
  })
  .strict();
export type ExportAuditsRequest = z.infer<typeof ExportAuditsRequest>;
