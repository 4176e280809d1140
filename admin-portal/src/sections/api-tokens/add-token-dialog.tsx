import { useId, useRef, useState, type FormEvent } from 'react';
import type { ApiTokenType } from '@gatehouse/shared/admin-paths';
import type { Role } from '@gatehouse/shared/wire';
import type { FieldVisibility } from '../../options';
import { useRefocusOnError } from '../roles/refocus';
import { Modal } from '../users/modal';
import { RolesPicker } from '../users/roles-picker';
import { errorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';
import type { ApiTokenKind, TokenInput } from './api-tokens-api';

/** The server's limits (shared/src/wire/admin/api-tokens.ts): 200 characters, up to 10 years. */
const MAX_DESCRIPTION = 200;
const MAX_DAYS = 3650;

const TYPES: { type: ApiTokenType; label: string; hint: string }[] = [
  { type: 'ClientCredentials', label: 'apiTokens.type.clientCredentials', hint: 'apiTokens.type.clientCredentialsHint' },
  { type: 'AccessToken', label: 'apiTokens.type.accessToken', hint: 'apiTokens.type.accessTokenHint' },
];

/** Dialog fields the host can hide or show read-only (`fieldVisibility(options, section, field)`). */
export type AddTokenField = 'expiry' | 'type' | 'roles';

/**
 * The "Add token" dialog (seed 001 sections 4, 5, 6): description, expiry in whole days (empty:
 * never; sent as days × 1440 minutes), token type and, for account tokens, roles. Roles whose
 * permissions the caller lacks are refused by the server, whose message is shown here.
 */
export function AddTokenDialog({ kind, roles, visibility, save, onClose }: {
  kind: ApiTokenKind;
  /** Tenant tokens: the account's roles, 'loading', or null when the caller cannot list them. */
  roles: Role[] | 'loading' | null;
  visibility: (field: AddTokenField) => FieldVisibility;
  save: (input: TokenInput) => Promise<void>;
  onClose: () => void;
}) {
  const t = useT();
  const [description, setDescription] = useState('');
  const [days, setDays] = useState('');
  const [type, setType] = useState<ApiTokenType>('ClientCredentials');
  const [roleIds, setRoleIds] = useState<string[]>([]);
  const [problems, setProblems] = useState<{ description?: string; days?: string }>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ref = useRef<HTMLFormElement>(null);
  useRefocusOnError(error, busy, ref);
  const ids = useId();
  const shown = (field: AddTokenField) => visibility(field) !== 'hidden';
  const locked = (field: AddTokenField) => busy || visibility(field) === 'viewOnly';
  // A token added before the roles arrive would get none of the roles its creator meant to choose.
  const waiting = kind === 'tenant' && shown('roles') && roles === 'loading';

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: typeof problems = {};
    const text = description.trim();
    if (!text) found.description = t.t('apiTokens.dialog.descriptionMissing');
    else if (text.length > MAX_DESCRIPTION) found.description = t.t('apiTokens.dialog.descriptionTooLong', { max: MAX_DESCRIPTION });
    // A text field, not type=number: a browser empties an invalid number field, which would read as "never".
    const trimmedDays = days.trim();
    const expiryDays = trimmedDays === '' ? null : /^\d{1,4}$/.test(trimmedDays) ? Number(trimmedDays) : NaN;
    if (expiryDays !== null && !(expiryDays >= 1 && expiryDays <= MAX_DAYS)) found.days = t.t('apiTokens.dialog.daysInvalid', { max: MAX_DAYS });
    setProblems(found);
    if (found.description || found.days) return;
    setBusy(true);
    setError(null);
    try {
      await save({ description: text, expiryDays, type, roleIds: kind === 'tenant' ? roleIds : [] });
    } catch (thrown) {
      setError(errorText(t, thrown));
      setBusy(false);
    }
  }

  const invalid = (key: keyof typeof problems) => ({
    'aria-invalid': problems[key] ? true : undefined,
    'aria-describedby': problems[key] ? `${ids}-${key}-error` : `${ids}-${key}-hint`,
  });

  return (
    <Modal title={t.t('apiTokens.add')} onClose={onClose} busy={busy}>
      <form ref={ref} className="gh-ap-form" onSubmit={submit} noValidate>
        <div className="gh-ap-field">
          <label className="gh-ap-label" htmlFor={`${ids}-description`}>{t.t('apiTokens.column.description')}</label>
          <input id={`${ids}-description`} className="gh-ap-input" value={description} maxLength={MAX_DESCRIPTION + 50} autoComplete="off" disabled={busy} data-autofocus {...invalid('description')}
            onChange={(e) => { setDescription(e.target.value); setProblems((p) => ({ ...p, description: undefined })); }} />
          <p id={`${ids}-description-hint`} className="gh-ap-hint">{t.t('apiTokens.dialog.descriptionHint')}</p>
          {problems.description && <p id={`${ids}-description-error`} className="gh-ap-field-error" role="alert">{problems.description}</p>}
        </div>
        {shown('expiry') && (
          <div className="gh-ap-field">
            <label className="gh-ap-label" htmlFor={`${ids}-days`}>{t.t('apiTokens.dialog.days')}<span className="gh-ap-hint"> {t.t('apiTokens.dialog.optional')}</span></label>
            <input id={`${ids}-days`} className="gh-ap-input gh-ap-days" inputMode="numeric" value={days} autoComplete="off" disabled={locked('expiry')} {...invalid('days')}
              onChange={(e) => { setDays(e.target.value); setProblems((p) => ({ ...p, days: undefined })); }} />
            <p id={`${ids}-days-hint`} className="gh-ap-hint">{t.t('apiTokens.dialog.daysHint')}</p>
            {problems.days && <p id={`${ids}-days-error`} className="gh-ap-field-error" role="alert">{problems.days}</p>}
          </div>
        )}
        {shown('type') && (
          <fieldset className="gh-ap-fieldset" disabled={locked('type')}>
            <legend className="gh-ap-label">{t.t('apiTokens.dialog.type')}</legend>
            {TYPES.map((option) => (
              <label key={option.type} className="gh-ap-check" htmlFor={`${ids}-type-${option.type}`}>
                <input id={`${ids}-type-${option.type}`} type="radio" name={`${ids}-type`} value={option.type} checked={type === option.type} onChange={() => setType(option.type)} />
                <span>
                  {t.t(option.label)}
                  <span className="gh-ap-hint"> {t.t(option.hint)}</span>
                </span>
              </label>
            ))}
          </fieldset>
        )}
        {kind === 'tenant' && shown('roles') && (
          Array.isArray(roles) && roles.length > 0 ? (
            <div className="gh-ap-field">
              <RolesPicker roles={roles} selected={roleIds} onChange={setRoleIds} disabled={locked('roles')} idPrefix={`${ids}-role`} />
              <p className="gh-ap-hint">{t.t('apiTokens.dialog.rolesHint')}</p>
            </div>
          ) : (
            <p className="gh-ap-hint" role="status">
              {t.t(roles === 'loading' ? 'apiTokens.dialog.rolesLoading' : roles ? 'apiTokens.dialog.noRoles' : 'apiTokens.dialog.rolesUnreadable')}
            </p>
          )
        )}
        {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
        <div className="gh-ap-modal-actions">
          <button type="button" className="gh-ap-button-secondary" onClick={onClose} disabled={busy}>{t.t('common.cancel')}</button>
          <button type="submit" className="gh-ap-button" disabled={busy || waiting} aria-busy={busy}>
            {busy && <span className="gh-ap-spinner" aria-hidden="true" />}
            {t.t('apiTokens.add')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
