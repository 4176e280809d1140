import { useId, useState, type FormEvent } from 'react';
import { BillingErrorCodes } from '@gatehouse/shared/admin-paths';
import type { Role } from '@gatehouse/shared/wire';
import { Modal } from './modal';
import { RolesPicker } from './roles-picker';
import type { InviteInput } from './users-api';
import { errorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9 ()-]{6,32}$/;

type FieldErrors = Partial<Record<'email' | 'name' | 'phoneNumber', string>>;

/**
 * The invite user dialog (seed 001 section 2: name and email, phone number optional). The fields
 * describe someone else, so the browser is asked not to fill in the admin's own details. Inviting
 * past the plan's seat limit is refused by the server (issue 13): the dialog shows its message and
 * offers the Subscription section (`openSubscription`, when the user can open it).
 */
export function InviteDialog({ roles, invite, onClose, openSubscription }: { roles: Role[]; invite: (input: InviteInput) => Promise<void>; onClose: () => void; openSubscription?: () => void }) {
  const t = useT();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [phoneNumber, setPhoneNumber] = useState('');
  const [roleIds, setRoleIds] = useState<string[]>(() => roles.filter((r) => r.isDefault).map((r) => r.id));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [seatLimit, setSeatLimit] = useState(false);
  const ids = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: FieldErrors = {};
    if (!EMAIL.test(email.trim())) found.email = t.t('users.inviteDialog.emailInvalid');
    if (!name.trim()) found.name = t.t('users.inviteDialog.nameMissing');
    if (phoneNumber.trim() && !PHONE.test(phoneNumber.trim())) found.phoneNumber = t.t('users.inviteDialog.phoneInvalid');
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    setError(null);
    setSeatLimit(false);
    try {
      await invite({ email: email.trim(), name: name.trim(), ...(phoneNumber.trim() ? { phoneNumber: phoneNumber.trim() } : {}), roleIds });
    } catch (thrown) {
      setError(errorText(t, thrown));
      setSeatLimit(Boolean(thrown && typeof thrown === 'object' && 'errorCode' in thrown && thrown.errorCode === BillingErrorCodes.seatLimitReached));
      setBusy(false);
    }
  }

  const field = (key: keyof FieldErrors, label: string, value: string, set: (v: string) => void, type: string, extra: { optional?: boolean; autofocus?: boolean } = {}) => (
    <div className="gh-ap-field">
      <label className="gh-ap-label" htmlFor={`${ids}-${key}`}>{label}{extra.optional && <span className="gh-ap-hint"> {t.t('users.optional')}</span>}</label>
      <input
        id={`${ids}-${key}`}
        className="gh-ap-input"
        type={type}
        value={value}
        autoComplete="off"
        inputMode={type === 'tel' ? 'tel' : undefined}
        aria-invalid={errors[key] ? true : undefined}
        aria-describedby={errors[key] ? `${ids}-${key}-error` : undefined}
        disabled={busy}
        {...(extra.autofocus ? { 'data-autofocus': true } : {})}
        onChange={(event) => {
          set(event.target.value);
          setErrors((current) => ({ ...current, [key]: undefined }));
        }}
      />
      {errors[key] && <p id={`${ids}-${key}-error`} className="gh-ap-field-error" role="alert">{errors[key]}</p>}
    </div>
  );

  return (
    <Modal title={t.t('users.inviteDialog.title')} onClose={onClose} busy={busy}>
      <form className="gh-ap-form" onSubmit={submit} noValidate>
        {field('email', t.t('users.field.email'), email, setEmail, 'email', { autofocus: true })}
        {field('name', t.t('users.field.name'), name, setName, 'text')}
        {field('phoneNumber', t.t('users.field.phoneNumber'), phoneNumber, setPhoneNumber, 'tel', { optional: true })}
        <RolesPicker roles={roles} selected={roleIds} onChange={setRoleIds} disabled={busy} idPrefix={`${ids}-role`} />
        {error && (
          <div className="gh-ap-banner gh-ap-banner-error" role="alert">
            <p>{error}</p>
            {seatLimit && openSubscription && (
              <button
                type="button"
                className="gh-ap-link"
                onClick={() => {
                  onClose();
                  openSubscription();
                }}
              >
                {t.t('users.inviteDialog.openSubscription')}
              </button>
            )}
          </div>
        )}
        <div className="gh-ap-modal-actions">
          <button type="button" className="gh-ap-button-secondary" onClick={onClose} disabled={busy}>{t.t('common.cancel')}</button>
          <button type="submit" className="gh-ap-button" disabled={busy} aria-busy={busy}>
            {busy && <span className="gh-ap-spinner" aria-hidden="true" />}
            {t.t('users.inviteDialog.send')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
