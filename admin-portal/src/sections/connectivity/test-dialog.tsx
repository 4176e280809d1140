import { useId, useState } from 'react';
import { useErrorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';
import { Modal } from '../users/modal';
import type { WebhookEndpoint, WebhookTestResult } from './connectivity-types';

/**
 * Sends a test delivery of one of the endpoint's events (the catalogue's example, signed like any
 * delivery). Seed 001 section 4: it succeeded only when the receiver answered 200 or 201; otherwise
 * it failed, with the message. Either way the attempt is in the endpoint's log.
 */
export function TestDialog({ endpoint, send, onShowLog, onClose }: {
  endpoint: WebhookEndpoint;
  send: (eventKey: string) => Promise<WebhookTestResult>;
  onShowLog: () => void;
  onClose: () => void;
}) {
  const t = useT();
  const toError = useErrorText();
  const id = useId();
  const [eventKey, setEventKey] = useState(endpoint.eventKeys[0] ?? '');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<WebhookTestResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Seed 001 section 4, whatever the server called it: success is a 200 or a 201. The status code is
  // said in its own words only when the server's message does not already say it.
  const succeeded = result !== null && result.status === 'success' && (result.statusCode === 200 || result.statusCode === 201);

  async function run() {
    setBusy(true);
    setResult(null);
    setError(null);
    try {
      setResult(await send(eventKey));
    } catch (thrown) {
      setError(toError(thrown));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal title={t.t('connectivity.webhooks.test.title')} onClose={onClose} busy={busy}>
      <p className="gh-ap-modal-text">
        {t.t('connectivity.webhooks.test.text')} <code className="gh-ap-mono gh-ap-cx-url" dir="ltr">{endpoint.url}</code>
      </p>
      <div className="gh-ap-field">
        <label className="gh-ap-label" htmlFor={`${id}-event`}>{t.t('connectivity.webhooks.test.event')}</label>
        <select id={`${id}-event`} className="gh-ap-select" value={eventKey} disabled={busy} onChange={(e) => setEventKey(e.target.value)} data-autofocus>
          {endpoint.eventKeys.map((key) => <option key={key} value={key}>{key}</option>)}
        </select>
      </div>
      <div aria-live="polite">
        {result && (
          <p className={`gh-ap-banner ${succeeded ? 'gh-ap-banner-success' : 'gh-ap-banner-error'}`}>
            <strong>{t.t(succeeded ? 'connectivity.webhooks.test.success' : 'connectivity.webhooks.test.failed')}</strong>{' '}
            {result.statusCode !== null && !result.message.includes(String(result.statusCode)) && <span>{t.t('connectivity.webhooks.test.statusCode', { code: result.statusCode })} </span>}
            {result.message}
          </p>
        )}
      </div>
      {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
      <div className="gh-ap-modal-actions">
        {result && <button type="button" className="gh-ap-link gh-ap-push-left" onClick={onShowLog}>{t.t('connectivity.webhooks.test.showLog')}</button>}
        <button type="button" className="gh-ap-button-secondary" onClick={onClose} disabled={busy}>{t.t('common.close')}</button>
        <button type="button" className="gh-ap-button" onClick={() => void run()} disabled={busy || !eventKey} aria-busy={busy}>
          {busy && <span className="gh-ap-spinner" aria-hidden="true" />}
          {t.t('connectivity.webhooks.test.send')}
        </button>
      </div>
    </Modal>
  );
}
