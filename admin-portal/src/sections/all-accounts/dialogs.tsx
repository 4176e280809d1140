import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { SubAccountAccessTypes, TENANT_ID_PATTERN, type SubAccountAccessType } from '@gatehouse/shared/admin-paths';
import type { Account, RoleSummary, TenantUser } from '@gatehouse/shared/wire';
import { useRefocusOnError } from '../roles/refocus';
import { Modal } from '../users/modal';
import { useErrorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';
import type { AccountInput } from './accounts-api';

/** Busy and error state of a dialog's save, with focus kept in the dialog when it fails. */
function useSave() {
  const toError = useErrorText();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const actions = useRef<HTMLDivElement>(null);
  useRefocusOnError(error, busy, actions);
  async function run(save: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await save();
    } catch (thrown) {
      setError(toError(thrown));
      setBusy(false);
    }
  }
  return { busy, error, setError, actions, run };
}

function Actions({ busy, label, onClose, refEl, error }: { busy: boolean; label: string; onClose: () => void; refEl: React.RefObject<HTMLDivElement>; error: string | null }) {
  const t = useT();
  return (
    <>
      {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
      <div ref={refEl} className="gh-ap-modal-actions">
        <button type="button" className="gh-ap-button-secondary" onClick={onClose} disabled={busy}>{t.t('common.cancel')}</button>
        <button type="submit" className="gh-ap-button" disabled={busy} aria-busy={busy} data-autofocus={error ? true : undefined}>
          {busy && <span className="gh-ap-spinner" aria-hidden="true" />}
          {label}
        </button>
      </div>
    </>
  );
}

/** Create sub-account (name, tenant id, under `parent`) or update one (name). */
export function AccountDialog({ account, parent, save, onClose }: { account: Account | null; parent: Account; save: (input: AccountInput) => Promise<void>; onClose: () => void }) {
  const t = useT();
  const [name, setName] = useState(account?.name ?? '');
  const [tenantId, setTenantId] = useState('');
  const [touched, setTouched] = useState(false);
  const s = useSave();
  const id = useId();
  const nameError = touched && !name.trim() ? t.t('allAccounts.dialog.nameMissing') : null;
  const idError = touched && tenantId.trim() && !TENANT_ID_PATTERN.test(tenantId.trim()) ? t.t('allAccounts.dialog.tenantIdInvalid') : null;
  function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (!name.trim() || (tenantId.trim() && !TENANT_ID_PATTERN.test(tenantId.trim()))) return;
    void s.run(() => save({ name, tenantId }));
  }
  return (
    <Modal title={account ? t.t('allAccounts.dialog.updateTitle', { name: account.name }) : t.t('allAccounts.create')} onClose={onClose} busy={s.busy}>
      <form className="gh-ap-form" onSubmit={submit} noValidate>
        {!account && <p className="gh-ap-modal-text">{t.t('allAccounts.dialog.under', { name: parent.name })}</p>}
        <div className="gh-ap-field">
          <label className="gh-ap-label" htmlFor={`${id}-name`}>{t.t('allAccounts.dialog.name')}</label>
          <input id={`${id}-name`} className="gh-ap-input" value={name} maxLength={100} disabled={s.busy} onChange={(e) => setName(e.target.value)} aria-invalid={Boolean(nameError)} aria-describedby={nameError ? `${id}-name-error` : undefined} data-autofocus />
          {nameError && <span id={`${id}-name-error`} className="gh-ap-field-error">{nameError}</span>}
        </div>
        {!account && (
          <div className="gh-ap-field">
            <label className="gh-ap-label" htmlFor={`${id}-tenant`}>{t.t('allAccounts.fact.tenantId')} <span className="gh-ap-hint">{t.t('allAccounts.dialog.optional')}</span></label>
            <input id={`${id}-tenant`} className="gh-ap-input" value={tenantId} maxLength={64} disabled={s.busy} onChange={(e) => setTenantId(e.target.value)} aria-invalid={Boolean(idError)} aria-describedby={idError ? `${id}-tenant-error` : undefined} />
            {idError && <span id={`${id}-tenant-error`} className="gh-ap-field-error">{idError}</span>}
          </div>
        )}
        <Actions busy={s.busy} label={account ? t.t('common.save') : t.t('allAccounts.dialog.create')} onClose={onClose} refEl={s.actions} error={s.error} />
      </form>
    </Modal>
  );
}

const ACCESS_COPY: Record<SubAccountAccessType, { label: string; hint: string }> = {
  defaultOff: { label: 'allAccounts.access.defaultOff', hint: 'allAccounts.access.defaultOffHint' },
  defaultOn: { label: 'allAccounts.access.defaultOn', hint: 'allAccounts.access.defaultOnHint' },
  alwaysOn: { label: 'allAccounts.access.alwaysOn', hint: 'allAccounts.access.alwaysOnHint' },
};
/** The catalog key naming a sub-account access type. */
export const accessLabel = (type: SubAccountAccessType) => ACCESS_COPY[type].label;

/** Hierarchy settings: how the account's users reach its sub-accounts; saving needs a choice (seed 001 section 5). */
export function HierarchySettingsDialog({ account, save, onClose }: { account: Account; save: (type: SubAccountAccessType | '') => Promise<void>; onClose: () => void }) {
  const t = useT();
  const [type, setType] = useState<SubAccountAccessType | ''>(account.subAccountAccessType);
  const s = useSave();
  const id = useId();
  return (
    <Modal title={t.t('allAccounts.settingsDialog.title', { name: account.name })} onClose={onClose} busy={s.busy}>
      <form className="gh-ap-form" onSubmit={(e) => { e.preventDefault(); if (type) void s.run(() => save(type)); else s.setError(t.t('allAccounts.settingsDialog.typeMissing')); }} noValidate>
        <fieldset className="gh-ap-fieldset" disabled={s.busy}>
          <legend className="gh-ap-label">{t.t('allAccounts.fact.access')}</legend>
          {SubAccountAccessTypes.map((value, i) => (
            <label key={value} className="gh-ap-check" htmlFor={`${id}-${value}`}>
              <input id={`${id}-${value}`} type="radio" name={`${id}-type`} checked={type === value} onChange={() => setType(value)} {...(i === 0 ? { 'data-autofocus': true } : {})} />
              <span>{t.t(ACCESS_COPY[value].label)}<span className="gh-ap-hint"> {t.t(ACCESS_COPY[value].hint)}</span></span>
            </label>
          ))}
        </fieldset>
        <Actions busy={s.busy} label={t.t('allAccounts.settingsDialog.save')} onClose={onClose} refEl={s.actions} error={s.error} />
      </form>
    </Modal>
  );
}

function RoleChecks({ roles, selected, onChange, idPrefix }: { roles: RoleSummary[]; selected: string[]; onChange: (ids: string[]) => void; idPrefix: string }): ReactNode {
  const t = useT();
  return (
    <fieldset className="gh-ap-fieldset">
      <legend className="gh-ap-label">{t.t('allAccounts.column.roles')}</legend>
      {roles.map((role) => (
        <label key={role.id} className="gh-ap-check" htmlFor={`${idPrefix}-${role.id}`}>
          <input id={`${idPrefix}-${role.id}`} type="checkbox" checked={selected.includes(role.id)} onChange={(e) => onChange(e.target.checked ? [...selected, role.id] : selected.filter((x) => x !== role.id))} />
          <span>{role.name}{role.description && <span className="gh-ap-hint"> {role.description}</span>}</span>
        </label>
      ))}
    </fieldset>
  );
}

/** Edit user roles in the account. */
export function UserRolesDialog({ who, roles, current, save, onClose }: { who: string; roles: RoleSummary[]; current: string[]; save: (roleIds: string[]) => Promise<void>; onClose: () => void }) {
  const t = useT();
  const [selected, setSelected] = useState(current);
  const s = useSave();
  const id = useId();
  return (
    <Modal title={t.t('allAccounts.rolesDialog.title', { who })} onClose={onClose} busy={s.busy}>
      <form className="gh-ap-form" onSubmit={(e) => { e.preventDefault(); void s.run(() => save(selected)); }} noValidate>
        <fieldset className="gh-ap-fieldset" disabled={s.busy} style={{ display: 'contents' }}>
          <RoleChecks roles={roles} selected={selected} onChange={setSelected} idPrefix={id} />
        </fieldset>
        <Actions busy={s.busy} label={t.t('allAccounts.rolesDialog.save')} onClose={onClose} refEl={s.actions} error={s.error} />
      </form>
    </Modal>
  );
}

/** Add users of the caller's account to a sub-account, with roles there. */
export function AddUsersDialog({ account, roles, search, save, onClose }: {
  account: Account;
  roles: RoleSummary[];
  search: (filter: string) => Promise<TenantUser[]>;
  save: (userIds: string[], roleIds: string[]) => Promise<void>;
  onClose: () => void;
}) {
  const t = useT();
  const toError = useErrorText();
  const [filter, setFilter] = useState('');
  const [found, setFound] = useState<TenantUser[] | null>(null);
  const [userIds, setUserIds] = useState<string[]>([]);
  const [roleIds, setRoleIds] = useState<string[]>([]);
  const s = useSave();
  const id = useId();
  const { setError } = s;
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      search(filter).then((users) => live && setFound(users), (thrown) => live && setError(toError(thrown)));
    }, 200);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [filter, search, setError, toError]);
  function submit(event: FormEvent) {
    event.preventDefault();
    if (userIds.length === 0) {
      setError(t.t('allAccounts.addUsers.noUser'));
      return;
    }
    void s.run(() => save(userIds, roleIds));
  }
  return (
    <Modal title={t.t('allAccounts.addUsers.title', { name: account.name })} onClose={onClose} busy={s.busy}>
      <form className="gh-ap-form" onSubmit={submit} noValidate>
        <div className="gh-ap-field">
          <label className="gh-ap-label" htmlFor={`${id}-search`}>{t.t('allAccounts.addUsers.search')}</label>
          <input id={`${id}-search`} className="gh-ap-input" type="search" value={filter} onChange={(e) => setFilter(e.target.value)} disabled={s.busy} data-autofocus />
        </div>
        <fieldset className="gh-ap-fieldset" disabled={s.busy}>
          <legend className="gh-ap-label">{t.t('allAccounts.fact.users')}</legend>
          {found === null && <span className="gh-ap-hint"><span className="gh-ap-spinner" aria-hidden="true" /> {t.t('allAccounts.addUsers.loading')}</span>}
          {found?.length === 0 && <span className="gh-ap-hint">{t.t('allAccounts.addUsers.none')}</span>}
          {found?.map((u) => (
            <label key={u.id} className="gh-ap-check" htmlFor={`${id}-u-${u.id}`}>
              <input id={`${id}-u-${u.id}`} type="checkbox" checked={userIds.includes(u.id)} onChange={(e) => setUserIds(e.target.checked ? [...userIds, u.id] : userIds.filter((x) => x !== u.id))} />
              <span>{u.name || u.email}{u.email && u.name && <span className="gh-ap-hint"> {u.email}</span>}</span>
            </label>
          ))}
        </fieldset>
        <fieldset className="gh-ap-fieldset" disabled={s.busy} style={{ display: 'contents' }}>
          <RoleChecks roles={roles} selected={roleIds} onChange={setRoleIds} idPrefix={`${id}-r`} />
        </fieldset>
        <Actions busy={s.busy} label={t.t('allAccounts.addUsers.confirm')} onClose={onClose} refEl={s.actions} error={s.error} />
      </form>
    </Modal>
  );
}
