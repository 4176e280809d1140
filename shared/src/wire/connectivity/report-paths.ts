/**
 * Reports (issue 16; seed 001 sections 1, 3 "Reports: dataFilters (encoded), templateId, name,
 * responseType (html, pdf, image). Download types: html, pdf, jpg", 5 "Date filter sanitizers need
 * valid dates, numeric need numbers, boolean need a boolean", 7): paths, the templates' filters and
 * their one validation, used by the server and by the portal's Reports section. Plain data, no zod,
 * so the portal imports it at run time; the schemas are in reports.ts.
 */
import { Permissions, type PermissionKey } from '../admin/permissions';

const reports = '/reports/resources';

export const ReportPaths = {
  /** GET: the templates and the filters each takes. */
  templates: `${reports}/templates/v1`,
  /** GET (the tenant's saved reports) | POST `{ id?, templateId, name, dataFilters }` (update when id exists, else create). */
  tenantReports: `${reports}/tenant-reports/v1`,
  /** DELETE: a saved report and its triggers. */
  tenantReport: `${reports}/tenant-reports/v1/{id}`,
  /** GET `?type=html|pdf|jpg`: the saved report rendered now, as an attachment. */
  tenantReportDownload: `${reports}/tenant-reports/v1/{id}/download`,
  /** GET `?templateId&dataFilters=<base64url JSON>&responseType=html|pdf|image`. */
  previewReport: `${reports}/preview-report/v1`,
  /** GET (the tenant's triggers) | POST `{ id?, reportId, schedule, recipients, enabled }`. */
  reportTriggers: `${reports}/report-triggers/v1`,
  /** DELETE. */
  reportTrigger: `${reports}/report-triggers/v1/{id}`,
} as const;

export const REPORT_TEMPLATE_IDS = ['users-mfa', 'sign-in-activity', 'audit-summary', 'security-posture'] as const;
export type ReportTemplateId = (typeof REPORT_TEMPLATE_IDS)[number];

/**
 * The permission keys each template's data needs besides fe.reports.*: a report shows nothing its
 * reader could not read where the data comes from (members and emails: users; sign-in IPs and audit
 * descriptions: audits; the security center: the security policy's read key). The server checks
 * them; the portal offers only the templates whose keys the admin holds.
 */
export const REPORT_TEMPLATE_PERMISSIONS: Record<ReportTemplateId, readonly PermissionKey[]> = {
  'users-mfa': [Permissions.usersRead],
  'sign-in-activity': [Permissions.auditsRead],
  'audit-summary': [Permissions.auditsRead],
  'security-posture': [Permissions.securityPolicyRead],
};

/** Preview response types (seed: html, pdf, image) and download types (seed: html, pdf, jpg). */
export const REPORT_RESPONSE_TYPES = ['html', 'pdf', 'image'] as const;
export type ReportResponseType = (typeof REPORT_RESPONSE_TYPES)[number];
export const REPORT_DOWNLOAD_TYPES = ['html', 'pdf', 'jpg'] as const;
export type ReportDownloadType = (typeof REPORT_DOWNLOAD_TYPES)[number];

export const REPORT_SCHEDULES = ['weekly', 'monthly'] as const;
export type ReportSchedule = (typeof REPORT_SCHEDULES)[number];

/** Limits of what a tenant keeps and what a report holds. */
export const REPORT_LIMITS = {
  /** Saved reports per tenant. */
  reportsPerTenant: 100,
  /** Triggers per tenant. */
  triggersPerTenant: 100,
  /** Recipients per trigger. */
  recipientsPerTrigger: 20,
  /** A report's name. */
  nameLength: 120,
  /** Rows a report's table holds at most (the `limit` filter can ask fewer). */
  maxRows: 500,
  /** Role ids in a `roleIds` filter. */
  roleIds: 50,
  /** The encoded dataFilters in a query string. */
  encodedFilters: 4096,
} as const;

/** Kinds of filter: a date (YYYY-MM-DD or an ISO date-time), a number, a boolean, one of options, a list of role ids. */
export type ReportFilterType = 'date' | 'number' | 'boolean' | 'select' | 'roles';

export interface ReportFilterDefinition {
  key: string;
  type: ReportFilterType;
  required: boolean;
  /** number: bounds (inclusive). */
  min?: number;
  max?: number;
  /** select: the allowed values. */
  options?: readonly string[];
}

const limitFilter = (fallbackMax: number): ReportFilterDefinition => ({ key: 'limit', type: 'number', required: false, min: 1, max: fallbackMax });
const dateRange: ReportFilterDefinition[] = [
  { key: 'from', type: 'date', required: false },
  { key: 'to', type: 'date', required: false },
];

/** The filters each template takes (their labels are the portal's; the server validates with them). */
export const REPORT_TEMPLATE_FILTERS: Record<ReportTemplateId, readonly ReportFilterDefinition[]> = {
  'users-mfa': [...dateRange, { key: 'roleIds', type: 'roles', required: false }, { key: 'mfaEnrolled', type: 'boolean', required: false }, limitFilter(REPORT_LIMITS.maxRows)],
  'sign-in-activity': [...dateRange, { key: 'includeFailed', type: 'boolean', required: false }, limitFilter(REPORT_LIMITS.maxRows)],
  'audit-summary': [...dateRange, { key: 'severity', type: 'select', required: false, options: ['Info', 'High'] }, limitFilter(REPORT_LIMITS.maxRows)],
  'security-posture': [{ key: 'includeInsights', type: 'boolean', required: false }],
};

/** Validated filters: dates as epoch ms (a date-only `to` covers its whole UTC day), the rest as given. */
export type ReportFilterValues = Record<string, string | number | boolean | string[]>;

export type FilterCheck = { ok: true; value: ReportFilterValues } | { ok: false; errors: { field: string; message: string }[] };

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/** A date-only or ISO date-time string as epoch ms, or null when it is not a real date (2026-02-30 is not). */
export function parseReportDate(raw: string): number | null {
  if (!DATE_ONLY.test(raw) && !DATE_TIME.test(raw)) return null;
  const ms = Date.parse(DATE_ONLY.test(raw) ? `${raw}T00:00:00Z` : raw);
  if (!Number.isFinite(ms)) return null;
  // Date.parse rolls 2026-02-30 over to March: the day must survive the round trip.
  if (DATE_ONLY.test(raw) && new Date(ms).toISOString().slice(0, 10) !== raw) return null;
  return ms;
}

/**
 * Checks `raw` against the template's filters (seed: "Date filter sanitizers need valid dates,
 * numeric need numbers, boolean need a boolean"): every error names its field; unknown keys are
 * refused so a typo never silently widens a report.
 */
export function checkReportFilters(templateId: ReportTemplateId, raw: unknown): FilterCheck {
  const defs = REPORT_TEMPLATE_FILTERS[templateId];
  const errors: { field: string; message: string }[] = [];
  if (raw === undefined || raw === null) raw = {};
  if (typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, errors: [{ field: 'dataFilters', message: 'dataFilters must be an object' }] };
  const input = raw as Record<string, unknown>;
  const value: ReportFilterValues = {};
  for (const key of Object.keys(input)) {
    if (!defs.some((d) => d.key === key)) errors.push({ field: `dataFilters.${key}`, message: `${key} is not a filter of ${templateId}` });
  }
  for (const def of defs) {
    const v = input[def.key];
    const field = `dataFilters.${def.key}`;
    if (v === undefined || v === null || v === '') {
      if (def.required) errors.push({ field, message: `${def.key} is required` });
      continue;
    }
    switch (def.type) {
      case 'date': {
        const ms = typeof v === 'string' ? parseReportDate(v) : null;
        if (ms === null) errors.push({ field, message: `${def.key} must be a valid date (YYYY-MM-DD)` });
        else value[def.key] = def.key === 'to' && DATE_ONLY.test(v as string) ? ms + 86_400_000 - 1 : ms;
        break;
      }
      case 'number': {
        if (typeof v !== 'number' || !Number.isFinite(v)) errors.push({ field, message: `${def.key} must be a number` });
        else if (!Number.isInteger(v) || (def.min !== undefined && v < def.min) || (def.max !== undefined && v > def.max)) errors.push({ field, message: `${def.key} must be a whole number from ${def.min} to ${def.max}` });
        else value[def.key] = v;
        break;
      }
      case 'boolean': {
        if (typeof v !== 'boolean') errors.push({ field, message: `${def.key} must be a boolean` });
        else value[def.key] = v;
        break;
      }
      case 'select': {
        if (typeof v !== 'string' || !def.options?.includes(v)) errors.push({ field, message: `${def.key} must be one of ${def.options?.join(', ')}` });
        else value[def.key] = v;
        break;
      }
      case 'roles': {
        if (!Array.isArray(v) || v.length > REPORT_LIMITS.roleIds || !v.every((id) => typeof id === 'string' && id.length > 0 && id.length <= 64)) {
          errors.push({ field, message: `${def.key} must be a list of up to ${REPORT_LIMITS.roleIds} role ids` });
        } else if (v.length > 0) value[def.key] = [...new Set(v as string[])];
        break;
      }
    }
  }
  if (typeof value.from === 'number' && typeof value.to === 'number' && value.from > value.to) errors.push({ field: 'dataFilters.to', message: 'to must not be before from' });
  return errors.length ? { ok: false, errors } : { ok: true, value };
}

/** base64url of the filters' JSON: how dataFilters travels in a query string (seed: "dataFilters (encoded)"). */
export function encodeDataFilters(filters: Record<string, unknown>): string {
  const bytes = new TextEncoder().encode(JSON.stringify(filters));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The filters of an encoded dataFilters, or null when it is not base64url of a JSON object. */
export function decodeDataFilters(encoded: string): Record<string, unknown> | null {
  if (encoded.length > REPORT_LIMITS.encodedFilters || !/^[A-Za-z0-9_-]*$/.test(encoded)) return null;
  try {
    const binary = atob(encoded.replace(/-/g, '+').replace(/_/g, '/'));
    const text = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (ch) => ch.charCodeAt(0)));
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
