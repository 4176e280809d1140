import { useEffect, useId, useState, type FormEvent } from 'react';
import type { Role, SsoConfiguration } from '@gatehouse/shared/wire';
import { useT } from '../../i18n/i18n-context';
import { Toast } from '../../toast';
import type { SsoApi } from './sso-api';
import { useSsoAction } from './use-sso-action';
import { SaveActions } from './save-actions';

const FIELDS = ['roleIds', 'groups'] as const;
type Mapping = { key: number; group: string; roleIds: string[] };

/**
 * Step 4: what people signing in through this IdP may do: default roles for everyone, and roles per
 * IdP group (the assertion's groups attribute). Roles a group no longer gives are taken away at the
 * next sign-in. `roles` null: the account's roles cannot be read by the caller.
 */
export function RolesCard({ config, sso, canWrite, roles, onSaved }: { config: SsoConfiguration; sso: SsoApi; canWrite: boolean; roles: Role[] | 'loading' | null; onSaved: (config: SsoConfiguration) => void }) {
  const t = useT();
  const id = `gh-sso-roles-${useId().replace(/:/g, '')}`;
  const action = useSsoAction(FIELDS, onSaved);
  const [notice, setNotice] = useState<string | null>(null);
  const [defaults, setDefaults] = useState<string[]>(config.roleIds);
  const [mappings, setMappings] = useState<Mapping[]>(() => config.groups.map((g, i) => ({ key: i, group: g.group, roleIds: g.roleIds })));
  const [nextKey, setNextKey] = useState(config.groups.length);
  const [groupProblem, setGroupProblem] = useState<number | null>(null);
  useEffect(() => setDefaults(config.roleIds), [config.roleIds.join(',')]);
  const list = Array.isArray(roles) ? roles : [];
  const busy = action.busy !== null || !canWrite;
  const toggle = (ids: string[], roleId: string, on: boolean) => (on ? [...ids, roleId] : ids.filter((x) => x !== roleId));

  async function save(event: FormEvent) {
    event.preventDefault();
    setNotice(null);
    const empty = mappings.find((m) => !m.group.trim());
    if (empty) {
      setGroupProblem(empty.key);
      return;
    }
    setGroupProblem(null);
    const ok = await action.run('save', async () => {
      await sso.setRoles(config.id, defaults);
      return sso.setGroups(config.id, mappings.map((m) => ({ group: m.group.trim(), roleIds: m.roleIds })));
    });
    if (ok) setNotice(t.t('sso.roles.saved'));
  }

  const roleChecks = (name: string, chosen: string[], onChange: (ids: string[]) => void) =>
    list.map((role) => (
      <label key={role.id} className="gh-ap-check" htmlFor={`${id}-${name}-${role.id}`}>
        <input id={`${id}-${name}-${role.id}`} type="checkbox" checked={chosen.includes(role.id)} disabled={busy} onChange={(e) => onChange(toggle(chosen, role.id, e.target.checked))} />
        <span>{role.name}</span>
      </label>
    ));

  return (
    <section className="gh-ap-sec-card gh-ap-sso-card" aria-labelledby={`${id}-title`} aria-busy={action.busy !== null}>
      <h3 id={`${id}-title`} className="gh-ap-sec-card-title">{t.t('sso.roles.title')}</h3>
      <p className="gh-ap-hint">{t.t('sso.roles.intro')}</p>
      {roles === 'loading' && <div className="gh-ap-skeleton-bar" aria-hidden="true" />}
      {roles === null && <p className="gh-ap-hint">{t.t('sso.roles.unreadable')}</p>}
      {Array.isArray(roles) && (
        <form className="gh-ap-sec-form" noValidate onSubmit={(e) => void save(e)} aria-label={t.t('sso.roles.title')}>
          <fieldset className="gh-ap-sec-fieldset">
            <legend className="gh-ap-sec-legend">{t.t('sso.roles.defaults')}</legend>
            <p className="gh-ap-hint">{t.t('sso.roles.defaultsHint')}</p>
            <div className="gh-ap-sso-checks">{roleChecks('default', defaults, setDefaults)}</div>
          </fieldset>
          <fieldset className="gh-ap-sec-fieldset">
            <legend className="gh-ap-sec-legend">{t.t('sso.roles.groups')}</legend>
            <p className="gh-ap-hint">{t.t('sso.roles.groupsHint')}</p>
            {mappings.length === 0 && <p className="gh-ap-sso-empty">{t.t('sso.roles.noGroups')}</p>}
            {mappings.map((mapping, index) => (
              <div key={mapping.key} className="gh-ap-sso-mapping" role="group" aria-label={t.t('sso.roles.mapping', { number: index + 1 })}>
                <div className="gh-ap-field">
                  <label className="gh-ap-label" htmlFor={`${id}-group-${mapping.key}`}>{t.t('sso.roles.groupName')}</label>
                  <input id={`${id}-group-${mapping.key}`} className="gh-ap-input" value={mapping.group} disabled={busy} spellCheck={false}
                    aria-invalid={groupProblem === mapping.key ? true : undefined} aria-describedby={groupProblem === mapping.key ? `${id}-group-${mapping.key}-error` : undefined}
                    onChange={(e) => { const group = e.target.value; setMappings((all) => all.map((m) => (m.key === mapping.key ? { ...m, group } : m))); if (groupProblem === mapping.key) setGroupProblem(null); }} />
                  {groupProblem === mapping.key && <p id={`${id}-group-${mapping.key}-error`} className="gh-ap-field-error" role="alert">{t.t('sso.roles.groupMissing')}</p>}
                </div>
                <div className="gh-ap-sso-checks">{roleChecks(`g${mapping.key}`, mapping.roleIds, (roleIds) => setMappings((all) => all.map((m) => (m.key === mapping.key ? { ...m, roleIds } : m))))}</div>
                {canWrite && (
                  <button type="button" className="gh-ap-link gh-ap-link-danger" disabled={busy} onClick={() => setMappings((all) => all.filter((m) => m.key !== mapping.key))}
                    aria-label={t.t('sso.roles.removeMapping', { group: mapping.group || String(index + 1) })}>
                    {t.t('common.delete')}
                  </button>
                )}
              </div>
            ))}
            {canWrite && (
              <button type="button" className="gh-ap-button-secondary gh-ap-sso-add" disabled={busy}
                onClick={() => { setMappings((all) => [...all, { key: nextKey, group: '', roleIds: [] }]); setNextKey((k) => k + 1); }}>
                {t.t('sso.roles.addMapping')}
              </button>
            )}
          </fieldset>
          {action.errors.roleIds && <p className="gh-ap-field-error" role="alert">{action.errors.roleIds}</p>}
          {action.errors.groups && <p className="gh-ap-field-error" role="alert">{action.errors.groups}</p>}
          {canWrite && <SaveActions busy={busy} saving={action.busy === 'save'} />}
        </form>
      )}
      {action.error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{action.error}</p>}
      <Toast message={notice} />
    </section>
  );
}
