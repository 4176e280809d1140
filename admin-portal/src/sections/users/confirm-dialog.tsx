import { useState } from 'react';
import type { TenantUser } from '@gatehouse/shared/wire';
import type { UserAction } from './users-api';
import { Modal } from './modal';
import { errorMessage, userLabel } from './users-format';

const COPY: Record<UserAction, { title: string; confirm: string; text: (who: string) => string; danger: boolean }> = {
  remove: { title: 'Remove user', confirm: 'Remove user', danger: true, text: (who) => `${who} will lose access to this account and their roles and groups here. This cannot be undone.` },
  disable: { title: 'Disable user', confirm: 'Disable', danger: true, text: (who) => `${who} will be signed out and cannot sign in to this account until enabled again.` },
  enable: { title: 'Enable user', confirm: 'Enable', danger: false, text: (who) => `${who} will be able to sign in to this account again.` },
  lock: { title: 'Lock user', confirm: 'Lock', danger: true, text: (who) => `${who} will be signed out and locked out of this account until unlocked.` },
  unlock: { title: 'Unlock user', confirm: 'Unlock', danger: false, text: (who) => `${who} will be able to sign in to this account again.` },
};

/** The team dialogs that confirm one action on one user (seed 001 section 2: delete, lock, enable and disable). */
export function ConfirmDialog({ user, action, run, onClose }: { user: TenantUser; action: UserAction; run: () => Promise<void>; onClose: () => void }) {
  const copy = COPY[action];
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
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
    <Modal title={copy.title} onClose={onClose} busy={busy}>
      <p className="gh-ap-modal-text">{copy.text(userLabel(user))}</p>
      {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
      <div className="gh-ap-modal-actions">
        <button type="button" className="gh-ap-button-secondary" onClick={onClose} disabled={busy}>Cancel</button>
        <button type="button" className={copy.danger ? 'gh-ap-button gh-ap-button-danger' : 'gh-ap-button'} onClick={confirm} disabled={busy} aria-busy={busy} data-autofocus>
          {busy && <span className="gh-ap-spinner" aria-hidden="true" />}
          {copy.confirm}
        </button>
      </div>
    </Modal>
  );
}
