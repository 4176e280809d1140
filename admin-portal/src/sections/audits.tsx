import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { AUDITS_CSV_FILE_NAME, type AuditColumn } from '@gatehouse/shared/admin-paths';
import type { AuditRecord } from '@gatehouse/shared/wire';
import { adoptCss } from '../host-styles';
import { fieldVisibility } from '../options';
import { createAuditsApi, totalPages, type AuditsQuery } from './audits/audits-api';
import type { SectionProps } from './section-props';
import { errorMessage } from './users/users-format';
import auditsCss from './audits/audits.css?inline';
import css from './users/users.css?inline';

type Stats = { total: number; totalToday: number; severeThisWeek: number };

function cellText(record: AuditRecord, column: AuditColumn): string {
  const value = (record as Record<string, unknown>)[column.name];
  if (value === null || value === undefined) return '';
  if (column.type === 'Timestamp') {
    const date = new Date(String(value));
    return Number.isNaN(date.getTime()) ? String(value) : date.toLocaleString();
  }
  return String(value);
}

/**
 * Audit logs (seed 001 sections 3 "Audit log", 4 "Audit export", 9): stats, the tenant's records 20 a
 * page newest first, filters by column, and the CSV export `audits.csv`. A failed load shows its
 * error; a failed export is only logged (seed 001 section 8).
 */
export default function AuditsSection({ title, headingId, api, options }: SectionProps) {
  const exportMode = fieldVisibility(options, 'audits', 'exportCsv');
  const audits = useMemo(() => createAuditsApi(api), [api]);
  const [query, setQuery] = useState<AuditsQuery>({ page: 0, sortDirection: 'desc', filters: {} });
  const [columns, setColumns] = useState<AuditColumn[] | null>(null);
  const [stats, setStats] = useState<Stats | null>(null);
  const [logs, setLogs] = useState<{ data: AuditRecord[]; total: number } | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [isDownloadingCsv, setDownloading] = useState(false);
  const sectionRef = useRef<HTMLElement>(null);
  const ids = useId();

  useEffect(() => (sectionRef.current ? adoptCss(sectionRef.current, `${css}\n${auditsCss}`) : undefined), []);

  useEffect(() => {
    Promise.all([audits.metadata(), audits.stats()])
      .then(([metadata, counts]) => {
        setColumns(metadata.columns.filter((c) => c.showInTable));
        setStats(counts);
      })
      .catch((thrown: unknown) => setError(errorMessage(thrown)));
  }, [audits]);

  const latest = useRef(0);
  const load = useCallback(async (q: AuditsQuery) => {
    const ticket = ++latest.current;
    setLoading(true);
    setError(null);
    try {
      const result = await audits.list(q);
      if (ticket === latest.current) setLogs(result);
    } catch (thrown) {
      if (ticket === latest.current) {
        setError(errorMessage(thrown));
        setLogs(null);
      }
    } finally {
      if (ticket === latest.current) setLoading(false);
    }
  }, [audits]);

  useEffect(() => {
    void load(query);
  }, [load, query]);

  const setFilter = (name: keyof AuditsQuery['filters'], value: string) => setQuery((q) => ({ ...q, page: 0, filters: { ...q.filters, [name]: value || undefined } }));

  async function exportCsv() {
    if (!columns) return;
    setDownloading(true);
    try {
      const blob = await audits.exportCsv(query, columns);
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = AUDITS_CSV_FILE_NAME;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 0);
    } catch (thrown) {
      console.error('Audit export failed', thrown);
    } finally {
      setDownloading(false);
    }
  }

  const total = logs?.total ?? 0;
  const pages = totalPages(total);

  return (
    <section ref={sectionRef} className="gh-ap-section gh-ap-section-wide" aria-labelledby={headingId}>
      <div className="gh-ap-users">
        <div className="gh-ap-users-head">
          <h2 id={headingId} className="gh-ap-section-title">{title}</h2>
          {exportMode !== 'hidden' && (
            <button type="button" className="gh-ap-button" disabled={exportMode === 'viewOnly' || !columns || isDownloadingCsv} aria-busy={isDownloadingCsv} onClick={() => void exportCsv()}>
              {isDownloadingCsv ? 'Exporting…' : 'Export CSV'}
            </button>
          )}
        </div>
        {stats && (
          <dl className="gh-ap-audit-stats" aria-label="Audit statistics">
            <div className="gh-ap-audit-stat"><dt>Total</dt> <dd>{stats.total}</dd></div>
            <div className="gh-ap-audit-stat"><dt>Today</dt> <dd>{stats.totalToday}</dd></div>
            <div className="gh-ap-audit-stat"><dt>High severity this week</dt> <dd>{stats.severeThisWeek}</dd></div>
          </dl>
        )}
        <div className="gh-ap-users-tools" role="search">
          <div className="gh-ap-field">
            <label className="gh-ap-label" htmlFor={`${ids}-email`}>User email</label>
            <input id={`${ids}-email`} className="gh-ap-input" type="email" autoComplete="off" value={query.filters.email ?? ''} onChange={(e) => setFilter('email', e.target.value)} />
          </div>
          <div className="gh-ap-field">
            <label className="gh-ap-label" htmlFor={`${ids}-description`}>Description contains</label>
            <input id={`${ids}-description`} className="gh-ap-input" type="search" autoComplete="off" value={query.filters.description ?? ''} onChange={(e) => setFilter('description', e.target.value)} />
          </div>
          <div className="gh-ap-field">
            <label className="gh-ap-label" htmlFor={`${ids}-severity`}>Severity</label>
            <select id={`${ids}-severity`} className="gh-ap-select" value={query.filters.severity ?? ''} onChange={(e) => setFilter('severity', e.target.value)}>
              <option value="">All</option>
              <option value="Info">Info</option>
              <option value="High">High</option>
            </select>
          </div>
          <div className="gh-ap-field">
            <label className="gh-ap-label" htmlFor={`${ids}-from`}>Since</label>
            <input id={`${ids}-from`} className="gh-ap-input" type="date" value={query.filters.createdAtFrom ?? ''} onChange={(e) => setFilter('createdAtFrom', e.target.value)} />
          </div>
        </div>
        {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
        <div className="gh-ap-table-wrap">
          <table className="gh-ap-table" aria-busy={loading}>
            <caption className="gh-ap-visually-hidden">{title}</caption>
            <thead>
              <tr>
                {(columns ?? []).map((c) => (
                  <th key={c.name} scope="col" aria-sort={c.sortable ? (query.sortDirection === 'asc' ? 'ascending' : 'descending') : undefined}>
                    {c.sortable ? (
                      <button type="button" className="gh-ap-sort" onClick={() => setQuery((q) => ({ ...q, page: 0, sortDirection: q.sortDirection === 'asc' ? 'desc' : 'asc' }))}>
                        {c.displayName} {query.sortDirection === 'asc' ? '↑' : '↓'}
                      </button>
                    ) : (
                      c.displayName
                    )}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {logs?.data.map((record) => (
                <tr key={record.id}>
                  {(columns ?? []).map((c) => (
                    <td key={c.name} className={c.type === 'Timestamp' ? 'gh-ap-nowrap' : undefined}>{cellText(record, c)}</td>
                  ))}
                </tr>
              ))}
              {!loading && logs?.data.length === 0 && (
                <tr>
                  <td className="gh-ap-empty-text gh-ap-table-empty" colSpan={columns?.length ?? 1}>No audit records match</td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
        <nav className="gh-ap-pager" aria-label="Pages of audit records">
          <span>{loading && !logs ? 'Loading audit logs…' : `${total} ${total === 1 ? 'record' : 'records'}`}</span>
          <button type="button" className="gh-ap-button-secondary" disabled={query.page === 0 || loading} onClick={() => setQuery((q) => ({ ...q, page: q.page - 1 }))}>Previous</button>
          <span aria-live="polite">Page {query.page + 1} of {pages}</span>
          <button type="button" className="gh-ap-button-secondary" disabled={query.page + 1 >= pages || loading} onClick={() => setQuery((q) => ({ ...q, page: q.page + 1 }))}>Next</button>
        </nav>
      </div>
    </section>
  );
}
