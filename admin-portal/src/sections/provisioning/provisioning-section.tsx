import { useMemo, useRef, useState } from 'react';
import type { ScimSource } from '@gatehouse/shared/admin-paths';
import type { ScimConnection } from '@gatehouse/shared/wire';
import { holdsPermission } from '../../access';
import { Permissions } from '../../contract';
import { shortDate } from '../../format';
import { useT } from '../../i18n/i18n-context';
import { Toast } from '../../toast';
import type { SectionProps } from '../section-props';
import { actionMode } from '../dialogs/action-mode';
import { DeleteDialog } from '../dialogs/delete-dialog';
import { useListSection } from '../dialogs/list-section';
import { RowMenu, type RowMenuItem } from '../dialogs/row-menu';
import { Modal } from '../users/modal';
import { TableSkeleton } from '../users/users-table';
import css from '../users/users.css?inline';
import tokenCss from '../api-tokens/api-tokens.css?inline';
import ownCss from './provisioning.css?inline';
import { DeleteConnectionDialog } from './delete-connection-dialog';
import { CreateConnectionDialog } from './create-connection-dialog';
import { createProvisioningApi } from './provisioning-api';
import { RequestLog } from './request-log';
import { SetupInstructions } from './setup-instructions';
import { SOURCE_LABELS } from './sources';
import { TokenDialog } from './token-dialog';

type Dialog =
  | { kind: 'create' }
  | { kind: 'token'; tokenKind: 'created' | 'rotated'; source: ScimSource; token: string; baseUrl: string }
  | { kind: 'setup'; connection: ScimConnection }
  | { kind: 'rotate'; connection: ScimConnection }
  | { kind: 'delete'; connection: ScimConnection };

/**
 * Provisioning (seed 001 sections 2, 3, 7; issue 15): the account's SCIM connections (source,
 * created, users and groups it made), each with its setup instructions and its request log. Holders
 * of fe.secure.write.provisioningConfiguration add a connection (its token shown once), rotate its
 * token (the new one shown once) and delete it, with or without the users it made. The host can
 * hide or show view-only `create`, `rotate` and `delete` (`adminPortal.fieldVisibility.provisioning`).
 */
export function ProvisioningSection({ title, headingId, user, api, options }: SectionProps) {
  const t = useT();
  const provisioning = useMemo(() => createProvisioningApi(api), [api]);
  const mode = actionMode(options, 'provisioning', Boolean(user.superUser) || holdsPermission(user, Permissions.provisioningWrite));
  const state = useListSection<ScimConnection[], Dialog>(provisioning.list, `${css}\n${tokenCss}\n${ownCss}`);
  const { data: connections, loading, error, notice, dialog, open, close, finish, setNotice, sectionRef, behindRef } = state;
  const [logOf, setLogOf] = useState<ScimConnection | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const providerOf = (connection: { source: ScimSource }) => t.t(SOURCE_LABELS[connection.source].name);
  const col = { created: t.t('provisioning.column.created'), users: t.t('provisioning.column.users'), groups: t.t('provisioning.column.groups') };

  const itemsOf = (connection: ScimConnection): RowMenuItem[] => {
    const items: RowMenuItem[] = [
      { key: 'setup', label: t.t('provisioning.action.setup'), onSelect: () => open({ kind: 'setup', connection }) },
      { key: 'log', label: t.t('provisioning.action.log'), onSelect: () => { setNotice(null); setLogOf(connection); } },
    ];
    if (mode('rotate') !== 'hidden') items.push({ key: 'rotate', label: t.t('provisioning.action.rotate'), disabled: mode('rotate') === 'viewOnly', onSelect: () => open({ kind: 'rotate', connection }) });
    if (mode('delete') !== 'hidden') items.push({ key: 'delete', label: t.t('common.delete'), danger: true, disabled: mode('delete') === 'viewOnly', onSelect: () => open({ kind: 'delete', connection }) });
    return items;
  };

  return (
    <section ref={sectionRef} className="gh-ap-section gh-ap-section-wide" aria-labelledby={headingId}>
      <div ref={behindRef} className="gh-ap-users">
        <div className="gh-ap-users-head">
          <h2 ref={headingRef} id={headingId} className="gh-ap-section-title" tabIndex={-1}>{title}</h2>
          {!logOf && mode('create') !== 'hidden' && (
            <button type="button" className="gh-ap-button gh-ap-token-add" disabled={mode('create') === 'viewOnly'} onClick={() => open({ kind: 'create' })}>{t.t('provisioning.add')}</button>
          )}
        </div>
        <Toast message={notice} />
        {logOf ? (
          <RequestLog
            connection={logOf}
            provisioning={provisioning}
            onBack={() => {
              setLogOf(null);
              headingRef.current?.focus();
            }}
          />
        ) : (
          <>
            <p className="gh-ap-modal-text">{t.t('provisioning.intro')}</p>
            {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
            <div className="gh-ap-table-wrap">
              <table className="gh-ap-table" aria-busy={loading}>
                <caption className="gh-ap-visually-hidden">{t.t('provisioning.caption')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t.t('provisioning.column.source')}</th>
                    <th scope="col">{col.created}</th>
                    <th scope="col">{col.users}</th>
                    <th scope="col">{col.groups}</th>
                    <th scope="col" className="gh-ap-cell-actions"><span className="gh-ap-visually-hidden">{t.t('common.actions')}</span></th>
                  </tr>
                </thead>
                <tbody>
                  {connections?.map((connection) => (
                    <tr key={connection.id}>
                      <th scope="row">
                        <span className="gh-ap-scim-source">
                          <span>{providerOf(connection)}</span>
                          {connection.rotatedAt && <span className="gh-ap-hint">{t.t('provisioning.rotatedOn', { date: shortDate(t, connection.rotatedAt) })}</span>}
                        </span>
                      </th>
                      <td data-label={col.created} className="gh-ap-nowrap">{shortDate(t, connection.createdAt)}</td>
                      <td data-label={col.users}>{t.formatNumber(connection.usersCount)}</td>
                      <td data-label={col.groups}>{t.formatNumber(connection.groupsCount)}</td>
                      <td className="gh-ap-cell-actions">
                        <RowMenu label={t.t('provisioning.actionsFor', { provider: providerOf(connection), date: shortDate(t, connection.createdAt) })} items={itemsOf(connection)} />
                      </td>
                    </tr>
                  ))}
                  {!loading && (connections?.length ?? 0) === 0 && (
                    <tr>
                      <td colSpan={5}>
                        <p className="gh-ap-table-empty">{error ? t.t('provisioning.loadFailed') : t.t(mode('create') === 'editable' ? 'provisioning.empty.add' : 'provisioning.empty.none')}</p>
                      </td>
                    </tr>
                  )}
                </tbody>
              </table>
              {loading && !connections && <TableSkeleton rows={2} />}
            </div>
          </>
        )}
      </div>

      {dialog?.kind === 'create' && (
        <CreateConnectionDialog
          onClose={close}
          save={async (source) => {
            const created = await provisioning.create(source);
            // The token leaves the page with the token dialog: it is only ever in that dialog's state.
            open({ kind: 'token', tokenKind: 'created', source: created.source, token: created.token, baseUrl: created.baseUrl });
            void state.reload();
          }}
        />
      )}
      {dialog?.kind === 'token' && (
        <TokenDialog
          kind={dialog.tokenKind}
          source={dialog.source}
          token={dialog.token}
          baseUrl={dialog.baseUrl}
          onClose={() => {
            close();
            setNotice(t.t(dialog.tokenKind === 'created' ? 'provisioning.done.added' : 'provisioning.done.rotated', { provider: t.t(SOURCE_LABELS[dialog.source].name) }));
          }}
        />
      )}
      {dialog?.kind === 'setup' && (
        <Modal title={t.t('provisioning.setup.title', { provider: providerOf(dialog.connection) })} onClose={close}>
          <p className="gh-ap-modal-text">{t.t('provisioning.setup.tokenNote')}</p>
          <SetupInstructions source={dialog.connection.source} baseUrl={dialog.connection.baseUrl} />
          <div className="gh-ap-modal-actions">
            <button type="button" className="gh-ap-button" onClick={close} data-autofocus>{t.t('common.done')}</button>
          </div>
        </Modal>
      )}
      {dialog?.kind === 'rotate' && (
        <DeleteDialog
          title={t.t('provisioning.rotate.title', { provider: providerOf(dialog.connection) })}
          text={t.t('provisioning.rotate.text', { provider: providerOf(dialog.connection) })}
          confirmLabel={t.t('provisioning.rotate.confirm')}
          onClose={close}
          run={async () => {
            const rotated = await provisioning.rotate(dialog.connection.id);
            open({ kind: 'token', tokenKind: 'rotated', source: dialog.connection.source, token: rotated.token, baseUrl: dialog.connection.baseUrl });
            void state.reload();
          }}
        />
      )}
      {dialog?.kind === 'delete' && (
        <DeleteConnectionDialog
          connection={dialog.connection}
          onClose={close}
          run={async (deleteAll) => {
            await provisioning.remove(dialog.connection.id, deleteAll);
            await finish(t.t(deleteAll ? 'provisioning.done.deletedAll' : 'provisioning.done.deleted', { provider: providerOf(dialog.connection), users: dialog.connection.usersCount }));
          }}
        />
      )}
    </section>
  );
}
