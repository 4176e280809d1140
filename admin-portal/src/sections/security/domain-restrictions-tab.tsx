import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type MouseEvent } from 'react';
import { DEFAULT_LOCALE } from '../../contract';
import { RestrictionStrategies, type RestrictionStrategy } from '@gatehouse/shared/admin-paths';
import type { EmailDomainRestriction, EmailDomainRestrictionConfig } from '@gatehouse/shared/wire';
import { adoptCss } from '../../host-styles';
import { useErrorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';
import { Toast } from '../../toast';
import { DeleteDialog } from '../dialogs/delete-dialog';
import { TextField } from '../dialogs/text-field';
import { useInertWhile } from '../dialogs/use-inert';
import { useLatestLoad } from '../dialogs/use-latest-load';
import { TableSkeleton } from '../users/users-table';
import usersCss from '../users/users.css?inline';
import { fieldError } from './restriction-errors';
import { restrictionMode } from './restriction-mode';
import { createRestrictionsApi } from './restrictions-api';
import css from './restrictions.css?inline';
import type { SecurityTabProps } from './tab-props';

/** What an admin may type: a DNS name, optionally after an @ (the server stores it lower case, without it). */
function cleanDomain(text: string): string {
  return text.trim().replace(/^@/, '').toLowerCase();
}

/**
 * The Security section's domainRestrictions tab (issue 12; seed 001 section 3 "Domain restriction"):
 * whether sign-up and invitations are restricted by email domain, as an allow or a block list, and
 * whether free public mail providers are kept out; the list of domains with add and delete.
 */
export default function DomainRestrictionsTab({ api, options, canWrite, onResult }: SecurityTabProps) {
  const t = useT();
  const toError = useErrorText();
  const restrictions = useMemo(() => createRestrictionsApi(api), [api]);
  const mode = restrictionMode(options, 'domainRestrictions', canWrite);
  const ids = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const behindRef = useRef<HTMLDivElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const domainInput = useRef<HTMLDivElement>(null);
  const [deleting, setDeleting] = useState<EmailDomainRestriction | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => (rootRef.current ? adoptCss(rootRef.current, `${usersCss}\n${css}`) : undefined), []);
  useInertWhile(behindRef, deleting !== null);
  useEffect(() => {
    if (deleting === null && returnFocus.current) {
      const target = returnFocus.current;
      returnFocus.current = null;
      (target.isConnected ? target : domainInput.current?.querySelector('input'))?.focus();
    }
  }, [deleting]);

  const config = useLatestLoad(restrictions.domainConfig, toError);
  const list = useLatestLoad(restrictions.domainList, toError, { keepDataOnError: true });
  const report = (ok: boolean) => onResult?.(ok);

  const [draft, setDraft] = useState<EmailDomainRestrictionConfig | null>(null);
  const [savingConfig, setSavingConfig] = useState(false);
  const [configError, setConfigError] = useState<string | null>(null);
  const shownConfig = draft ?? config.data;
  const dirty = draft !== null && config.data !== null && (['active', 'listType', 'blockPublicDomains'] as const).some((key) => draft[key] !== config.data![key]);

  async function saveConfig(event: FormEvent) {
    event.preventDefault();
    if (!draft) return;
    setSavingConfig(true);
    setConfigError(null);
    setNotice(null);
    try {
      config.replace(await restrictions.saveDomainConfig(draft));
      setDraft(null);
      setNotice(t.t('restrictions.domain.configSaved'));
      report(true);
    } catch (thrown) {
      setConfigError(toError(thrown));
      report(false);
    } finally {
      setSavingConfig(false);
    }
  }

  // The add form: domain and type; the server's 400 names the domain field.
  const [domain, setDomain] = useState('');
  const [type, setType] = useState<RestrictionStrategy>('BLOCK');
  const [domainProblem, setDomainProblem] = useState<string | undefined>();
  const [adding, setAdding] = useState(false);
  const [addError, setAddError] = useState<string | null>(null);

  async function add(event: FormEvent) {
    event.preventDefault();
    const cleaned = cleanDomain(domain);
    if (!cleaned) {
      setDomainProblem(t.t('restrictions.domain.missing'));
      domainInput.current?.querySelector('input')?.focus();
      return;
    }
    setAdding(true);
    setAddError(null);
    setNotice(null);
    try {
      const created = await restrictions.createDomain(cleaned, type);
      setDomain('');
      setNotice(t.t('restrictions.domain.added', { domain: created.domain }));
      report(true);
      await list.reload();
    } catch (thrown) {
      const named = fieldError(thrown, ['domain'] as const);
      if (named) setDomainProblem(t.locale === DEFAULT_LOCALE ? named.message : t.t('restrictions.domain.invalid'));
      else setAddError(toError(thrown));
      report(false);
      domainInput.current?.querySelector('input')?.focus();
    } finally {
      setAdding(false);
    }
  }

  const configMode = mode('config');
  // Set on each control as well as the fieldset: assistive technology reads the control's own state.
  const configLocked = configMode !== 'editable' || savingConfig;
  const listMode = mode('list');
  const addMode = mode('add');
  const deleteMode = mode('delete');
  const col = { domain: t.t('restrictions.domain.column.domain'), type: t.t('restrictions.domain.column.type') };
  const entries = list.data?.items ?? [];

  return (
    <div ref={rootRef} className="gh-ap-restrictions">
      <div ref={behindRef} className="gh-ap-restrictions-body">
        <p className="gh-ap-modal-text">{t.t('restrictions.domain.intro')}</p>
        {!canWrite && <p className="gh-ap-hint" role="note">{t.t('restrictions.readOnly')}</p>}
        <Toast message={notice} />

        {configMode !== 'hidden' && (
          <form className="gh-ap-restrictions-card" aria-labelledby={`${ids}-config-title`} onSubmit={(e) => void saveConfig(e)} noValidate>
            <h3 id={`${ids}-config-title`} className="gh-ap-restrictions-title">{t.t('restrictions.domain.configTitle')}</h3>
            {config.error && (
              <div className="gh-ap-banner gh-ap-banner-error" role="alert">
                <span>{config.error}</span>{' '}
                <button type="button" className="gh-ap-link" onClick={() => void config.reload()}>{t.t('common.tryAgain')}</button>
              </div>
            )}
            {!shownConfig && config.loading && <div className="gh-ap-skeleton-bar gh-ap-restrictions-skeleton" aria-hidden="true" />}
            {shownConfig && (
              <fieldset className="gh-ap-fieldset" disabled={configLocked}>
                <legend className="gh-ap-visually-hidden">{t.t('restrictions.domain.configTitle')}</legend>
                <label className="gh-ap-check" htmlFor={`${ids}-active`}>
                  <input id={`${ids}-active`} type="checkbox" role="switch" disabled={configLocked} checked={shownConfig.active} onChange={(e) => setDraft({ ...shownConfig, active: e.target.checked })} />
                  <span>{t.t('restrictions.domain.enable')}</span>
                </label>
                <fieldset className="gh-ap-fieldset gh-ap-restrictions-choices">
                  <legend className="gh-ap-label">{t.t('restrictions.domain.listTypeLegend')}</legend>
                  {RestrictionStrategies.map((listType: RestrictionStrategy) => (
                    <label key={listType} className="gh-ap-check" htmlFor={`${ids}-list-${listType}`}>
                      <input id={`${ids}-list-${listType}`} type="radio" name={`${ids}-list`} disabled={configLocked} checked={shownConfig.listType === listType} onChange={() => setDraft({ ...shownConfig, listType })} />
                      <span>
                        {t.t(`restrictions.domain.listTypeOption.${listType}`)}
                        <span className="gh-ap-hint"> {t.t(`restrictions.domain.listTypeHint.${listType}`)}</span>
                      </span>
                    </label>
                  ))}
                </fieldset>
                <label className="gh-ap-check" htmlFor={`${ids}-public`}>
                  <input id={`${ids}-public`} type="checkbox" disabled={configLocked} checked={shownConfig.blockPublicDomains} onChange={(e) => setDraft({ ...shownConfig, blockPublicDomains: e.target.checked })} />
                  <span>
                    {t.t('restrictions.domain.blockPublic')}
                    <span className="gh-ap-hint"> {t.t('restrictions.domain.blockPublicHint')}</span>
                  </span>
                </label>
              </fieldset>
            )}
            {configError && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{configError}</p>}
            {configMode === 'editable' && shownConfig && (
              <div className="gh-ap-restrictions-actions">
                <button type="submit" className="gh-ap-button" disabled={!dirty || savingConfig} aria-busy={savingConfig}>
                  {savingConfig && <span className="gh-ap-spinner" aria-hidden="true" />}
                  {t.t(savingConfig ? 'restrictions.saving' : 'common.save')}
                </button>
              </div>
            )}
          </form>
        )}

        {listMode !== 'hidden' && (
          <section className="gh-ap-restrictions-list" aria-labelledby={`${ids}-list-title`}>
            <h3 id={`${ids}-list-title`} className="gh-ap-restrictions-title">{t.t('restrictions.domain.listTitle')}</h3>
            {addMode !== 'hidden' && (
              <form className="gh-ap-restrictions-add" onSubmit={(e) => void add(e)} noValidate aria-label={t.t('restrictions.domain.add')}>
                <div ref={domainInput}>
                  <TextField id={`${ids}-domain`} label={col.domain} value={domain} busy={adding || addMode !== 'editable'} problem={domainProblem} code placeholder="example.com"
                    onChange={(value) => { setDomain(value); setDomainProblem(undefined); }} />
                </div>
                <div className="gh-ap-field">
                  <label className="gh-ap-label" htmlFor={`${ids}-type`}>{col.type}</label>
                  <select id={`${ids}-type`} className="gh-ap-select" value={type} disabled={adding || addMode !== 'editable'} onChange={(e) => setType(e.target.value as RestrictionStrategy)}>
                    {RestrictionStrategies.map((value) => <option key={value} value={value}>{t.t(`restrictions.strategy.${value}`)}</option>)}
                  </select>
                </div>
                <button type="submit" className="gh-ap-button" disabled={adding || addMode !== 'editable'} aria-busy={adding}>
                  {adding && <span className="gh-ap-spinner" aria-hidden="true" />}
                  {t.t('restrictions.domain.add')}
                </button>
              </form>
            )}
            {addError && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{addError}</p>}
            {list.error && (
              <div className="gh-ap-banner gh-ap-banner-error" role="alert">
                <span>{list.error}</span>{' '}
                <button type="button" className="gh-ap-link" onClick={() => void list.reload()}>{t.t('common.tryAgain')}</button>
              </div>
            )}
            <div className="gh-ap-table-wrap">
              <table className="gh-ap-table" aria-busy={list.loading}>
                <caption className="gh-ap-visually-hidden">{t.t('restrictions.domain.caption')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{col.domain}</th>
                    <th scope="col">{col.type}</th>
                    {deleteMode !== 'hidden' && <th scope="col" className="gh-ap-cell-actions"><span className="gh-ap-visually-hidden">{t.t('common.actions')}</span></th>}
                  </tr>
                </thead>
                <tbody>
                  {entries.map((entry) => (
                    <tr key={entry.id}>
                      <th scope="row"><code className="gh-ap-mono">{entry.domain}</code></th>
                      <td data-label={col.type}><span className={`gh-ap-badge gh-ap-strategy-${entry.type.toLowerCase()}`}>{t.t(`restrictions.strategy.${entry.type}`)}</span></td>
                      {deleteMode !== 'hidden' && (
                        <td className="gh-ap-cell-actions">
                          <button type="button" className="gh-ap-link gh-ap-link-danger" disabled={deleteMode !== 'editable'} aria-label={t.t('restrictions.domain.deleteEntry', { domain: entry.domain })}
                            onClick={(event: MouseEvent<HTMLElement>) => { returnFocus.current = event.currentTarget; setNotice(null); setDeleting(entry); }}>
                            {t.t('common.delete')}
                          </button>
                        </td>
                      )}
                    </tr>
                  ))}
                  {entries.length === 0 && !list.loading ? (
                    <tr><td colSpan={deleteMode !== 'hidden' ? 3 : 2}><p className="gh-ap-table-empty">{list.error ? t.t('restrictions.loadFailed') : t.t('restrictions.domain.empty')}</p></td></tr>
                  ) : null}
                </tbody>
              </table>
              {list.loading && !list.data && <TableSkeleton rows={3} />}
            </div>
          </section>
        )}
      </div>

      {deleting && (
        <DeleteDialog
          title={t.t('restrictions.domain.deleteEntry', { domain: deleting.domain })}
          text={t.t('restrictions.domain.deleteText')}
          onClose={() => setDeleting(null)}
          run={async () => {
            try {
              await restrictions.removeDomain(deleting.id);
            } catch (thrown) {
              report(false);
              throw thrown;
            }
            setDeleting(null);
            setNotice(t.t('restrictions.domain.deleted', { domain: deleting.domain }));
            report(true);
            await list.reload();
          }}
        />
      )}
    </div>
  );
}
