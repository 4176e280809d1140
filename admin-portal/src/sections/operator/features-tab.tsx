import { useCallback } from 'react';
import type { Feature } from '@gatehouse/shared/wire';
import { useT } from '../../i18n/i18n-context';
import { DeleteDialog } from '../dialogs/delete-dialog';
import { RowMenu } from '../dialogs/row-menu';
import { FeatureDialog } from './feature-dialog';
import { TabList, useShownGeneration, useTabList } from './tab-list';
import type { OperatorTabProps } from './tab-props';

type Dialog = { kind: 'edit'; feature: Feature | null } | { kind: 'delete'; feature: Feature };

/** The Features tab: what plans, grants and flags entitle to, each with the permissions it gates. */
export default function FeaturesTab({ api, generation }: OperatorTabProps) {
  const t = useT();
  const shown = useShownGeneration(generation);
  const fetchList = useCallback(() => api.features(), [api, shown]);
  const state = useTabList<Feature[], Dialog>(fetchList);
  const { data, dialog, open, close, finish } = state;
  const col = { key: t.t('operator.field.key'), permissions: t.t('operator.features.permissions') };
  return (
    <TabList
      state={state}
      intro={t.t('operator.features.intro')}
      button={data && <button type="button" className="gh-ap-button" onClick={() => open({ kind: 'edit', feature: null })}>{t.t('operator.features.add')}</button>}
      caption={t.t('operator.features.caption')}
      columns={[t.t('operator.column.feature'), col.key, col.permissions]}
      items={data}
      itemKey={(feature) => feature.id}
      empty={t.t('operator.features.empty')}
      row={(feature) => (
        <>
          <th scope="row">
            <div className="gh-ap-role-text">
              <span>{feature.name}</span>
              {feature.description && <span className="gh-ap-hint">{feature.description}</span>}
            </div>
          </th>
          <td data-label={col.key}><code>{feature.key}</code></td>
          <td data-label={col.permissions}>
            {feature.linkedPermissions.length === 0 ? <span className="gh-ap-hint">{t.t('operator.features.noPermissions')}</span> : (
              <span className="gh-ap-op-codes">{feature.linkedPermissions.map((p) => <code key={p}>{p}</code>)}</span>
            )}
          </td>
        </>
      )}
      actions={(feature) => (
        <RowMenu
          label={t.t('operator.features.actionsFor', { name: feature.name })}
          items={[
            { key: 'edit', label: t.t('operator.action.edit'), onSelect: () => open({ kind: 'edit', feature }) },
            { key: 'delete', label: t.t('common.delete'), danger: true, onSelect: () => open({ kind: 'delete', feature }) },
          ]}
        />
      )}
      dialogs={
        <>
          {dialog?.kind === 'edit' && (
            <FeatureDialog
              feature={dialog.feature}
              onClose={close}
              save={async (body) => {
                if (dialog.feature) await api.updateFeature(dialog.feature.id, body);
                else await api.createFeature(body);
                await finish(t.t(dialog.feature ? 'operator.features.done.saved' : 'operator.features.done.added', { name: String(body.name) }));
              }}
            />
          )}
          {dialog?.kind === 'delete' && (
            <DeleteDialog
              title={t.t('operator.features.deleteTitle', { name: dialog.feature.name })}
              text={t.t('operator.features.deleteText', { name: dialog.feature.name })}
              onClose={close}
              run={async () => {
                await api.deleteFeature(dialog.feature.id);
                await finish(t.t('operator.features.done.deleted', { name: dialog.feature.name }));
              }}
            />
          )}
        </>
      }
    />
  );
}
