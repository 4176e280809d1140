import { useEffect, useId, useRef, useState } from 'react';
import type { CreatedApiToken } from '@gatehouse/shared/wire';
import { Modal } from '../users/modal';
import { copyText } from './copy-text';

const COPIED_FOR_MS = 2000;

/** A read-only value with a Copy button that says "Copied" for a moment (or how to copy by hand). */
function CopyField({ label, value, autofocus = false }: { label: string; value: string; autofocus?: boolean }) {
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
        <input ref={input} id={id} className="gh-ap-input gh-ap-mono" value={value} readOnly spellCheck={false} autoComplete="off" onFocus={(e) => e.currentTarget.select()} />
        <button type="button" className="gh-ap-button-secondary" aria-label={`Copy ${label.toLowerCase()}`} onClick={() => void copy()} {...(autofocus ? { 'data-autofocus': true } : {})}>
          {state === 'copied' ? 'Copied' : 'Copy'}
        </button>
      </div>
      <p className="gh-ap-hint" aria-live="polite">
        {state === 'copied' ? `${label} copied to the clipboard` : state === 'failed' ? 'Copying is blocked here: the text is selected, press Ctrl+C (⌘C) to copy it' : ''}
      </p>
    </div>
  );
}

/**
 * Seed 001 section 4 "Add token: ... success dialog shows secret and client id": shown once, right
 * after the POST. The section drops the secret when this closes, so it leaves the page with it.
 */
export function TokenCreatedDialog({ token, onClose }: { token: CreatedApiToken; onClose: () => void }) {
  const bearer = token.type === 'AccessToken';
  return (
    <Modal title="Token created" onClose={onClose}>
      <p className="gh-ap-modal-text">
        {bearer
          ? <>“{token.description}” is ready. Send it as <code>Authorization: Bearer …</code> to the API.</>
          : <>“{token.description}” is ready. Exchange the client ID and secret at the token endpoint (<code>grant_type=client_credentials</code>) for an access token.</>}
      </p>
      <p className="gh-ap-banner gh-ap-banner-warning" role="note">
        <strong>Copy the {bearer ? 'token' : 'secret'} now.</strong> It will not be shown again: only a hash of it is stored. If it is lost, delete this token and add a new one.
      </p>
      {!bearer && <CopyField label="Client ID" value={token.clientId} autofocus />}
      <CopyField label={bearer ? 'Token' : 'Secret'} value={token.secret} autofocus={bearer} />
      <div className="gh-ap-modal-actions">
        <button type="button" className="gh-ap-button" onClick={onClose}>Done</button>
      </div>
    </Modal>
  );
}
