import { useId, useState, type FormEvent } from 'react';
import type { Role, TenantUser } from '@gatehouse/shared/wire';
import { Modal } from './modal';
import { RolesPicker } from './roles-picker';
import { userLabel } from '../../format';
import { errorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';
import { isManagedByScim } from './users-format';

/** Edit user roles (seed 001 section 2): tick the roles; none at all is allowed. A user managed by SCIM is told apart: only its roles change here. */
export function RolesDialog({ user, roles, save, onClose }: { user: TenantUser; roles: Role[]; save: (roleIds: string[]) => Promise<void>; onClose: () => void }) {
  const t = useT();
  const [selected, setSelected] = useState<string[]>(user.roleIds);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ids = useId();
  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await save(selected);
    } catch (thrown) {
      setError(errorText(t, thrown));
      setBusy(false);
    }
  }
  return (
    <Modal title={t.t('users.rolesDialog.title', { who: userLabel(user, t) })} onClose={onClose} busy={busy}>
      <form className="gh-ap-form" onSubmit={submit} noValidate>
        {isManagedByScim(user) && <p className="gh-ap-modal-text">{t.t('users.rolesDialog.scimNote', { who: userLabel(user, t) })}</p>}
        <RolesPicker roles={roles} selected={selected} onChange={setSelected} disabled={busy} idPrefix={ids} />
        {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
        <div className="gh-ap-modal-actions">
          <button type="button" className="gh-ap-button-secondary" onClick={onClose} disabled={busy}>{t.t('common.cancel')}</button>
          <button type="submit" className="gh-ap-button" disabled={busy} aria-busy={busy}>
            {busy && <span className="gh-ap-spinner" aria-hidden="true" />}
            {t.t('users.rolesDialog.save')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
