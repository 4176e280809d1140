import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useErrorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';
import { Toast } from '../../toast';
import { DeleteDialog } from '../dialogs/delete-dialog';
import { useInertWhile } from '../dialogs/use-inert';
import { useLatestLoad } from '../dialogs/use-latest-load';
import { TableSkeleton } from '../users/users-table';
import type { SlackChannel, SlackConfig } from './connectivity-types';
import { AddEventRow } from './add-event-row';
import { groupByCategory } from './event-catalogue';
import { forgetSlackState, rememberSlackState, SLACK_WINDOW, slackReturn, withoutSlackReturn } from './slack-return';
import type { ConnectivityTabProps } from './tab-props';

interface SlackEventDraft {
  key: string;
  id?: string;
  eventKey: string;
  channelIds: string[];
  enabled: boolean;
}

let nextKey = 0;
const draftsOf = (config: SlackConfig): SlackEventDraft[] => config.slackEvents.map((e) => ({ key: `e${++nextKey}`, id: e.id, eventKey: e.eventKey, channelIds: e.channelIds, enabled: e.enabled }));

/** How often the tab looks whether Slack's consent window was closed (then it reads the connection again). */
const WINDOW_CHECK_MS = 1000;

/**
 * The Slack tab (seed 001 sections 3, 5, 7; issue 16): connects the tenant's Slack workspace with
 * Slack's OAuth (the scope call gives the consent URL, opened in a new window; Slack comes back to
 * the host page with a code, which this tab posts), shows the connected workspace, disconnects it,
 * and picks per event the channels to post to. One Save sends every event (seed 001 section 5: the
 * configuration updates when it has an id, otherwise it is created; an event left with no channel
 * is deleted by the server).
 */
export function SlackTab({ connectivity, catalogue, catalogueError, canWrite }: ConnectivityTabProps) {
  const t = useT();
  const toError = useErrorText();
  const get = useCallback(() => connectivity.slack.get(), [connectivity]);
  const { data: config, loading, error, reload } = useLatestLoad(get, toError);
  const [notice, setNotice] = useState<string | null>(null);
  const [connectState, setConnectState] = useState<{ busy: boolean; error: string | null; url: string | null }>({ busy: false, error: null, url: null });
  const [confirmDisconnect, setConfirmDisconnect] = useState(false);
  const behindRef = useRef<HTMLDivElement>(null);
  useInertWhile(behindRef, confirmDisconnect);
  // The watch on Slack's consent window ends with the tab.
  const watch = useRef<ReturnType<typeof setInterval>>();
  useEffect(() => () => clearInterval(watch.current), []);

  // Back from Slack: finish the connection once, and take the code out of the address bar.
  useEffect(() => {
    if (typeof window === 'undefined') return;
    const returned = slackReturn(window.location);
    if (!returned) return;
    window.history.replaceState(window.history.state, '', withoutSlackReturn(window.location.href));
    forgetSlackState();
    if ('error' in returned) {
      setConnectState({ busy: false, error: t.t('connectivity.slack.refused', { error: returned.error }), url: null });
      return;
    }
    setConnectState({ busy: true, error: null, url: null });
    connectivity.slack.code(returned.code, returned.state).then(
      (connected) => {
        setConnectState({ busy: false, error: null, url: null });
        setNotice(t.t('connectivity.slack.connected', { team: connected.teamName ?? 'Slack' }));
        void reload();
        // The consent window this tab opened: its job is done.
        if (window.opener && window.name === SLACK_WINDOW) window.close();
      },
      (thrown: unknown) => setConnectState({ busy: false, error: toError(thrown), url: null }),
    );
  }, []);

  async function connect() {
    setNotice(null);
    setConnectState({ busy: true, error: null, url: null });
    try {
      const scope = await connectivity.slack.scope();
      rememberSlackState(scope.state);
      const opened = window.open(scope.authorizeUrl, SLACK_WINDOW, 'popup,width=620,height=760');
      // A blocked window: the link below opens it on a click of the admin's own.
      setConnectState({ busy: false, error: null, url: opened ? null : scope.authorizeUrl });
      if (opened) {
        clearInterval(watch.current);
        watch.current = setInterval(() => {
          if (!opened.closed) return;
          clearInterval(watch.current);
          void reload();
        }, WINDOW_CHECK_MS);
      }
    } catch (thrown) {
      setConnectState({ busy: false, error: toError(thrown), url: null });
    }
  }

  return (
    <>
      <div ref={behindRef} className="gh-ap-users">
        <p className="gh-ap-modal-text">{t.t('connectivity.slack.intro')}</p>
        <Toast message={notice} />
        {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
        {connectState.error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{connectState.error}</p>}
        {loading && !config && <TableSkeleton rows={2} />}
        {config && (
          <section className="gh-ap-card gh-ap-cx-card" aria-label={t.t('connectivity.slack.workspace')}>
            <div className="gh-ap-cx-card-head">
              <div>
                <h3 className="gh-ap-cx-title">{t.t('connectivity.slack.workspace')}</h3>
                <p className="gh-ap-modal-text">
                  {config.connected ? t.t('connectivity.slack.connectedTo', { team: config.teamName ?? t.t('common.unknown') }) : t.t('connectivity.slack.notConnected')}
                </p>
              </div>
              {canWrite && !config.connected && (
                <button type="button" className="gh-ap-button" disabled={connectState.busy} aria-busy={connectState.busy} onClick={() => void connect()}>
                  {connectState.busy && <span className="gh-ap-spinner" aria-hidden="true" />}
                  {t.t('connectivity.slack.connect')}
                </button>
              )}
              {canWrite && config.connected && (
                <button type="button" className="gh-ap-button-secondary" onClick={() => { setNotice(null); setConfirmDisconnect(true); }}>{t.t('connectivity.slack.disconnect')}</button>
              )}
            </div>
            {connectState.url && (
              <p className="gh-ap-hint">
                {t.t('connectivity.slack.blocked')}{' '}
                <a className="gh-ap-link" href={connectState.url} target={SLACK_WINDOW} rel="noopener">{t.t('connectivity.slack.openSlack')}</a>
              </p>
            )}
            {!config.connected && canWrite && <p className="gh-ap-hint">{t.t('connectivity.slack.howItWorks')}</p>}
          </section>
        )}
        {catalogueError && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{catalogueError}</p>}
        {config?.connected && catalogue && (
          <SlackEvents key={JSON.stringify(config.slackEvents)} config={config} connectivity={connectivity} catalogue={catalogue} canWrite={canWrite} onSaved={async () => { await reload(); setNotice(t.t('connectivity.slack.saved')); }} />
        )}
      </div>
      {confirmDisconnect && (
        <DeleteDialog
          title={t.t('connectivity.slack.disconnectTitle')}
          text={t.t('connectivity.slack.disconnectText', { team: config?.teamName ?? 'Slack' })}
          confirmLabel={t.t('connectivity.slack.disconnect')}
          onClose={() => setConfirmDisconnect(false)}
          run={async () => {
            await connectivity.slack.disconnect();
            await reload();
            setConfirmDisconnect(false);
            setNotice(t.t('connectivity.slack.disconnected'));
          }}
        />
      )}
    </>
  );
}

/** The events posted to Slack and their channels, edited together and saved with one POST. */
function SlackEvents({ config, connectivity, catalogue, canWrite, onSaved }: Pick<ConnectivityTabProps, 'connectivity' | 'canWrite'> & { config: SlackConfig; catalogue: NonNullable<ConnectivityTabProps['catalogue']>; onSaved: () => Promise<void> }) {
  const t = useT();
  const toError = useErrorText();
  const id = useId();
  const listChannels = useCallback(() => connectivity.slack.channels(), [connectivity]);
  const channels = useLatestLoad(listChannels, toError);
  const [drafts, setDrafts] = useState(() => draftsOf(config));
  const [dirty, setDirty] = useState(false);
  const [picked, setPicked] = useState('');
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const locked = !canWrite || busy;

  const change = (next: SlackEventDraft[]) => {
    setDrafts(next);
    setDirty(true);
    setError(null);
  };
  const update = (key: string, patch: Partial<SlackEventDraft>) => {
    change(drafts.map((d) => (d.key === key ? { ...d, ...patch } : d)));
    if ('channelIds' in patch) setProblems((p) => ({ ...p, [key]: '' }));
  };
  const used = new Set(drafts.map((d) => d.eventKey));
  const choices = groupByCategory(catalogue.filter((entry) => !used.has(entry.key)));
  const nameOf = (channelId: string) => channels.data?.find((c) => c.id === channelId)?.name ?? channelId;

  async function save() {
    // A new event with no channel would be deleted at once (seed 001 section 5): say so instead of sending it.
    const found: Record<string, string> = {};
    for (const d of drafts) if (!d.id && d.channelIds.length === 0) found[d.key] = t.t('connectivity.slack.channelsMissing');
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    setError(null);
    try {
      await connectivity.slack.save({
        ...(config.id ? { id: config.id } : {}),
        slackEvents: drafts.map((d) => ({ ...(d.id ? { id: d.id } : {}), eventKey: d.eventKey, channelIds: d.channelIds, enabled: d.enabled })),
      });
      setDirty(false);
      await onSaved();
    } catch (thrown) {
      setError(toError(thrown));
      setBusy(false);
    }
  }

  return (
    <section className="gh-ap-card gh-ap-cx-card" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="gh-ap-cx-title">{t.t('connectivity.slack.events')}</h3>
      {channels.error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{channels.error}</p>}
      {drafts.length === 0 && <p className="gh-ap-hint">{t.t(canWrite ? 'connectivity.slack.noEvents.add' : 'connectivity.slack.noEvents.none')}</p>}
      <ul className="gh-ap-cx-subs">
        {drafts.map((draft) => (
          <li key={draft.key} className="gh-ap-cx-sub">
            <fieldset className="gh-ap-fieldset" aria-invalid={problems[draft.key] ? true : undefined} aria-describedby={problems[draft.key] ? `${id}-${draft.key}-error` : undefined}>
              <legend className="gh-ap-cx-event-key"><code className="gh-ap-mono" dir="ltr">{draft.eventKey}</code></legend>
              <ChannelPicker channels={channels.data} loading={channels.loading} selected={draft.channelIds} nameOf={nameOf} disabled={locked} onChange={(channelIds) => update(draft.key, { channelIds })} />
              {problems[draft.key] && <p id={`${id}-${draft.key}-error`} className="gh-ap-field-error" role="alert">{problems[draft.key]}</p>}
              {draft.id && draft.channelIds.length === 0 && <p className="gh-ap-hint">{t.t('connectivity.slack.willDelete')}</p>}
            </fieldset>
            <div className="gh-ap-cx-sub-actions">
              <label className="gh-ap-check">
                <input type="checkbox" role="switch" checked={draft.enabled} disabled={locked} onChange={(e) => update(draft.key, { enabled: e.target.checked })} />
                <span>{t.t('connectivity.channel.subscriptionEnabled')}</span>
              </label>
              {canWrite && (
                <button type="button" className="gh-ap-link gh-ap-link-danger" disabled={busy} aria-label={t.t('connectivity.slack.removeLabel', { event: draft.eventKey })} onClick={() => (draft.id ? update(draft.key, { channelIds: [] }) : change(drafts.filter((d) => d.key !== draft.key)))}>
                  {t.t('connectivity.channel.remove')}
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
      {canWrite && (
        <AddEventRow id={`${id}-add`} choices={choices} picked={picked} onPick={setPicked} busy={busy} onAdd={() => { change([...drafts, { key: `e${++nextKey}`, eventKey: picked, channelIds: [], enabled: true }]); setPicked(''); }} />
      )}
      {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
      {canWrite && (
        <div className="gh-ap-cx-card-actions">
          <button type="button" className="gh-ap-button" disabled={busy || !dirty} aria-busy={busy} onClick={() => void save()}>
            {busy && <span className="gh-ap-spinner" aria-hidden="true" />}
            {t.t('common.save')}
          </button>
        </div>
      )}
    </section>
  );
}

/** The workspace's channels as checkboxes (with a filter when there are many); channels no longer listed stay ticked by id. */
function ChannelPicker({ channels, loading, selected, nameOf, disabled, onChange }: { channels: SlackChannel[] | null; loading: boolean; selected: string[]; nameOf: (id: string) => string; disabled: boolean; onChange: (ids: string[]) => void }) {
  const t = useT();
  const id = useId();
  const [filter, setFilter] = useState('');
  if (loading && !channels) return <p className="gh-ap-hint">{t.t('connectivity.slack.loadingChannels')}</p>;
  const all = [...(channels ?? [])];
  for (const channelId of selected) if (!all.some((c) => c.id === channelId)) all.push({ id: channelId, name: nameOf(channelId) });
  const word = filter.trim().toLocaleLowerCase();
  const shown = all.filter((c) => !word || c.name.toLocaleLowerCase().includes(word) || selected.includes(c.id));
  const toggle = (channelId: string, on: boolean) => onChange(on ? [...selected, channelId] : selected.filter((c) => c !== channelId));
  return (
    <div className="gh-ap-cx-channels">
      {all.length > 8 && (
        <>
          <label className="gh-ap-visually-hidden" htmlFor={`${id}-filter`}>{t.t('connectivity.slack.filterChannels')}</label>
          <input id={`${id}-filter`} className="gh-ap-input" type="search" value={filter} placeholder={t.t('connectivity.slack.filterChannels')} onChange={(e) => setFilter(e.target.value)} />
        </>
      )}
      {all.length === 0 && <p className="gh-ap-hint">{t.t('connectivity.slack.noChannels')}</p>}
      <div className="gh-ap-cx-channel-list">
        {shown.map((channel) => (
          <label key={channel.id} className="gh-ap-check">
            <input type="checkbox" checked={selected.includes(channel.id)} disabled={disabled} onChange={(e) => toggle(channel.id, e.target.checked)} />
            <span dir="ltr">#{channel.name}</span>
          </label>
        ))}
      </div>
    </div>
  );
}
