import { useRef, useState } from 'react';
import { Modal } from '../users/modal';
import { errorMessage } from '../users/users-format';
import { useRefocusOnError } from './refocus';

/** Confirms deleting a role or a group; `text` says what the deletion does. */
export function DeleteDialog({ title, text, run, onClose }: { title: string; text: string; run: () => Promise<void>; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ref = useRef<HTMLDivElement>(null);
  useRefocusOnError(error, busy, ref);
  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      await run();
    } catch (thrown) {
      setError(errorMessage(thrown));
      setBusy(false);
    }
  }
  return (
    <Modal title={title} onClose={onClose} busy={busy}>
      <p className="gh-ap-modal-text">{text}</p>
      {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
      <div ref={ref} className="gh-ap-modal-actions">
        <button type="button" className="gh-ap-button-secondary" onClick={onClose} disabled={busy}>Cancel</button>
        <button type="button" className="gh-ap-button gh-ap-button-danger" onClick={confirm} disabled={busy} aria-busy={busy} data-autofocus>
          {busy && <span className="gh-ap-spinner" aria-hidden="true" />}
          Delete
        </button>
      </div>
    </Modal>
  );
}
