import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { AUDITS_CSV_FILE_NAME, type AuditColumn } from '@gatehouse/shared/admin-paths';
import type { AuditRecord } from '@gatehouse/shared/wire';
import { adoptCss } from '../host-styles';
import { fieldVisibility } from '../options';
import { createAuditsApi, totalPages, type AuditsQuery } from './audits/audits-api';
import type { SectionProps } from './section-props';
import type { Translator } from '../contract';
import { shortDateTime } from '../format';
import { useErrorText } from '../i18n/errors';
import { useT } from '../i18n/i18n-context';
import { TableSkeleton } from './users/users-table';
import auditsCss from './audits/audits.css?inline';
import css from './users/users.css?inline';
import { Pager } from '../controls/pager';

type Stats = { total: number; totalToday: number; severeThisWeek: number };

function cellText(t: Translator, record: AuditRecord, column: AuditColumn): string {
  const value = (record as Record<string, unknown>)[column.name];
  if (value === null || value === undefined) return '';
  if (column.type === 'Timestamp') {
    const date = new Date(String(value));
    return Number.isNaN(date.getTime()) ? String(value) : shortDateTime(t, date.toISOString());
  }
  if (column.type === 'Severity') {
    const key = `audits.severity.${String(value)}`;
    return t.has(key) ? t.t(key) : String(value);
  }
  return String(value);
}

/** A column's title in the portal's language; a column the portal does not know keeps the server's name. */
function columnTitle(t: Translator, column: AuditColumn): string {
  const key = `audits.column.${column.name}`;
  return t.has(key) ? t.t(key) : column.displayName;
}

/**
 * Audit logs (seed 001 sections 3 "Audit log", 4 "Audit export", 9): stats, the tenant's records 20 a
 * page newest first, filters by column, and the CSV export (a file named audits.csv). A failed load shows its
 * error; a failed export is only logged (seed 001 section 8).
 */
export default function AuditsSection({ title, headingId, api, options }: SectionProps) {
  const t = useT();
  const toError = useErrorText();
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
      .catch((thrown: unknown) => setError(toError(thrown)));
  }, [audits, toError]);

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
        setError(toError(thrown));
        setLogs(null);
      }
    } finally {
      if (ticket === latest.current) setLoading(false);
    }
  }, [audits, toError]);

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
              {t.t(isDownloadingCsv ? 'audits.exporting' : 'audits.export')}
            </button>
          )}
        </div>
        {stats && (
          <dl className="gh-ap-audit-stats" aria-label={t.t('audits.stats')}>
            <div className="gh-ap-audit-stat"><dt>{t.t('audits.stat.total')}</dt> <dd>{t.formatNumber(stats.total)}</dd></div>
            <div className="gh-ap-audit-stat"><dt>{t.t('audits.stat.today')}</dt> <dd>{t.formatNumber(stats.totalToday)}</dd></div>
            <div className="gh-ap-audit-stat"><dt>{t.t('audits.stat.severe')}</dt> <dd>{t.formatNumber(stats.severeThisWeek)}</dd></div>
          </dl>
        )}
        <div className="gh-ap-users-tools" role="search">
          <div className="gh-ap-field">
            <label className="gh-ap-label" htmlFor={`${ids}-email`}>{t.t('audits.filter.email')}</label>
            <input id={`${ids}-email`} className="gh-ap-input" type="email" autoComplete="off" value={query.filters.email ?? ''} onChange={(e) => setFilter('email', e.target.value)} />
          </div>
          <div className="gh-ap-field">
            <label className="gh-ap-label" htmlFor={`${ids}-description`}>{t.t('audits.filter.description')}</label>
            <input id={`${ids}-description`} className="gh-ap-input" type="search" autoComplete="off" value={query.filters.description ?? ''} onChange={(e) => setFilter('description', e.target.value)} />
          </div>
          <div className="gh-ap-field">
            <label className="gh-ap-label" htmlFor={`${ids}-severity`}>{t.t('audits.column.severity')}</label>
            <select id={`${ids}-severity`} className="gh-ap-select" value={query.filters.severity ?? ''} onChange={(e) => setFilter('severity', e.target.value)}>
              <option value="">{t.t('audits.filter.all')}</option>
              <option value="Info">{t.t('audits.severity.Info')}</option>
              <option value="High">{t.t('audits.severity.High')}</option>
            </select>
          </div>
          <div className="gh-ap-field">
            <label className="gh-ap-label" htmlFor={`${ids}-from`}>{t.t('audits.filter.since')}</label>
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
                        {columnTitle(t, c)} <span aria-hidden="true">{query.sortDirection === 'asc' ? '↑' : '↓'}</span>
                      </button>
                    ) : (
                      columnTitle(t, c)
                    )}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {logs?.data.map((record) => (
                <tr key={record.id}>
                  {(columns ?? []).map((c) => (
                    <td key={c.name} data-label={columnTitle(t, c)} className={c.type === 'Timestamp' ? 'gh-ap-nowrap' : undefined}>{cellText(t, record, c)}</td>
                  ))}
                </tr>
              ))}
              {!loading && logs?.data.length === 0 && (
                <tr>
                  <td className="gh-ap-empty-text gh-ap-table-empty" colSpan={columns?.length ?? 1}>{t.t(Object.values(query.filters).some(Boolean) ? 'audits.empty.filtered' : 'audits.empty.none')}</td>
                </tr>
              )}
            </tbody>
          </table>
          {loading && !logs && <TableSkeleton />}
        </div>
        <Pager label={t.t('audits.pages')} summary={loading && !logs ? '' : t.t('audits.count', { count: total })} page={query.page} pages={pages} busy={loading} onPage={(p) => setQuery((q) => ({ ...q, page: p }))} />
      </div>
    </section>
  );
}
