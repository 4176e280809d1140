import { useCallback, useEffect, useRef, useState } from 'react';
import { SCIM_REQUEST_LOG_SIZE } from '@gatehouse/shared/admin-paths';
import type { ScimConnection, ScimRequestLogEntry, ScimRequestLogPage } from '@gatehouse/shared/wire';
import type { Translator } from '../../contract';
import { useErrorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';
import { useLatestLoad } from '../dialogs/use-latest-load';
import { TableSkeleton } from '../users/users-table';
import { REQUEST_LOG_PAGE_SIZE, type ProvisioningApi } from './provisioning-api';
import { SOURCE_LABELS } from './sources';
import { Pager } from '../../controls/pager';

/** A moment to the second: requests of one push arrive within the same minute. */
function requestTime(t: Translator, iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return t.t('common.unknown');
  return t.formatDate(date, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** A value of the diff as one line: strings as they are, absent as "(none)", anything else as JSON. */
export function diffValue(t: Translator, value: unknown): string {
  if (value === undefined || value === null || value === '') return t.t('provisioning.log.empty');
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** 2xx succeeded, 4xx was refused (the provider sent something wrong), 5xx failed here. */
function statusTone(status: number): 'ok' | 'refused' | 'failed' {
  return status < 400 ? 'ok' : status < 500 ? 'refused' : 'failed';
}

const STATUS_TEXT: Record<ReturnType<typeof statusTone>, string> = { ok: 'provisioning.log.status.ok', refused: 'provisioning.log.status.refused', failed: 'provisioning.log.status.failed' };

/** What changed, or the error, inside a disclosure the row's "Changes" cell holds. */
function RequestDetails({ entry }: { entry: ScimRequestLogEntry }) {
  const t = useT();
  const changes = Object.entries(entry.diff ?? {});
  if (changes.length === 0 && !entry.error) return <span className="gh-ap-hint">{t.t('provisioning.log.noChanges')}</span>;
  return (
    <details className="gh-ap-scim-details">
      <summary>{entry.error && changes.length === 0 ? t.t('provisioning.log.error') : t.t('provisioning.log.changes', { count: changes.length })}</summary>
      {entry.error && <p className="gh-ap-scim-error">{entry.error}</p>}
      {changes.length > 0 && (
        <dl className="gh-ap-scim-diff">
          {changes.map(([attribute, [before, after]]) => (
            <div key={attribute}>
              <dt><code dir="ltr">{attribute}</code></dt>
              <dd>
                <span className="gh-ap-visually-hidden">{t.t('provisioning.log.before')} </span>
                <del>{diffValue(t, before)}</del>
                <span aria-hidden="true"> → </span>
                <span className="gh-ap-visually-hidden">{t.t('provisioning.log.after')} </span>
                <ins>{diffValue(t, after)}</ins>
              </dd>
            </div>
          ))}
        </dl>
      )}
    </details>
  );
}

/**
 * A connection's request log (issue 15: the last 1,000 SCIM requests with status and a diff of what
 * changed), newest first, a page at a time, with a refresh for pushes that arrive while it is open.
 * Empty, it says what will appear here and when.
 */
export function RequestLog({ connection, provisioning, onBack }: { connection: ScimConnection; provisioning: ProvisioningApi; onBack: () => void }) {
  const t = useT();
  const toError = useErrorText();
  const [page, setPage] = useState(0);
  const fetchPage = useCallback((): Promise<ScimRequestLogPage> => provisioning.requests(connection.id, page), [provisioning, connection.id, page]);
  const { data, loading, error, reload } = useLatestLoad(fetchPage, toError);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const provider = t.t(SOURCE_LABELS[connection.source].name);
  const total = data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / REQUEST_LOG_PAGE_SIZE));

  // Opening the log moves focus to its heading, so a screen reader says where it landed.
  useEffect(() => headingRef.current?.focus(), []);

  const col = { time: t.t('provisioning.log.column.time'), method: t.t('provisioning.log.column.method'), path: t.t('provisioning.log.column.path'), status: t.t('provisioning.log.column.status'), changes: t.t('provisioning.log.column.changes') };

  return (
    <div className="gh-ap-users">
      <div className="gh-ap-users-head">
        <button type="button" className="gh-ap-link gh-ap-scim-back" onClick={onBack}>
          <span aria-hidden="true" className="gh-ap-scim-back-arrow">←</span> {t.t('provisioning.log.back')}
        </button>
        <button type="button" className="gh-ap-button-secondary" disabled={loading} aria-busy={loading} onClick={() => void reload()}>{t.t('provisioning.log.refresh')}</button>
      </div>
      <h3 ref={headingRef} className="gh-ap-scim-log-title" tabIndex={-1}>{t.t('provisioning.log.title', { provider })}</h3>
      <p className="gh-ap-modal-text">{t.t('provisioning.log.intro', { max: SCIM_REQUEST_LOG_SIZE })}</p>
      {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
      <div className="gh-ap-table-wrap">
        <table className="gh-ap-table gh-ap-scim-log" aria-busy={loading}>
          <caption className="gh-ap-visually-hidden">{t.t('provisioning.log.caption', { provider })}</caption>
          <thead>
            <tr>
              <th scope="col">{col.time}</th>
              <th scope="col">{col.method}</th>
              <th scope="col">{col.path}</th>
              <th scope="col">{col.status}</th>
              <th scope="col">{col.changes}</th>
            </tr>
          </thead>
          <tbody>
            {data?.items.map((entry) => (
              <tr key={entry.id}>
                <th scope="row" className="gh-ap-nowrap">{requestTime(t, entry.createdAt)}</th>
                <td data-label={col.method}><code className="gh-ap-mono" dir="ltr">{entry.method}</code></td>
                <td data-label={col.path} className="gh-ap-scim-path"><code className="gh-ap-mono" dir="ltr">{entry.path}</code></td>
                <td data-label={col.status}>
                  <span className={`gh-ap-badge gh-ap-scim-status gh-ap-scim-status-${statusTone(entry.status)}`}>
                    {entry.status} <span className="gh-ap-scim-status-text">{t.t(STATUS_TEXT[statusTone(entry.status)])}</span>
                  </span>
                </td>
                <td data-label={col.changes}><RequestDetails entry={entry} /></td>
              </tr>
            ))}
            {!loading && !error && (data?.items.length ?? 0) === 0 && (
              <tr>
                <td colSpan={5}>
                  <p className="gh-ap-table-empty">{t.t('provisioning.log.none', { provider })}</p>
                </td>
              </tr>
            )}
          </tbody>
        </table>
        {loading && !data && <TableSkeleton rows={3} />}
      </div>
      {total > 0 && (
        <Pager label={t.t('provisioning.log.pages')} summary={t.t('provisioning.log.count', { count: total })} page={page} pages={pages} busy={loading} onPage={setPage} />
      )}
    </div>
  );
}
