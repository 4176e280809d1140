import { useId, useState, type FormEvent } from 'react';
import type { Role } from '@gatehouse/shared/wire';
import { Modal } from './modal';
import { RolesPicker } from './roles-picker';
import type { InviteInput } from './users-api';
import { errorMessage } from './users-format';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9 ()-]{6,32}$/;

type FieldErrors = Partial<Record<'email' | 'name' | 'phoneNumber', string>>;

/**
 * The invite user dialog (seed 001 section 2: name and email, phone number optional). The fields
 * describe someone else, so the browser is asked not to fill in the admin's own details.
 */
export function InviteDialog({ roles, invite, onClose }: { roles: Role[]; invite: (input: InviteInput) => Promise<void>; onClose: () => void }) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [phoneNumber, setPhoneNumber] = useState('');
  const [roleIds, setRoleIds] = useState<string[]>(() => roles.filter((r) => r.isDefault).map((r) => r.id));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ids = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: FieldErrors = {};
    if (!EMAIL.test(email.trim())) found.email = 'Enter a valid email address';
    if (!name.trim()) found.name = 'Enter a name';
    if (phoneNumber.trim() && !PHONE.test(phoneNumber.trim())) found.phoneNumber = 'Enter a phone number, such as +44 20 7946 0958';
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    setError(null);
    try {
      await invite({ email: email.trim(), name: name.trim(), ...(phoneNumber.trim() ? { phoneNumber: phoneNumber.trim() } : {}), roleIds });
    } catch (thrown) {
      setError(errorMessage(thrown));
      setBusy(false);
    }
  }

  const field = (key: keyof FieldErrors, label: string, value: string, set: (v: string) => void, type: string, extra: { optional?: boolean; autofocus?: boolean } = {}) => (
    <div className="gh-ap-field">
      <label className="gh-ap-label" htmlFor={`${ids}-${key}`}>{label}{extra.optional && <span className="gh-ap-hint"> (optional)</span>}</label>
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
    <Modal title="Invite user" onClose={onClose} busy={busy}>
      <form className="gh-ap-form" onSubmit={submit} noValidate>
        {field('email', 'Email', email, setEmail, 'email', { autofocus: true })}
        {field('name', 'Name', name, setName, 'text')}
        {field('phoneNumber', 'Phone number', phoneNumber, setPhoneNumber, 'tel', { optional: true })}
        <RolesPicker roles={roles} selected={roleIds} onChange={setRoleIds} disabled={busy} idPrefix={`${ids}-role`} />
        {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
        <div className="gh-ap-modal-actions">
          <button type="button" className="gh-ap-button-secondary" onClick={onClose} disabled={busy}>Cancel</button>
          <button type="submit" className="gh-ap-button" disabled={busy} aria-busy={busy}>
            {busy && <span className="gh-ap-spinner" aria-hidden="true" />}
            Send invitation
          </button>
        </div>
      </form>
    </Modal>
  );
}
