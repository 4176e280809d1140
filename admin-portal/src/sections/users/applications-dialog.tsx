import { useId, useState, type FormEvent } from 'react';
import type { ApplicationData, TenantUser } from '@gatehouse/shared/wire';
import { Modal } from './modal';
import { userLabel } from '../../format';
import { useT } from '../../i18n/i18n-context';

/**
 * A user's applications (issue 15; seed 001 sections 2 "applications" column, 7 "assign or unassign"):
 * tick the vendor's applications the user may use in this account. Saving assigns the newly ticked
 * ones and unassigns the cleared ones; a failure shows seed 001 section 8's sentence and keeps the
 * ticks, so the admin can try again.
 */
export function ApplicationsDialog({ user, apps, assigned, save, onClose }: {
  user: TenantUser;
  apps: ApplicationData[];
  assigned: string[];
  save: (changes: { assign: string[]; unassign: string[] }) => Promise<void>;
  onClose: () => void;
}) {
  const t = useT();
  const [selected, setSelected] = useState<string[]>(assigned);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const ids = useId();
  async function submit(event: FormEvent) {
    event.preventDefault();
    const assign = selected.filter((id) => !assigned.includes(id));
    const unassign = assigned.filter((id) => !selected.includes(id));
    if (assign.length === 0 && unassign.length === 0) return onClose();
    setBusy(true);
    setFailed(false);
    try {
      await save({ assign, unassign });
    } catch {
      setFailed(true);
      setBusy(false);
    }
  }
  return (
    <Modal title={t.t('users.appsDialog.title', { who: userLabel(user, t) })} onClose={onClose} busy={busy}>
      <form className="gh-ap-form" onSubmit={submit} noValidate>
        <fieldset className="gh-ap-fieldset" disabled={busy} aria-describedby={`${ids}-hint`}>
          <legend className="gh-ap-label">{t.t('users.column.applications')}</legend>
          <p id={`${ids}-hint`} className="gh-ap-hint">{t.t('users.appsDialog.hint')}</p>
          {apps.map((app) => (
            <label key={app.id} className="gh-ap-check" htmlFor={`${ids}-${app.id}`}>
              <input
                id={`${ids}-${app.id}`}
                type="checkbox"
                checked={selected.includes(app.id)}
                onChange={(event) => setSelected(event.target.checked ? [...selected, app.id] : selected.filter((id) => id !== app.id))}
              />
              <span>
                {app.name}
                <span className="gh-ap-hint"> {t.t(app.accessType === 'MANAGED_ACCESS' ? 'users.appsDialog.managed' : 'users.appsDialog.free')}</span>
              </span>
            </label>
          ))}
        </fieldset>
        {failed && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{t.t('users.appsDialog.failed')}</p>}
        <div className="gh-ap-modal-actions">
          <button type="button" className="gh-ap-button-secondary" onClick={onClose} disabled={busy}>{t.t('common.cancel')}</button>
          <button type="submit" className="gh-ap-button" disabled={busy} aria-busy={busy}>
            {busy && <span className="gh-ap-spinner" aria-hidden="true" />}
            {t.t('users.appsDialog.save')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
