/**
 * Paths, columns and constants of the audit log (seed 001 sections 3 "Audit log", 7 "Audits", 9),
 * without zod: the admin portal's audits section and the server share them.
 */
export const AuditPaths = {
  /** GET ?offset&count&sortBy&sortDirection&<column filters>: one page, `{ data, total }`. */
  audits: '/audits',
  /** GET: `{ total, totalToday, severeThisWeek }`. */
  stats: '/audits/stats',
  /** GET: the columns (name, displayName, type, sortable, filterable, showInTable). */
  metadata: '/audits/metadata',
  /** POST { sortBy, sortDirection, filters, headerProps }: `audits.csv`, streamed. */
  exportCsv: '/audits/export/csv',
} as const;

/** Seed 001 section 9. */
export const AUDITS_PAGE_SIZE = 20;
export const AUDITS_CSV_FILE_NAME = 'audits.csv';

export const AuditColumnTypes = ['Timestamp', 'Email', 'AlphaNumeric', 'IpAddress', 'Severity', 'Json'] as const;
export type AuditColumnType = (typeof AuditColumnTypes)[number];
export const AuditSeverities = ['Info', 'High'] as const;

export interface AuditColumn {
  name: string;
  displayName: string;
  type: AuditColumnType;
  sortable: boolean;
  filterable: boolean;
  showInTable: boolean;
}

/**
 * The columns, in table order. Filters by type: Timestamp a range (`createdAtFrom`, `createdAtTo`,
 * ISO date or epoch ms), Severity and Email exact, IpAddress exact or a prefix ending in `*`,
 * AlphaNumeric a case-insensitive substring. Only createdAt is sortable (the list reads it from an index).
 */
export const AUDIT_COLUMNS: readonly AuditColumn[] = [
  { name: 'createdAt', displayName: 'Time', type: 'Timestamp', sortable: true, filterable: true, showInTable: true },
  { name: 'email', displayName: 'User', type: 'Email', sortable: false, filterable: true, showInTable: true },
  { name: 'action', displayName: 'Action', type: 'AlphaNumeric', sortable: false, filterable: true, showInTable: true },
  { name: 'description', displayName: 'Description', type: 'AlphaNumeric', sortable: false, filterable: true, showInTable: true },
  { name: 'ip', displayName: 'IP address', type: 'IpAddress', sortable: false, filterable: true, showInTable: true },
  { name: 'severity', displayName: 'Severity', type: 'Severity', sortable: false, filterable: true, showInTable: true },
  { name: 'userAgent', displayName: 'User agent', type: 'AlphaNumeric', sortable: false, filterable: true, showInTable: false },
  { name: 'json', displayName: 'Details', type: 'Json', sortable: false, filterable: false, showInTable: false },
  { name: 'tenantId', displayName: 'Account', type: 'AlphaNumeric', sortable: false, filterable: false, showInTable: false },
];
export const AuditColumnNames = ['createdAt', 'email', 'action', 'description', 'ip', 'severity', 'userAgent', 'json', 'tenantId'] as const;
export type AuditColumnName = (typeof AuditColumnNames)[number];

