import { useId, useState, type FormEvent } from 'react';
import type { BulkInviteResponse, Role } from '@gatehouse/shared/wire';
import { Modal } from './modal';
import { RolesPicker } from './roles-picker';
import { parseEmailList } from './users-api';
import { errorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';

/** The server takes at most this many addresses at once. */
const MAX_EMAILS = 100;

/**
 * Add users in bulk (seed 001 section 5): a list of email addresses, comma or new-line separated,
 * and optional roles (none: the account's default role). The server invites each address one by
 * one; the answer lists the invited ones and the ones it refused, with the reason.
 */
export function BulkInviteDialog({ roles, invite, onClose, onDone }: { roles: Role[]; invite: (emails: string[], roleIds: string[]) => Promise<BulkInviteResponse>; onClose: () => void; onDone: (result: BulkInviteResponse) => void }) {
  const t = useT();
  const [text, setText] = useState('');
  const [roleIds, setRoleIds] = useState<string[]>([]);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<BulkInviteResponse | null>(null);
  const ids = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const emails = parseEmailList(text);
    if (emails.length === 0) return setFieldError(t.t('users.bulk.none'));
    if (emails.length > MAX_EMAILS) return setFieldError(t.t('users.bulk.tooMany', { max: MAX_EMAILS, count: emails.length }));
    setFieldError(null);
    setBusy(true);
    setError(null);
    try {
      const answer = await invite(emails, roleIds);
      setResult(answer);
      onDone(answer);
    } catch (thrown) {
      setError(errorText(t, thrown));
    } finally {
      setBusy(false);
    }
  }

  if (result) {
    return (
      <Modal title={t.t('users.bulkInvite')} onClose={onClose}>
        <section aria-labelledby={`${ids}-allowed`}>
          <h4 id={`${ids}-allowed`} className="gh-ap-label">{t.t('users.bulk.invited', { count: result.allowed.length })}</h4>
          {result.allowed.length > 0 ? (
            <ul className="gh-ap-result-list">{result.allowed.map((a) => <li key={a.email}>{a.email}</li>)}</ul>
          ) : (
            <p className="gh-ap-modal-text">{t.t('users.bulk.nobody')}</p>
          )}
        </section>
        {result.unallowed.length > 0 && (
          <section aria-labelledby={`${ids}-unallowed`}>
            <h4 id={`${ids}-unallowed`} className="gh-ap-label">{t.t('users.bulk.notInvited', { count: result.unallowed.length })}</h4>
            <ul className="gh-ap-result-list">
              {result.unallowed.map((u) => (
                <li key={u.email}>
                  {u.email}: <span className="gh-ap-field-error">{u.reason}</span>
                </li>
              ))}
            </ul>
          </section>
        )}
        <div className="gh-ap-modal-actions">
          <button type="button" className="gh-ap-button" onClick={onClose} data-autofocus>{t.t('common.done')}</button>
        </div>
      </Modal>
    );
  }

  return (
    <Modal title={t.t('users.bulkInvite')} onClose={onClose} busy={busy}>
      <form className="gh-ap-form" onSubmit={submit} noValidate>
        <div className="gh-ap-field">
          <label className="gh-ap-label" htmlFor={`${ids}-emails`}>{t.t('users.bulk.emails')}</label>
          <p id={`${ids}-emails-hint`} className="gh-ap-hint">{t.t('users.bulk.emailsHint', { max: MAX_EMAILS })}</p>
          <textarea
            id={`${ids}-emails`}
            className="gh-ap-input gh-ap-textarea"
            value={text}
            autoComplete="off"
            spellCheck={false}
            disabled={busy}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? `${ids}-emails-hint ${ids}-emails-error` : `${ids}-emails-hint`}
            data-autofocus
            onChange={(event) => {
              setText(event.target.value);
              setFieldError(null);
            }}
          />
          {fieldError && <p id={`${ids}-emails-error`} className="gh-ap-field-error" role="alert">{fieldError}</p>}
        </div>
        <RolesPicker roles={roles} selected={roleIds} onChange={setRoleIds} disabled={busy} idPrefix={`${ids}-role`} />
        <p className="gh-ap-hint">{t.t('users.bulk.defaultRole')}</p>
        {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
        <div className="gh-ap-modal-actions">
          <button type="button" className="gh-ap-button-secondary" onClick={onClose} disabled={busy}>{t.t('common.cancel')}</button>
          <button type="submit" className="gh-ap-button" disabled={busy} aria-busy={busy}>
            {busy && <span className="gh-ap-spinner" aria-hidden="true" />}
            {t.t('users.bulk.add')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
