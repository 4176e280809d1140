import { useEffect, useId, useRef, useState } from 'react';
import type { CreatedApiToken } from '@gatehouse/shared/wire';
import { Modal } from '../users/modal';
import { useT } from '../../i18n/i18n-context';
import { copyText } from './copy-text';

const COPIED_FOR_MS = 2000;

/** A read-only value with a Copy button that says "Copied" for a moment (or how to copy by hand). */
/** Exported for the recovery codes, shown once the same way. */
export function CopyField({ label, copyLabel, value, autofocus = false }: { label: string; copyLabel: string; value: string; autofocus?: boolean }) {
  const t = useT();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);

  async function copy() {
    const ok = await copyText(value, input.current);
    setState(ok ? 'copied' : 'failed');
    clearTimeout(timer.current);
    if (ok) timer.current = setTimeout(() => setState('idle'), COPIED_FOR_MS);
  }

  return (
    <div className="gh-ap-field">
      <label className="gh-ap-label" htmlFor={id}>{label}</label>
      <div className="gh-ap-copy">
        <input ref={input} id={id} className="gh-ap-input gh-ap-mono" dir="ltr" value={value} readOnly spellCheck={false} autoComplete="off" onFocus={(e) => e.currentTarget.select()} />
        {/* The name keeps the visible word at its start (WCAG 2.5.3, label in name): "Copy token", then "Copied: Token". */}
        <button type="button" className="gh-ap-button-secondary" aria-label={state === 'copied' ? t.t('common.copiedButton', { what: label }) : copyLabel} onClick={() => void copy()} {...(autofocus ? { 'data-autofocus': true } : {})}>
          {t.t(state === 'copied' ? 'common.copied' : 'common.copy')}
        </button>
      </div>
      <p className="gh-ap-hint" aria-live="polite">
        {state === 'copied' ? t.t('common.copiedWhat', { what: label }) : state === 'failed' ? t.t('common.copyBlocked') : ''}
      </p>
    </div>
  );
}

/**
 * Seed 001 section 4 "Add token: ... success dialog shows secret and client id": shown once, right
 * after the POST. The section drops the secret when this closes, so it leaves the page with it.
 */
export function TokenCreatedDialog({ token, onClose }: { token: CreatedApiToken; onClose: () => void }) {
  const t = useT();
  const bearer = token.type === 'AccessToken';
  return (
    <Modal title={t.t('apiTokens.created.title')} onClose={onClose}>
      <p className="gh-ap-modal-text">
        {t.t(bearer ? 'apiTokens.created.bearerText' : 'apiTokens.created.clientText', { name: token.description })}{' '}
        <code>{bearer ? 'Authorization: Bearer …' : 'grant_type=client_credentials'}</code>
      </p>
      <p className="gh-ap-banner gh-ap-banner-warning" role="note">
        <strong>{t.t(bearer ? 'apiTokens.created.copyTokenNow' : 'apiTokens.created.copySecretNow')}</strong> {t.t('apiTokens.created.onlyOnce')}
      </p>
      {!bearer && <CopyField label={t.t('apiTokens.column.clientId')} copyLabel={t.t('apiTokens.created.copyClientId')} value={token.clientId} autofocus />}
      <CopyField label={t.t(bearer ? 'apiTokens.created.token' : 'apiTokens.created.secret')} copyLabel={t.t(bearer ? 'apiTokens.created.copyToken' : 'apiTokens.created.copySecret')} value={token.secret} autofocus={bearer} />
      <div className="gh-ap-modal-actions">
        <button type="button" className="gh-ap-button" onClick={onClose}>{t.t('common.done')}</button>
      </div>
    </Modal>
  );
}
