import { useCallback, useEffect, useId, useMemo, useRef, useState, type FormEvent, type MouseEvent } from 'react';
import { IP_RESTRICTIONS_PAGE_SIZE, RestrictionStrategies, type RestrictionStrategy } from '@gatehouse/shared/admin-paths';
import type { IpRestriction, IpRestrictionConfig } from '@gatehouse/shared/wire';
import { adoptCss } from '../../host-styles';
import { useErrorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';
import { Toast } from '../../toast';
import { DeleteDialog } from '../dialogs/delete-dialog';
import { useInertWhile } from '../dialogs/use-inert';
import { useLatestLoad } from '../dialogs/use-latest-load';
import { TableSkeleton } from '../users/users-table';
import usersCss from '../users/users.css?inline';
import { IpEntryDialog } from './ip-entry-dialog';
import { LockoutDialog } from './lockout-dialog';
import { isSelfLockout } from './restriction-errors';
import { restrictionMode } from './restriction-mode';
import { createRestrictionsApi, type IpEntryInput } from './restrictions-api';
import css from './restrictions.css?inline';
import type { SecurityTabProps } from './tab-props';
import { Pager } from '../../controls/pager';

type Dialog =
  | { kind: 'entry'; entry: IpRestriction | null }
  | { kind: 'delete'; entry: IpRestriction }
  | { kind: 'lockout'; retry: () => Promise<void> }
  | null;

/**
 * The Security section's ipRestrictions tab (issue 12; seed 001 sections 3, 9): whether sign-in is
 * restricted by address and how (ALLOW: only the listed ranges; BLOCK: all but them), the caller's
 * own address and whether it is let in, "Add my IP", and the list of addresses and CIDR ranges, 4 a
 * page, with add, edit and delete. A save that would shut out the caller is asked about first.
 */
export default function IpRestrictionsTab({ api, options, canWrite, onResult }: SecurityTabProps) {
  const t = useT();
  const toError = useErrorText();
  const restrictions = useMemo(() => createRestrictionsApi(api), [api]);
  const mode = restrictionMode(options, 'ipRestrictions', canWrite);
  const ids = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const behindRef = useRef<HTMLDivElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [page, setPage] = useState(0);

  useEffect(() => (rootRef.current ? adoptCss(rootRef.current, `${usersCss}\n${css}`) : undefined), []);
  useInertWhile(behindRef, dialog !== null);
  useEffect(() => {
    if (dialog === null && returnFocus.current) {
      const target = returnFocus.current;
      returnFocus.current = null;
      if (target.isConnected) target.focus();
    }
  }, [dialog]);

  const config = useLatestLoad(restrictions.ipConfig, toError);
  const verify = useLatestLoad(restrictions.verifyIp, toError);
  const fetchPage = useCallback(() => restrictions.ipList(page), [restrictions, page]);
  const list = useLatestLoad(fetchPage, toError, { keepDataOnError: true });
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / IP_RESTRICTIONS_PAGE_SIZE));
  const myIp = verify.data?.ip ?? null;

  // The config form: a draft over the saved config, saved with its own button.
  const [draft, setDraft] = useState<IpRestrictionConfig | null>(null);
  const [savingConfig, setSavingConfig] = useState(false);
  const [configError, setConfigError] = useState<string | null>(null);
  const shownConfig = draft ?? config.data;
  const dirty = draft !== null && config.data !== null && (draft.isActive !== config.data.isActive || draft.strategy !== config.data.strategy);

  const report = (ok: boolean) => onResult?.(ok);
  const afterChange = async (message: string) => {
    setNotice(message);
    report(true);
    await Promise.all([list.reload(), verify.reload()]);
  };

  /** Runs a save that may be refused for self-lockout: on that refusal the admin is asked, and `run(true)` is the confirmed retry. */
  async function guarded(run: (confirm: boolean) => Promise<void>, opener: HTMLElement | null) {
    try {
      await run(false);
    } catch (thrown) {
      if (!isSelfLockout(thrown)) throw thrown;
      returnFocus.current = opener;
      setDialog({ kind: 'lockout', retry: () => run(true) });
    }
  }

  async function saveConfig(event: FormEvent) {
    event.preventDefault();
    if (!draft) return;
    const opener = rootRef.current?.querySelector<HTMLElement>(`#${CSS.escape(`${ids}-save-config`)}`) ?? null;
    setSavingConfig(true);
    setConfigError(null);
    setNotice(null);
    try {
      await guarded(async (confirm) => {
        const saved = await restrictions.saveIpConfig(draft, confirm);
        config.replace(saved);
        setDraft(null);
        setDialog(null);
        await afterChange(t.t('restrictions.ip.configSaved'));
      }, opener);
    } catch (thrown) {
      setConfigError(toError(thrown));
      report(false);
    } finally {
      setSavingConfig(false);
    }
  }

  const [addingMine, setAddingMine] = useState(false);
  const [myIpError, setMyIpError] = useState<string | null>(null);
  async function addMyIp() {
    setAddingMine(true);
    setNotice(null);
    setMyIpError(null);
    try {
      const added = await restrictions.addMyIp();
      await afterChange(t.t('restrictions.ip.myIpAdded', { ip: added.ip }));
    } catch (thrown) {
      setMyIpError(toError(thrown));
      report(false);
    } finally {
      setAddingMine(false);
    }
  }

  const open = (next: Dialog) => (event: MouseEvent<HTMLElement>) => {
    returnFocus.current = event.currentTarget;
    setNotice(null);
    setDialog(next);
  };

  const configMode = mode('config');
  // Set on each control as well as the fieldset: assistive technology reads the control's own state.
  const configLocked = configMode !== 'editable' || savingConfig;
  const listMode = mode('list');
  const addMode = mode('add');
  const editMode = mode('edit');
  const deleteMode = mode('delete');
  const myIpMode = mode('addMyIp');
  const rowActions = editMode !== 'hidden' || deleteMode !== 'hidden';
  const col = {
    ip: t.t('restrictions.ip.column.ip'),
    description: t.t('restrictions.ip.column.description'),
    strategy: t.t('restrictions.ip.column.strategy'),
    active: t.t('restrictions.ip.column.active'),
  };

  return (
    <div ref={rootRef} className="gh-ap-restrictions">
      <div ref={behindRef} className="gh-ap-restrictions-body">
        <p className="gh-ap-modal-text">{t.t('restrictions.ip.intro')}</p>
        {!canWrite && <p className="gh-ap-hint" role="note">{t.t('restrictions.readOnly')}</p>}
        <Toast message={notice} />

        {configMode !== 'hidden' && (
          <form className="gh-ap-restrictions-card" aria-labelledby={`${ids}-config-title`} onSubmit={(e) => void saveConfig(e)} noValidate>
            <h3 id={`${ids}-config-title`} className="gh-ap-restrictions-title">{t.t('restrictions.ip.configTitle')}</h3>
            {config.error && (
              <div className="gh-ap-banner gh-ap-banner-error" role="alert">
                <span>{config.error}</span>{' '}
                <button type="button" className="gh-ap-link" onClick={() => void config.reload()}>{t.t('common.tryAgain')}</button>
              </div>
            )}
            {!shownConfig && config.loading && <div className="gh-ap-skeleton-bar gh-ap-restrictions-skeleton" aria-hidden="true" />}
            {shownConfig && (
              <fieldset className="gh-ap-fieldset" disabled={configLocked}>
                <legend className="gh-ap-visually-hidden">{t.t('restrictions.ip.configTitle')}</legend>
                <label className="gh-ap-check" htmlFor={`${ids}-active`}>
                  <input id={`${ids}-active`} type="checkbox" role="switch" disabled={configLocked} checked={shownConfig.isActive} onChange={(e) => setDraft({ ...shownConfig, isActive: e.target.checked })} />
                  <span>{t.t('restrictions.ip.enable')}</span>
                </label>
                <fieldset className="gh-ap-fieldset gh-ap-restrictions-choices">
                  <legend className="gh-ap-label">{t.t('restrictions.ip.strategyLegend')}</legend>
                  {RestrictionStrategies.map((strategy: RestrictionStrategy) => (
                    <label key={strategy} className="gh-ap-check" htmlFor={`${ids}-strategy-${strategy}`}>
                      <input id={`${ids}-strategy-${strategy}`} type="radio" name={`${ids}-strategy`} disabled={configLocked} checked={shownConfig.strategy === strategy} onChange={() => setDraft({ ...shownConfig, strategy })} />
                      <span>
                        {t.t(`restrictions.ip.strategyOption.${strategy}`)}
                        <span className="gh-ap-hint"> {t.t(`restrictions.ip.strategyHint.${strategy}`)}</span>
                      </span>
                    </label>
                  ))}
                </fieldset>
              </fieldset>
            )}
            {configError && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{configError}</p>}
            {configMode === 'editable' && shownConfig && (
              <div className="gh-ap-restrictions-actions">
                <button id={`${ids}-save-config`} type="submit" className="gh-ap-button" disabled={!dirty || savingConfig} aria-busy={savingConfig}>
                  {savingConfig && <span className="gh-ap-spinner" aria-hidden="true" />}
                  {t.t(savingConfig ? 'restrictions.saving' : 'common.save')}
                </button>
              </div>
            )}
          </form>
        )}

        <section className="gh-ap-restrictions-card" aria-labelledby={`${ids}-mine-title`}>
          <h3 id={`${ids}-mine-title`} className="gh-ap-restrictions-title">{t.t('restrictions.ip.mineTitle')}</h3>
          <div className="gh-ap-restrictions-mine">
            <p role="status" aria-busy={verify.loading}>
              {verify.error ? verify.error : !verify.data ? t.t('restrictions.ip.checking') : (
                <span className={verify.data.allowed ? 'gh-ap-restrictions-ok' : 'gh-ap-restrictions-blocked'}>
                  {t.t(verify.data.allowed ? 'restrictions.ip.mineAllowed' : 'restrictions.ip.mineBlocked', { ip: verify.data.ip })}
                </span>
              )}
            </p>
            {verify.error && <button type="button" className="gh-ap-link" onClick={() => void verify.reload()}>{t.t('common.tryAgain')}</button>}
            {myIpMode !== 'hidden' && (
              <button type="button" className="gh-ap-button-secondary" disabled={myIpMode !== 'editable' || addingMine} aria-busy={addingMine} onClick={() => void addMyIp()}>
                {addingMine && <span className="gh-ap-spinner" aria-hidden="true" />}
                {t.t('restrictions.ip.addMyIp')}
              </button>
            )}
          </div>
          {myIpError && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{myIpError}</p>}
        </section>

        {listMode !== 'hidden' && (
          <section className="gh-ap-restrictions-list" aria-labelledby={`${ids}-list-title`}>
            <div className="gh-ap-users-head">
              <h3 id={`${ids}-list-title`} className="gh-ap-restrictions-title">{t.t('restrictions.ip.listTitle')}</h3>
              {addMode !== 'hidden' && (
                <button type="button" className="gh-ap-button" disabled={addMode !== 'editable'} onClick={open({ kind: 'entry', entry: null })}>{t.t('restrictions.ip.add')}</button>
              )}
            </div>
            {list.error && (
              <div className="gh-ap-banner gh-ap-banner-error" role="alert">
                <span>{list.error}</span>{' '}
                <button type="button" className="gh-ap-link" onClick={() => void list.reload()}>{t.t('common.tryAgain')}</button>
              </div>
            )}
            <div className="gh-ap-table-wrap">
              <table className="gh-ap-table" aria-busy={list.loading}>
                <caption className="gh-ap-visually-hidden">{t.t('restrictions.ip.caption')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{col.ip}</th>
                    <th scope="col">{col.description}</th>
                    <th scope="col">{col.strategy}</th>
                    <th scope="col">{col.active}</th>
                    {rowActions && <th scope="col" className="gh-ap-cell-actions"><span className="gh-ap-visually-hidden">{t.t('common.actions')}</span></th>}
                  </tr>
                </thead>
                <tbody>
                  {list.data?.items.map((entry) => (
                    <tr key={entry.id}>
                      <th scope="row"><code className="gh-ap-mono">{entry.ip}</code></th>
                      <td data-label={col.description}>{entry.description || t.t('common.none')}</td>
                      <td data-label={col.strategy}><span className={`gh-ap-badge gh-ap-strategy-${entry.strategy.toLowerCase()}`}>{t.t(`restrictions.strategy.${entry.strategy}`)}</span></td>
                      <td data-label={col.active}>{t.t(entry.isActive ? 'restrictions.active' : 'restrictions.inactive')}</td>
                      {rowActions && (
                        <td className="gh-ap-cell-actions">
                          {editMode !== 'hidden' && (
                            <button type="button" className="gh-ap-link" disabled={editMode !== 'editable'} aria-label={t.t('restrictions.ip.editEntry', { ip: entry.ip })} onClick={open({ kind: 'entry', entry })}>{t.t('restrictions.edit')}</button>
                          )}
                          {deleteMode !== 'hidden' && (
                            <button type="button" className="gh-ap-link gh-ap-link-danger" disabled={deleteMode !== 'editable'} aria-label={t.t('restrictions.ip.deleteEntry', { ip: entry.ip })} onClick={open({ kind: 'delete', entry })}>{t.t('common.delete')}</button>
                          )}
                        </td>
                      )}
                    </tr>
                  ))}
                  {(list.data?.items.length ?? 0) === 0 && !list.loading ? (
                    <tr><td colSpan={rowActions ? 5 : 4}><p className="gh-ap-table-empty">{list.error ? t.t('restrictions.loadFailed') : t.t('restrictions.ip.empty')}</p></td></tr>
                  ) : null}
                </tbody>
              </table>
              {list.loading && !list.data && <TableSkeleton rows={IP_RESTRICTIONS_PAGE_SIZE} />}
            </div>
            {pages > 1 && (
              <Pager label={t.t('restrictions.ip.pages')} summary={t.t('restrictions.ip.count', { count: list.data?.total ?? 0 })} page={page} pages={pages} busy={list.loading} onPage={setPage} />
            )}
          </section>
        )}
      </div>

      {dialog?.kind === 'entry' && (
        <IpEntryDialog
          entry={dialog.entry}
          myIp={myIp}
          onClose={() => setDialog(null)}
          save={async (input: IpEntryInput, confirm: boolean) => {
            const existing = dialog.entry;
            try {
              const saved = existing ? await restrictions.updateIp(existing.id, input, confirm) : await restrictions.createIp(input, confirm);
              setDialog(null);
              await afterChange(t.t(existing ? 'restrictions.ip.updated' : 'restrictions.ip.added', { ip: saved.ip }));
            } catch (thrown) {
              // A lockout refusal is asked about in the dialog; anything else is a failed save.
              if (!isSelfLockout(thrown) || confirm) report(false);
              throw thrown;
            }
          }}
        />
      )}
      {dialog?.kind === 'delete' && (
        <DeleteDialog
          title={t.t('restrictions.ip.deleteEntry', { ip: dialog.entry.ip })}
          text={t.t('restrictions.ip.deleteText')}
          onClose={() => setDialog(null)}
          run={async () => {
            const entry = dialog.entry;
            try {
              await guarded(async (confirm) => {
                await restrictions.removeIp(entry.id, confirm);
                setDialog(null);
                // The last entry of a later page gone: show the page before.
                if (page > 0 && list.data?.items.length === 1) setPage((p) => p - 1);
                await afterChange(t.t('restrictions.ip.deleted', { ip: entry.ip }));
              }, returnFocus.current);
            } catch (thrown) {
              report(false);
              throw thrown;
            }
          }}
        />
      )}
      {dialog?.kind === 'lockout' && (
        <LockoutDialog
          myIp={myIp}
          onClose={() => setDialog(null)}
          confirm={async () => {
            try {
              await dialog.retry();
            } catch (thrown) {
              report(false);
              throw thrown;
            }
          }}
        />
      )}
    </div>
  );
}
