import { useCallback, useEffect, useRef, useState } from 'react';
import { useErrorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';
import { Toast } from '../../toast';
import { DeleteDialog } from '../dialogs/delete-dialog';
import { RowMenu, type RowMenuItem } from '../dialogs/row-menu';
import { useInertWhile } from '../dialogs/use-inert';
import { useLatestLoad } from '../dialogs/use-latest-load';
import { TableSkeleton } from '../users/users-table';
import type { WebhookEndpoint } from './connectivity-types';
import { SecretDialog } from './secret-dialog';
import type { ConnectivityTabProps } from './tab-props';
import { TestDialog } from './test-dialog';
import { WebhookDialog } from './webhook-dialog';
import { WebhookLog } from './webhook-log';

type Dialog =
  | { kind: 'add' }
  | { kind: 'edit'; endpoint: WebhookEndpoint }
  | { kind: 'secret'; secretKind: 'created' | 'rotated'; url: string; secret: string }
  | { kind: 'rotate'; endpoint: WebhookEndpoint }
  | { kind: 'test'; endpoint: WebhookEndpoint }
  | { kind: 'delete'; endpoint: WebhookEndpoint };

/** Events shown in a row before "+n more". */
const EVENTS_SHOWN = 3;

/**
 * The Webhooks tab (seed 001 sections 3, 4, 5, 9; issue 16): the tenant's endpoints with their
 * events, an active switch and, for an endpoint the server disabled after 5 days of failures, a
 * badge with the reason. Writers add and edit endpoints (the secret shown once at creation), rotate
 * a secret (shown once; the old one signs 24 hours more), send a test, and delete. Everyone who
 * sees the tab reads each endpoint's log; writers retry failed attempts there.
 */
export function WebhooksTab({ connectivity, catalogue, catalogueError, canWrite }: ConnectivityTabProps) {
  const t = useT();
  const toError = useErrorText();
  const list = useCallback(() => connectivity.webhooks.list(), [connectivity]);
  const { data: endpoints, loading, error, reload, setData } = useLatestLoad(list, toError);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [toggleError, setToggleError] = useState<string | null>(null);
  const [switching, setSwitching] = useState<string | null>(null);
  const [logOf, setLogOf] = useState<WebhookEndpoint | null>(null);
  const behindRef = useRef<HTMLDivElement>(null);
  useInertWhile(behindRef, dialog !== null);

  const open = (next: Dialog) => {
    setNotice(null);
    setDialog(next);
  };
  const close = () => setDialog(null);

  async function setActive(endpoint: WebhookEndpoint, isActive: boolean) {
    setSwitching(endpoint._id);
    setToggleError(null);
    setNotice(null);
    try {
      await connectivity.webhooks.update(endpoint._id, { url: endpoint.url, description: endpoint.description, eventKeys: endpoint.eventKeys, isActive });
      setData((current) => current?.map((e) => (e._id === endpoint._id ? { ...e, isActive, ...(isActive ? { disabledAt: null, disabledReason: null } : {}) } : e)) ?? current);
      setNotice(t.t(isActive ? 'connectivity.webhooks.done.activated' : 'connectivity.webhooks.done.deactivated', { url: endpoint.url }));
      void reload();
    } catch (thrown) {
      setToggleError(toError(thrown));
    } finally {
      setSwitching(null);
    }
  }

  const itemsOf = (endpoint: WebhookEndpoint): RowMenuItem[] => {
    const items: RowMenuItem[] = [{ key: 'log', label: t.t('connectivity.webhooks.action.log'), onSelect: () => { setNotice(null); setLogOf(endpoint); } }];
    if (canWrite) {
      items.unshift({ key: 'edit', label: t.t('connectivity.webhooks.action.edit'), onSelect: () => open({ kind: 'edit', endpoint }) });
      items.splice(1, 0, { key: 'test', label: t.t('connectivity.webhooks.action.test'), onSelect: () => open({ kind: 'test', endpoint }) });
      items.push({ key: 'rotate', label: t.t('connectivity.webhooks.action.rotate'), onSelect: () => open({ kind: 'rotate', endpoint }) });
      items.push({ key: 'delete', label: t.t('common.delete'), danger: true, onSelect: () => open({ kind: 'delete', endpoint }) });
    }
    return items;
  };

  // Back from a log: focus returns to that endpoint's menu button, where the admin left the list.
  const backFrom = useRef<string | null>(null);
  useEffect(() => {
    if (logOf || !backFrom.current) return;
    const label = t.t('connectivity.webhooks.actionsFor', { url: backFrom.current });
    backFrom.current = null;
    [...(behindRef.current?.querySelectorAll<HTMLButtonElement>('button[aria-label]') ?? [])].find((b) => b.getAttribute('aria-label') === label)?.focus();
  }, [logOf, t]);

  if (logOf) {
    return (
      <WebhookLog
        endpoint={logOf}
        connectivity={connectivity}
        canWrite={canWrite}
        onBack={() => {
          backFrom.current = logOf.url;
          setLogOf(null);
        }}
      />
    );
  }

  const col = { url: t.t('connectivity.webhooks.column.url'), events: t.t('connectivity.webhooks.column.events'), active: t.t('connectivity.webhooks.column.active') };

  return (
    <>
    <div ref={behindRef} className="gh-ap-users">
      <div className="gh-ap-users-head">
        <p className="gh-ap-modal-text">{t.t('connectivity.webhooks.intro')}</p>
        {canWrite && (
          <button type="button" className="gh-ap-button gh-ap-cx-add" disabled={!catalogue} onClick={() => open({ kind: 'add' })}>{t.t('connectivity.webhooks.add')}</button>
        )}
      </div>
      <Toast message={notice} />
      {catalogueError && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{catalogueError}</p>}
      {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
      {toggleError && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{toggleError}</p>}
      <div className="gh-ap-table-wrap">
        <table className="gh-ap-table" aria-busy={loading}>
          <caption className="gh-ap-visually-hidden">{t.t('connectivity.webhooks.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{col.url}</th>
              <th scope="col">{col.events}</th>
              <th scope="col">{col.active}</th>
              <th scope="col" className="gh-ap-cell-actions"><span className="gh-ap-visually-hidden">{t.t('common.actions')}</span></th>
            </tr>
          </thead>
          <tbody>
            {endpoints?.map((endpoint) => (
              <tr key={endpoint._id}>
                <th scope="row">
                  <span className="gh-ap-cx-endpoint">
                    <code className="gh-ap-mono gh-ap-cx-url" dir="ltr">{endpoint.url}</code>
                    {endpoint.description && <span className="gh-ap-hint">{endpoint.description}</span>}
                    {endpoint.disabledAt !== null && (
                      <span className="gh-ap-badge gh-ap-cx-status-failed gh-ap-cx-disabled">
                        {t.t('connectivity.webhooks.disabled')}
                        {endpoint.disabledReason ? `: ${endpoint.disabledReason}` : ''}
                      </span>
                    )}
                  </span>
                </th>
                <td data-label={col.events}>
                  <span className="gh-ap-badges">
                    {endpoint.eventKeys.slice(0, EVENTS_SHOWN).map((key) => <code key={key} className="gh-ap-badge gh-ap-mono" dir="ltr">{key}</code>)}
                    {endpoint.eventKeys.length > EVENTS_SHOWN && <span className="gh-ap-badge" title={endpoint.eventKeys.slice(EVENTS_SHOWN).join(', ')}>{t.t('connectivity.webhooks.moreEvents', { count: endpoint.eventKeys.length - EVENTS_SHOWN })}</span>}
                  </span>
                </td>
                <td data-label={col.active}>
                  <input
                    type="checkbox"
                    role="switch"
                    className="gh-ap-cx-switch"
                    checked={endpoint.isActive}
                    disabled={!canWrite || switching !== null}
                    aria-label={t.t('connectivity.webhooks.activeFor', { url: endpoint.url })}
                    onChange={(e) => void setActive(endpoint, e.target.checked)}
                  />
                </td>
                <td className="gh-ap-cell-actions">
                  <RowMenu label={t.t('connectivity.webhooks.actionsFor', { url: endpoint.url })} items={itemsOf(endpoint)} />
                </td>
              </tr>
            ))}
            {!loading && (endpoints?.length ?? 0) === 0 && (
              <tr>
                <td colSpan={4}>
                  <p className="gh-ap-table-empty">{error ? t.t('connectivity.webhooks.loadFailed') : t.t(canWrite ? 'connectivity.webhooks.empty.add' : 'connectivity.webhooks.empty.none')}</p>
                </td>
              </tr>
            )}
          </tbody>
        </table>
        {loading && !endpoints && <TableSkeleton rows={2} />}
      </div>
    </div>

      {(dialog?.kind === 'add' || dialog?.kind === 'edit') && catalogue && (
        <WebhookDialog
          endpoint={dialog.kind === 'edit' ? dialog.endpoint : null}
          catalogue={catalogue}
          onClose={close}
          save={async (input) => {
            if (dialog.kind === 'edit') {
              await connectivity.webhooks.update(dialog.endpoint._id, input);
              await reload();
              close();
              setNotice(t.t('connectivity.webhooks.done.saved', { url: input.url }));
              return;
            }
            const created = await connectivity.webhooks.create(input);
            // The secret leaves the page with the secret dialog: no other state keeps it.
            open({ kind: 'secret', secretKind: 'created', url: created.url, secret: created.secret });
            void reload();
          }}
        />
      )}
      {dialog?.kind === 'secret' && (
        <SecretDialog
          kind={dialog.secretKind}
          url={dialog.url}
          secret={dialog.secret}
          onClose={() => {
            close();
            setNotice(t.t(dialog.secretKind === 'created' ? 'connectivity.webhooks.done.added' : 'connectivity.webhooks.done.rotated', { url: dialog.url }));
          }}
        />
      )}
      {dialog?.kind === 'rotate' && (
        <DeleteDialog
          title={t.t('connectivity.webhooks.rotate.title')}
          text={t.t('connectivity.webhooks.rotate.text', { url: dialog.endpoint.url })}
          confirmLabel={t.t('connectivity.webhooks.rotate.confirm')}
          onClose={close}
          run={async () => {
            const rotated = await connectivity.webhooks.rotateSecret(dialog.endpoint._id);
            open({ kind: 'secret', secretKind: 'rotated', url: dialog.endpoint.url, secret: rotated.secret });
          }}
        />
      )}
      {dialog?.kind === 'test' && (
        <TestDialog
          endpoint={dialog.endpoint}
          send={(eventKey) => connectivity.webhooks.test(dialog.endpoint._id, eventKey)}
          onShowLog={() => {
            close();
            setLogOf(dialog.endpoint);
          }}
          onClose={close}
        />
      )}
      {dialog?.kind === 'delete' && (
        <DeleteDialog
          title={t.t('connectivity.webhooks.delete.title')}
          text={t.t('connectivity.webhooks.delete.text', { url: dialog.endpoint.url })}
          onClose={close}
          run={async () => {
            await connectivity.webhooks.remove(dialog.endpoint._id);
            await reload();
            close();
            setNotice(t.t('connectivity.webhooks.done.deleted', { url: dialog.endpoint.url }));
          }}
        />
      )}
    </>
  );
}
