import { useCallback } from 'react';
import type { Feature, FeatureFlag } from '@gatehouse/shared/wire';
import { useT } from '../../i18n/i18n-context';
import { DeleteDialog } from '../dialogs/delete-dialog';
import { RowMenu } from '../dialogs/row-menu';
import { FlagDialog } from './flag-dialog';
import { TabList, useShownGeneration, useTabList } from './tab-list';
import type { OperatorTabProps } from './tab-props';

type Dialog = { kind: 'edit'; flag: FeatureFlag | null } | { kind: 'delete'; flag: FeatureFlag };

/** The Feature flags tab: each flag with an on/off switch, its treatments, rules and linked features. */
export default function FlagsTab({ api, generation }: OperatorTabProps) {
  const t = useT();
  const shown = useShownGeneration(generation);
  const fetchList = useCallback(async (): Promise<{ flags: FeatureFlag[]; features: Feature[] }> => {
    const [flags, features] = await Promise.all([api.flags(), api.features()]);
    return { flags, features };
  }, [api, shown]);
  const state = useTabList<{ flags: FeatureFlag[]; features: Feature[] }, Dialog>(fetchList);
  const { data, dialog, open, close, finish, act } = state;
  const col = { key: t.t('operator.field.key'), on: t.t('operator.flags.on'), rules: t.t('operator.flags.rules'), features: t.t('operator.flags.features') };
  return (
    <TabList
      state={state}
      intro={t.t('operator.flags.intro')}
      button={data && <button type="button" className="gh-ap-button" onClick={() => open({ kind: 'edit', flag: null })}>{t.t('operator.flags.add')}</button>}
      caption={t.t('operator.flags.caption')}
      columns={[t.t('operator.column.flag'), col.key, col.on, col.rules, col.features]}
      items={data?.flags ?? null}
      itemKey={(flag) => flag.id}
      empty={t.t('operator.flags.empty')}
      row={(flag) => (
        <>
          <th scope="row">
            <div className="gh-ap-role-text">
              <span>{flag.name}</span>
              {flag.description && <span className="gh-ap-hint">{flag.description}</span>}
            </div>
          </th>
          <td data-label={col.key}><code>{flag.key}</code></td>
          <td data-label={col.on}>
            <button type="button" role="switch" aria-checked={flag.on} className="gh-ap-op-toggle" aria-label={t.t('operator.flags.switchFor', { name: flag.name })}
              onClick={() => void act(async () => void (await api.updateFlag(flag.id, { on: !flag.on })), t.t(flag.on ? 'operator.flags.done.off' : 'operator.flags.done.on', { name: flag.name }))}>
              <span className="gh-ap-op-toggle-knob" aria-hidden="true" />
              <span>{t.t(flag.on ? 'operator.flags.stateOn' : 'operator.flags.stateOff')}</span>
            </button>
          </td>
          <td data-label={col.rules}>{t.t('operator.flags.ruleCount', { count: flag.rules.length })}</td>
          <td data-label={col.features}>
            {flag.featureKeys.length === 0 ? <span className="gh-ap-hint">{t.t('operator.flags.noFeatures')}</span> : <span className="gh-ap-op-codes">{flag.featureKeys.map((k) => <code key={k}>{k}</code>)}</span>}
          </td>
        </>
      )}
      actions={(flag) => (
        <RowMenu
          label={t.t('operator.flags.actionsFor', { name: flag.name })}
          items={[
            { key: 'edit', label: t.t('operator.action.edit'), onSelect: () => open({ kind: 'edit', flag }) },
            { key: 'delete', label: t.t('common.delete'), danger: true, onSelect: () => open({ kind: 'delete', flag }) },
          ]}
        />
      )}
      dialogs={
        <>
          {dialog?.kind === 'edit' && data && (
            <FlagDialog
              flag={dialog.flag}
              features={data.features}
              onClose={close}
              save={async (body) => {
                if (dialog.flag) await api.updateFlag(dialog.flag.id, body);
                else await api.createFlag(body);
                await finish(t.t(dialog.flag ? 'operator.flags.done.saved' : 'operator.flags.done.added', { name: String(body.name) }));
              }}
            />
          )}
          {dialog?.kind === 'delete' && (
            <DeleteDialog
              title={t.t('operator.flags.deleteTitle', { name: dialog.flag.name })}
              text={t.t('operator.flags.deleteText', { name: dialog.flag.name })}
              onClose={close}
              run={async () => {
                await api.deleteFlag(dialog.flag.id);
                await finish(t.t('operator.flags.done.deleted', { name: dialog.flag.name }));
              }}
            />
          )}
        </>
      }
    />
  );
}
