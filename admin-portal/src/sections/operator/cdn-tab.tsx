import { useCallback } from 'react';
import type { CdnBundleRollout, CdnPublishedVersion, CdnVersionsResponse } from '@gatehouse/shared/wire';
import type { Translator } from '../../contract';
import { useT } from '../../i18n/i18n-context';
import { RowMenu, type RowMenuItem } from '../dialogs/row-menu';
import { ConfirmDialog, NumberDialog, PinDialog } from './cdn-dialogs';
import { PublishDialog } from './cdn-publish-dialog';
import { TabList, useShownGeneration, useTabList } from './tab-list';
import type { OperatorTabProps } from './tab-props';

/** One row: a published version of a bundle. */
interface Row { rollout: CdnBundleRollout; version: CdnPublishedVersion }
type Dialog =
  | { kind: 'default' | 'rollback'; row: Row }
  | { kind: 'canary' | 'pin'; row: Row }
  | { kind: 'prune' | 'publish' };

/** Kilobytes over the wire, as the CLI's `cdn versions` gives them. */
const kilobytes = (t: Translator, bytes: number) => t.formatNumber(bytes / 1024, { style: 'unit', unit: 'kilobyte', maximumFractionDigits: 1 });

/**
 * The CDN tab (issue 18, docs/cdn.md): every published version of each bundle with its state and
 * size over the wire; a version is made the default, a canary for a share of people, or pinned for
 * tenants; a default is rolled back; unused versions are pruned. A change reaches new page loads
 * within the manifest's cache lifetime.
 */
export default function CdnTab({ api, generation }: OperatorTabProps) {
  const t = useT();
  const shown = useShownGeneration(generation);
  const fetchList = useCallback((): Promise<CdnVersionsResponse> => api.cdnVersions(), [api, shown]);
  const state = useTabList<CdnVersionsResponse, Dialog>(fetchList);
  const { data, dialog, open, close, finish, act } = state;
  const rows: Row[] | null = data ? data.bundles.flatMap((rollout) => rollout.versions.map((version) => ({ rollout, version }))) : null;
  const col = { version: t.t('operator.cdn.version'), state: t.t('operator.column.state'), size: t.t('operator.cdn.size'), published: t.t('operator.cdn.published') };
  const name = (row: Row) => `${row.rollout.bundle} ${row.version.version}`;

  const stateText = (row: Row) => {
    const { rollout, version } = row;
    return version.state.map((s) => {
      if (s === 'canary') return t.t('operator.cdn.state.canary', { percent: rollout.canary?.percent ?? 0 });
      if (s === 'pinned') return t.t('operator.cdn.state.pinned', { count: rollout.pins.filter((p) => p.version === version.version).length });
      return t.t(`operator.cdn.state.${s}`);
    });
  };

  const menu = (row: Row): RowMenuItem[] => {
    const { rollout, version } = row;
    const isDefault = version.version === rollout.default;
    const items: RowMenuItem[] = [];
    if (!isDefault) {
      items.push({ key: 'default', label: t.t('operator.cdn.makeDefault'), onSelect: () => open({ kind: 'default', row }) });
      items.push({ key: 'canary', label: t.t('operator.cdn.canary'), onSelect: () => open({ kind: 'canary', row }) });
      items.push({ key: 'pin', label: t.t('operator.cdn.pin'), onSelect: () => open({ kind: 'pin', row }) });
    }
    if (isDefault && rollout.previous) items.push({ key: 'rollback', label: t.t('operator.cdn.rollback', { version: rollout.previous }), onSelect: () => open({ kind: 'rollback', row }) });
    if (rollout.canary?.version === version.version) {
      items.push({ key: 'stop', label: t.t('operator.cdn.stopCanary'), onSelect: () => void act(async () => void (await api.cdnStopCanary(rollout.bundle)), t.t('operator.cdn.done.canaryStopped', { name: name(row) })) });
    }
    for (const pin of rollout.pins.filter((p) => p.version === version.version)) {
      items.push({
        key: `unpin-${pin.tenantId}`,
        label: t.t('operator.cdn.unpin', { tenant: pin.tenantId }),
        onSelect: () => void act(async () => void (await api.cdnUnpin(rollout.bundle, pin.tenantId)), t.t('operator.cdn.done.unpinned', { tenant: pin.tenantId, bundle: rollout.bundle })),
      });
    }
    return items;
  };

  return (
    <TabList
      state={state}
      intro={t.t('operator.cdn.intro')}
      button={
        data && (
          <span className="gh-ap-op-buttons">
            <button type="button" className="gh-ap-button" onClick={() => open({ kind: 'publish' })}>{t.t('operator.cdn.publish')}</button>
            <button type="button" className="gh-ap-button-secondary" onClick={() => open({ kind: 'prune' })}>{t.t('operator.cdn.prune')}</button>
          </span>
        )
      }
      caption={t.t('operator.cdn.caption')}
      columns={[t.t('operator.cdn.bundle'), col.version, col.state, col.size, col.published]}
      items={rows}
      itemKey={(row) => `${row.rollout.bundle}@${row.version.version}`}
      empty={t.t('operator.cdn.empty')}
      row={(row) => (
        <>
          <th scope="row"><code>{row.rollout.bundle}</code></th>
          <td data-label={col.version}><code>{row.version.version}</code></td>
          <td data-label={col.state}>
            <span className="gh-ap-op-codes">
              {stateText(row).map((text, i) => (
                <span key={text} className={row.version.state[i] === 'unused' ? 'gh-ap-badge gh-ap-badge-muted' : 'gh-ap-badge'}>{text}</span>
              ))}
            </span>
          </td>
          <td data-label={col.size}>{kilobytes(t, row.version.wireBytes)}</td>
          <td data-label={col.published}>{t.formatDate(row.version.publishedAt, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' })}</td>
        </>
      )}
      actions={(row) => {
        const items = menu(row);
        return items.length ? <RowMenu label={t.t('operator.cdn.actionsFor', { name: name(row) })} items={items} /> : null;
      }}
      dialogs={
        <>
          {(dialog?.kind === 'default' || dialog?.kind === 'rollback') && (
            <ConfirmDialog
              title={dialog.kind === 'default' ? t.t('operator.cdn.makeDefaultTitle', { name: name(dialog.row) }) : t.t('operator.cdn.rollbackTitle', { bundle: dialog.row.rollout.bundle })}
              text={
                dialog.kind === 'default'
                  ? t.t('operator.cdn.makeDefaultText', { version: dialog.row.version.version, current: dialog.row.rollout.default })
                  : t.t('operator.cdn.rollbackText', { version: dialog.row.rollout.previous ?? '', current: dialog.row.rollout.default })
              }
              label={dialog.kind === 'default' ? t.t('operator.cdn.makeDefault') : t.t('operator.cdn.rollbackConfirm')}
              onClose={close}
              run={async () => {
                const { rollout, version } = dialog.row;
                if (dialog.kind === 'default') await api.cdnPromote(rollout.bundle, { version: version.version });
                else await api.cdnRollback(rollout.bundle);
                await finish(t.t(dialog.kind === 'default' ? 'operator.cdn.done.default' : 'operator.cdn.done.rolledBack', { name: name(dialog.row), bundle: rollout.bundle, version: rollout.previous ?? '' }));
              }}
            />
          )}
          {dialog?.kind === 'canary' && (
            <NumberDialog
              title={t.t('operator.cdn.canaryTitle', { name: name(dialog.row) })}
              text={t.t('operator.cdn.canaryText', { current: dialog.row.rollout.default })}
              field={{ label: t.t('operator.cdn.percent'), hint: t.t('operator.cdn.percentHint'), problem: t.t('operator.cdn.problem.percent'), min: 1, max: 100, initial: dialog.row.rollout.canary?.percent ?? 5 }}
              confirm={t.t('operator.cdn.canaryConfirm')}
              onClose={close}
              save={async (percent) => {
                await api.cdnPromote(dialog.row.rollout.bundle, { version: dialog.row.version.version, percent });
                await finish(t.t('operator.cdn.done.canary', { name: name(dialog.row), percent }));
              }}
            />
          )}
          {dialog?.kind === 'pin' && (
            <PinDialog
              title={t.t('operator.cdn.pinTitle', { name: name(dialog.row) })}
              onClose={close}
              save={async (tenants) => {
                await api.cdnPromote(dialog.row.rollout.bundle, { version: dialog.row.version.version, tenants });
                await finish(t.t('operator.cdn.done.pinned', { name: name(dialog.row), count: tenants.length }));
              }}
            />
          )}
          {dialog?.kind === 'publish' && (
            <PublishDialog
              onClose={close}
              publish={async (body) => {
                const done = await api.cdnPublish(body);
                await finish(t.t(done.outcome === 'published' ? 'operator.cdn.done.published' : 'operator.cdn.done.unchanged', { name: `${done.bundle} ${done.version}` }));
                return done;
              }}
            />
          )}
          {dialog?.kind === 'prune' && (
            <NumberDialog
              title={t.t('operator.cdn.pruneTitle')}
              text={t.t('operator.cdn.pruneText')}
              field={{ label: t.t('operator.cdn.keep'), hint: t.t('operator.cdn.keepHint'), problem: t.t('operator.cdn.problem.keep'), min: 1, max: 1000, initial: 3 }}
              confirm={t.t('operator.cdn.pruneConfirm')}
              danger
              onClose={close}
              save={async (keep) => {
                const { removed } = await api.cdnPrune(keep);
                await finish(t.t('operator.cdn.done.pruned', { count: removed.length }));
              }}
            />
          )}
        </>
      }
    />
  );
}
