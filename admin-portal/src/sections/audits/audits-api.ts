/** The audits section's calls (seed 001 section 7 "Audits"), through the portal's API client. */
import { AUDITS_PAGE_SIZE, AuditPaths, type AuditColumn } from '@gatehouse/shared/admin-paths';
import type { AuditRecord } from '@gatehouse/shared/wire';
import type { GatehouseApi } from '../../contract';

/** What the table asks for: the page, newest or oldest first, and the column filters. */
export interface AuditsQuery {
  page: number;
  sortDirection: 'asc' | 'desc';
  filters: { severity?: string; action?: string; email?: string; description?: string; createdAtFrom?: string };
}

/** Only the filters with a value. */
function filtersOf(query: AuditsQuery): Record<string, string> {
  return Object.fromEntries(Object.entries(query.filters).filter((entry): entry is [string, string] => Boolean(entry[1]?.trim())).map(([k, v]) => [k, v.trim()]));
}

export function createAuditsApi(api: GatehouseApi) {
  return {
    list: (q: AuditsQuery) =>
      api.request<{ data: AuditRecord[]; total: number }>('GET', AuditPaths.audits, {
        query: { offset: q.page * AUDITS_PAGE_SIZE, count: AUDITS_PAGE_SIZE, sortBy: 'createdAt', sortDirection: q.sortDirection, ...filtersOf(q) },
      }),
    stats: () => api.request<{ total: number; totalToday: number; severeThisWeek: number }>('GET', AuditPaths.stats),
    metadata: () => api.request<{ columns: AuditColumn[] }>('GET', AuditPaths.metadata),
    /** The CSV with headerProps from the metadata's table columns, offset 0 (seed 001 section 7). */
    exportCsv: (q: AuditsQuery, columns: AuditColumn[]) =>
      api.request<Blob>('POST', AuditPaths.exportCsv, {
        body: { sortBy: 'createdAt', sortDirection: q.sortDirection, offset: 0, filters: filtersOf(q), headerProps: columns.map((c) => ({ name: c.name, displayName: c.displayName })) },
        responseType: 'blob',
      }),
  };
}

/** Seed 001 section 9: total pages = total / page size rounded up (at least one). */
export const totalPages = (total: number) => Math.max(1, Math.ceil(total / AUDITS_PAGE_SIZE));
