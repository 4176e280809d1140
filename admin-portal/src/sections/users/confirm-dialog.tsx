import { useState } from 'react';
import type { TenantUser } from '@gatehouse/shared/wire';
import type { UserAction } from './users-api';
import { Modal } from './modal';
import { userLabel } from '../../format';
import { errorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';

const COPY: Record<UserAction, { title: string; confirm: string; text: string; danger: boolean }> = {
  remove: { title: 'users.confirm.remove.title', confirm: 'users.confirm.remove.confirm', danger: true, text: 'users.confirm.remove.text' },
  disable: { title: 'users.confirm.disable.title', confirm: 'users.confirm.disable.confirm', danger: true, text: 'users.confirm.disable.text' },
  enable: { title: 'users.confirm.enable.title', confirm: 'users.confirm.enable.confirm', danger: false, text: 'users.confirm.enable.text' },
  lock: { title: 'users.confirm.lock.title', confirm: 'users.confirm.lock.confirm', danger: true, text: 'users.confirm.lock.text' },
  unlock: { title: 'users.confirm.unlock.title', confirm: 'users.confirm.unlock.confirm', danger: false, text: 'users.confirm.unlock.text' },
};

/** The team dialogs that confirm one action on one user (seed 001 section 2: delete, lock, enable and disable). */
export function ConfirmDialog({ user, action, run, onClose }: { user: TenantUser; action: UserAction; run: () => Promise<void>; onClose: () => void }) {
  const t = useT();
  const copy = COPY[action];
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      await run();
    } catch (thrown) {
      setError(errorText(t, thrown));
      setBusy(false);
    }
  }
  return (
    <Modal title={t.t(copy.title)} onClose={onClose} busy={busy}>
      <p className="gh-ap-modal-text">{t.t(copy.text, { who: userLabel(user, t) })}</p>
      {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
      <div className="gh-ap-modal-actions">
        <button type="button" className="gh-ap-button-secondary" onClick={onClose} disabled={busy}>{t.t('common.cancel')}</button>
        <button type="button" className={copy.danger ? 'gh-ap-button gh-ap-button-danger' : 'gh-ap-button'} onClick={confirm} disabled={busy} aria-busy={busy} data-autofocus>
          {busy && <span className="gh-ap-spinner" aria-hidden="true" />}
          {t.t(copy.confirm)}
        </button>
      </div>
    </Modal>
  );
}
