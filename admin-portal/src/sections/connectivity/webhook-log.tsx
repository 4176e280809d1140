import { Fragment, useCallback, useEffect, useId, useRef, useState } from 'react';
import type { Translator } from '../../contract';
import { useErrorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';
import { useLatestLoad } from '../dialogs/use-latest-load';
import { TableSkeleton } from '../users/users-table';
import { WEBHOOK_LOG_LIMIT, type ConnectivityApi } from './connectivity-api';
import type { WebhookAttempt, WebhookEndpoint } from './connectivity-types';
import { Pager } from '../../controls/pager';

/** A moment to the second: the attempts of one event come seconds apart. */
function attemptTime(t: Translator, ms: number): string {
  return t.formatDate(new Date(ms), { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

const STATUS_TEXT: Record<WebhookAttempt['status'], string> = {
  pending: 'connectivity.webhooks.log.status.pending',
  success: 'connectivity.webhooks.log.status.success',
  failed: 'connectivity.webhooks.log.status.failed',
};

function Heads({ title, heads }: { title: string; heads: Record<string, string> | null }) {
  const t = useT();
  const entries = Object.entries(heads ?? {});
  return (
    <div className="gh-ap-cx-heads">
      <h5 className="gh-ap-cx-detail-title">{title}</h5>
      {entries.length === 0 ? (
        <p className="gh-ap-hint">{t.t('connectivity.webhooks.log.none')}</p>
      ) : (
        <dl dir="ltr">
          {entries.map(([name, value]) => (
            <div key={name}>
              <dt><code className="gh-ap-mono">{name}</code></dt>
              <dd><code className="gh-ap-mono">{value}</code></dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}

function Body({ title, body }: { title: string; body: string | null }) {
  const t = useT();
  return (
    <div>
      <h5 className="gh-ap-cx-detail-title">{title}</h5>
      {body ? <pre className="gh-ap-cx-body" dir="ltr" tabIndex={0}>{pretty(body)}</pre> : <p className="gh-ap-hint">{t.t('connectivity.webhooks.log.none')}</p>}
    </div>
  );
}

/** JSON indented for reading; anything else as it came. */
function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/**
 * An endpoint's delivery log (seed 001 sections 3, 9: offset 0, limit 10 per page), newest first:
 * each attempt's event, status, response code, duration and time, with its request and response
 * heads and bodies in a disclosure. A failed attempt can be sent again (seed 001 section 4: the
 * retry succeeded when the server answered 202).
 */
export function WebhookLog({ endpoint, connectivity, canWrite, onBack }: { endpoint: WebhookEndpoint; connectivity: ConnectivityApi; canWrite: boolean; onBack: () => void }) {
  const t = useT();
  const toError = useErrorText();
  const [page, setPage] = useState(0);
  const [retry, setRetry] = useState<{ logId: string; state: 'busy' | 'queued' | 'failed'; message?: string } | null>(null);
  const fetchPage = useCallback(() => connectivity.webhooks.logs(endpoint._id, page * WEBHOOK_LOG_LIMIT, WEBHOOK_LOG_LIMIT), [connectivity, endpoint._id, page]);
  const { data, loading, error, reload } = useLatestLoad(fetchPage, toError);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const ids = useId();
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const total = data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / WEBHOOK_LOG_LIMIT));

  // Opening the log moves focus to its heading, so a screen reader says where it landed.
  useEffect(() => headingRef.current?.focus(), []);

  async function retryAttempt(attempt: WebhookAttempt) {
    setRetry({ logId: attempt.id, state: 'busy' });
    try {
      await connectivity.webhooks.retry(attempt.id);
      setRetry({ logId: attempt.id, state: 'queued' });
      void reload();
    } catch (thrown) {
      setRetry({ logId: attempt.id, state: 'failed', message: toError(thrown) });
    }
  }

  const col = { time: t.t('connectivity.webhooks.log.column.time'), event: t.t('connectivity.webhooks.log.column.event'), status: t.t('connectivity.webhooks.log.column.status'), code: t.t('connectivity.webhooks.log.column.code'), duration: t.t('connectivity.webhooks.log.column.duration'), details: t.t('connectivity.webhooks.log.column.details') };

  return (
    <div className="gh-ap-users">
      <div className="gh-ap-users-head">
        <button type="button" className="gh-ap-link gh-ap-cx-back" onClick={onBack}>
          <span aria-hidden="true" className="gh-ap-cx-back-arrow">←</span> {t.t('connectivity.webhooks.log.back')}
        </button>
        <button type="button" className="gh-ap-button-secondary" disabled={loading} aria-busy={loading} onClick={() => void reload()}>{t.t('connectivity.webhooks.log.refresh')}</button>
      </div>
      <h3 ref={headingRef} className="gh-ap-cx-title" tabIndex={-1}>{t.t('connectivity.webhooks.log.title')}</h3>
      <p className="gh-ap-modal-text"><code className="gh-ap-mono gh-ap-cx-url" dir="ltr">{endpoint.url}</code></p>
      {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
      <div aria-live="polite">
        {retry?.state === 'queued' && <p className="gh-ap-banner gh-ap-banner-success">{t.t('connectivity.webhooks.log.retried')}</p>}
      </div>
      {retry?.state === 'failed' && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{t.t('connectivity.webhooks.log.retryFailed', { message: retry.message ?? '' })}</p>}
      <div className="gh-ap-table-wrap">
        <table className="gh-ap-table gh-ap-cx-log" aria-busy={loading}>
          <caption className="gh-ap-visually-hidden">{t.t('connectivity.webhooks.log.caption', { url: endpoint.url })}</caption>
          <thead>
            <tr>
              <th scope="col">{col.time}</th>
              <th scope="col">{col.event}</th>
              <th scope="col">{col.status}</th>
              <th scope="col">{col.code}</th>
              <th scope="col">{col.duration}</th>
              <th scope="col">{col.details}</th>
            </tr>
          </thead>
          <tbody>
            {data?.rows.map((attempt) => {
              const open = expanded.has(attempt.id);
              const detailId = `${ids}-${attempt.id}`;
              return (
                <Fragment key={attempt.id}>
                  <tr>
                    <th scope="row" className="gh-ap-nowrap">{attemptTime(t, attempt.createdAt)}</th>
                    <td data-label={col.event}>
                      <span>
                        <code className="gh-ap-mono gh-ap-cx-key" dir="ltr">{attempt.eventKey}</code>
                        <span className="gh-ap-hint gh-ap-cx-attempt">{t.t('connectivity.webhooks.log.attempt', { attempt: attempt.attempt })}</span>
                      </span>
                    </td>
                    <td data-label={col.status}>
                      <span className={`gh-ap-badge gh-ap-cx-status-${attempt.status}`}>{t.t(STATUS_TEXT[attempt.status])}</span>
                    </td>
                    <td data-label={col.code}>{attempt.statusCode ?? '—'}</td>
                    <td data-label={col.duration} className="gh-ap-nowrap">{attempt.durationMs === null ? '—' : t.t('connectivity.webhooks.log.ms', { ms: attempt.durationMs })}</td>
                    <td data-label={col.details}>
                      <span className="gh-ap-cx-row-actions">
                        <button type="button" className="gh-ap-link gh-ap-cx-toggle-details" aria-expanded={open} aria-controls={detailId} onClick={() => toggle(attempt.id)}>
                          <span aria-hidden="true" className="gh-ap-cx-caret">{open ? '▾' : '▸'}</span> {t.t(attempt.error ? 'connectivity.webhooks.log.showError' : 'connectivity.webhooks.log.show')}
                        </button>
                        {canWrite && attempt.status === 'failed' && (
                          <button
                            type="button"
                            className="gh-ap-button-secondary gh-ap-cx-retry"
                            disabled={retry?.state === 'busy'}
                            aria-busy={retry?.logId === attempt.id && retry.state === 'busy'}
                            aria-label={t.t('connectivity.webhooks.log.retryLabel', { event: attempt.eventKey, time: attemptTime(t, attempt.createdAt) })}
                            onClick={() => void retryAttempt(attempt)}
                          >
                            {t.t('connectivity.webhooks.log.retry')}
                          </button>
                        )}
                      </span>
                    </td>
                  </tr>
                  {open && (
                    <tr className="gh-ap-cx-detail-row">
                      <td id={detailId} colSpan={6}>
                        {attempt.error && <p className="gh-ap-field-error">{attempt.error}</p>}
                        <div className="gh-ap-cx-exchange">
                          <section aria-label={t.t('connectivity.webhooks.log.request')}>
                            <h4 className="gh-ap-cx-detail-title">{t.t('connectivity.webhooks.log.request')}</h4>
                            <Heads title={t.t('connectivity.webhooks.log.headers')} heads={attempt.requestHeaders} />
                            <Body title={t.t('connectivity.webhooks.log.body')} body={attempt.requestBody} />
                          </section>
                          <section aria-label={t.t('connectivity.webhooks.log.response')}>
                            <h4 className="gh-ap-cx-detail-title">{t.t('connectivity.webhooks.log.response')}</h4>
                            <Heads title={t.t('connectivity.webhooks.log.headers')} heads={attempt.responseHeaders} />
                            <Body title={t.t('connectivity.webhooks.log.body')} body={attempt.responseBody} />
                          </section>
                        </div>
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
            {!loading && !error && (data?.rows.length ?? 0) === 0 && (
              <tr>
                <td colSpan={6}>
                  <p className="gh-ap-table-empty">{t.t('connectivity.webhooks.log.empty')}</p>
                </td>
              </tr>
            )}
          </tbody>
        </table>
        {loading && !data && <TableSkeleton rows={3} />}
      </div>
      {total > 0 && (
        <Pager label={t.t('connectivity.webhooks.log.pages')} summary={t.t('connectivity.webhooks.log.count', { count: total })} page={page} pages={pages} busy={loading} onPage={setPage} />
      )}
    </div>
  );
}
