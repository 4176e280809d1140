import { useCallback } from 'react';
import type { Application } from '@gatehouse/shared/wire';
import { useT } from '../../i18n/i18n-context';
import { DeleteDialog } from '../dialogs/delete-dialog';
import { RowMenu } from '../dialogs/row-menu';
import { ApplicationDialog, ApplicationSecretDialog } from './application-dialog';
import { TabList, useShownGeneration, useTabList } from './tab-list';
import type { OperatorTabProps } from './tab-props';

type Dialog =
  | { kind: 'edit'; application: Application | null }
  | { kind: 'delete'; application: Application }
  | { kind: 'rotate'; application: Application }
  | { kind: 'secret'; clientId: string; secret: string };

/**
 * The Applications tab: the OAuth clients of hosted login (those the CLI manages, and read-only
 * those of OAUTH_CLIENTS_FILE). Add (a confidential client's secret is shown once), edit names and
 * addresses, make a new secret, delete.
 */
export default function ApplicationsTab({ api, generation }: OperatorTabProps) {
  const t = useT();
  const shown = useShownGeneration(generation);
  const fetchList = useCallback(() => api.applications(), [api, shown]);
  const state = useTabList<Application[], Dialog>(fetchList);
  const { data, dialog, open, close, finish } = state;
  const col = { clientId: t.t('operator.applications.clientId'), redirects: t.t('operator.applications.redirectUris'), type: t.t('operator.applications.type'), source: t.t('operator.applications.source') };
  return (
    <TabList
      state={state}
      intro={t.t('operator.applications.intro')}
      button={data && <button type="button" className="gh-ap-button" onClick={() => open({ kind: 'edit', application: null })}>{t.t('operator.applications.add')}</button>}
      caption={t.t('operator.applications.caption')}
      columns={[t.t('operator.column.application'), col.clientId, col.redirects, col.type, col.source]}
      items={data}
      itemKey={(application) => application.clientId}
      empty={t.t('operator.applications.empty')}
      row={(application) => (
        <>
          <th scope="row">{application.name || application.clientId}</th>
          <td data-label={col.clientId}><code>{application.clientId}</code></td>
          <td data-label={col.redirects}><span className="gh-ap-op-codes">{application.redirectUris.map((uri) => <code key={uri}>{uri}</code>)}</span></td>
          <td data-label={col.type}>{t.t(application.confidential ? 'operator.applications.isConfidential' : 'operator.applications.isPublic')}</td>
          <td data-label={col.source}>
            <span className={application.source === 'file' ? 'gh-ap-badge gh-ap-badge-muted' : 'gh-ap-badge'}>{t.t(application.source === 'file' ? 'operator.applications.fromFile' : 'operator.applications.fromDatabase')}</span>
          </td>
        </>
      )}
      actions={(application) =>
        application.source === 'file' ? (
          <span className="gh-ap-hint">{t.t('operator.applications.readOnly')}</span>
        ) : (
          <RowMenu
            label={t.t('operator.applications.actionsFor', { name: application.name || application.clientId })}
            items={[
              { key: 'edit', label: t.t('operator.action.edit'), onSelect: () => open({ kind: 'edit', application }) },
              ...(application.confidential ? [{ key: 'rotate', label: t.t('operator.applications.newSecret'), onSelect: () => open({ kind: 'rotate', application }) }] : []),
              { key: 'delete', label: t.t('common.delete'), danger: true, onSelect: () => open({ kind: 'delete', application }) },
            ]}
          />
        )
      }
      dialogs={
        <>
          {dialog?.kind === 'edit' && (
            <ApplicationDialog
              application={dialog.application}
              onClose={close}
              save={async (body) => {
                if (dialog.application) {
                  await api.updateApplication(dialog.application.clientId, body);
                  await finish(t.t('operator.applications.done.saved', { clientId: dialog.application.clientId }));
                  return;
                }
                const created = await api.createApplication(body);
                await finish(t.t('operator.applications.done.added', { clientId: created.clientId }));
                if (created.clientSecret) open({ kind: 'secret', clientId: created.clientId, secret: created.clientSecret });
              }}
            />
          )}
          {dialog?.kind === 'rotate' && (
            <DeleteDialog
              title={t.t('operator.applications.rotateTitle', { clientId: dialog.application.clientId })}
              text={t.t('operator.applications.rotateText')}
              confirmLabel={t.t('operator.applications.newSecret')}
              onClose={close}
              run={async () => {
                const rotated = await api.newSecret(dialog.application.clientId);
                if (rotated.clientSecret) open({ kind: 'secret', clientId: rotated.clientId, secret: rotated.clientSecret });
                else close();
              }}
            />
          )}
          {dialog?.kind === 'secret' && <ApplicationSecretDialog clientId={dialog.clientId} secret={dialog.secret} onClose={close} />}
          {dialog?.kind === 'delete' && (
            <DeleteDialog
              title={t.t('operator.applications.deleteTitle', { clientId: dialog.application.clientId })}
              text={t.t('operator.applications.deleteText')}
              onClose={close}
              run={async () => {
                await api.deleteApplication(dialog.application.clientId);
                await finish(t.t('operator.applications.done.deleted', { clientId: dialog.application.clientId }));
              }}
            />
          )}
        </>
      }
    />
  );
}
