import { useCallback, useId, useMemo, useRef, useState } from 'react';
import { useErrorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';
import { Toast } from '../../toast';
import { useLatestLoad } from '../dialogs/use-latest-load';
import { TableSkeleton } from '../users/users-table';
import type { RecipientChannel } from './connectivity-api';
import type { ChannelEventConfig, EventCatalogueEntry } from './connectivity-types';
import { AddEventRow } from './add-event-row';
import { groupByCategory } from './event-catalogue';
import { invalidRecipients, MAX_RECIPIENTS, splitRecipients } from './recipients';
import type { ConnectivityTabProps } from './tab-props';

/** One subscription as edited: `id` when the server has it; `key` identifies the row while editing. */
interface SubscriptionDraft {
  key: string;
  id?: string;
  enabled: boolean;
  text: string;
}
interface EventDraft {
  eventKey: string;
  enabled: boolean;
  subscriptions: SubscriptionDraft[];
  /** Subscriptions the server has that the admin removed: deleted at the next save. */
  removed: string[];
  /** Not saved yet (added from the picker). */
  isNew: boolean;
}

let nextKey = 0;
const draftOf = (config: ChannelEventConfig): EventDraft => ({
  eventKey: config.eventKey,
  enabled: config.enabled,
  subscriptions: config.subscriptions.map((s) => ({ key: `s${++nextKey}`, id: s.id, enabled: s.enabled, text: s.recipients.join(', ') })),
  removed: [],
  isNew: false,
});

/**
 * The Email and SMS tabs (seed 001 sections 3, 5; issue 16): per event of the catalogue, who is told
 * when it happens. Each event has a switch and its subscriptions (recipients, each subscription with
 * its own switch). Seed 001 section 5's rules are the server's; this tab never sends a subscription
 * without recipients: a new one left empty is dropped, and one the server has that was emptied or
 * removed is deleted.
 */
export function ChannelTab({ channel, connectivity, catalogue, catalogueError, canWrite }: ConnectivityTabProps & { channel: RecipientChannel }) {
  const t = useT();
  const toError = useErrorText();
  const api = useMemo(() => connectivity.channel(channel), [connectivity, channel]);
  const list = useCallback(() => api.list(), [api]);
  const { data, loading, error, reload } = useLatestLoad(list, toError);
  const [added, setAdded] = useState<EventDraft[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const [picked, setPicked] = useState('');
  const pickerId = useId();
  const focusKey = useRef<string | null>(null);

  const configured = new Set([...(data ?? []).map((c) => c.eventKey), ...added.map((d) => d.eventKey)]);
  const describe = (key: string) => catalogue?.find((entry) => entry.key === key);
  const choices = groupByCategory((catalogue ?? []).filter((entry) => !configured.has(entry.key)));

  function addEvent() {
    if (!picked) return;
    const key = `s${++nextKey}`;
    focusKey.current = key;
    setAdded((list) => [...list, { eventKey: picked, enabled: true, subscriptions: [{ key, enabled: true, text: '' }], removed: [], isNew: true }]);
    setPicked('');
    setNotice(null);
  }

  const configs = data ?? [];
  return (
    <div className="gh-ap-users">
      <p className="gh-ap-modal-text">{t.t(channel === 'email' ? 'connectivity.email.intro' : 'connectivity.sms.intro')}</p>
      <Toast message={notice} />
      {catalogueError && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{catalogueError}</p>}
      {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
      {canWrite && catalogue && (
        <AddEventRow id={pickerId} choices={choices} picked={picked} onPick={setPicked} onAdd={addEvent} />
      )}
      {loading && !data && <TableSkeleton rows={2} />}
      {!loading && !error && configs.length === 0 && added.length === 0 && (
        <p className="gh-ap-cx-empty">{t.t(channel === 'email' ? (canWrite ? 'connectivity.email.empty.add' : 'connectivity.email.empty.none') : canWrite ? 'connectivity.sms.empty.add' : 'connectivity.sms.empty.none')}</p>
      )}
      <div className="gh-ap-cx-cards">
        {configs.map((config) => (
          <EventCard
            key={`saved-${config.eventKey}-${stamp(config)}`}
            channel={channel}
            initial={draftOf(config)}
            entry={describe(config.eventKey)}
            canWrite={canWrite}
            focusKey={focusKey}
            save={async (draft) => {
              await saveDraft(api, draft);
              await reload();
              setNotice(t.t('connectivity.channel.saved', { event: draft.eventKey }));
            }}
          />
        ))}
        {added.map((draft) => (
          <EventCard
            key={`new-${draft.eventKey}`}
            channel={channel}
            initial={draft}
            entry={describe(draft.eventKey)}
            canWrite={canWrite}
            focusKey={focusKey}
            onDiscard={() => setAdded((list) => list.filter((d) => d.eventKey !== draft.eventKey))}
            save={async (next) => {
              await saveDraft(api, next);
              await reload();
              setAdded((list) => list.filter((d) => d.eventKey !== next.eventKey));
              setNotice(t.t('connectivity.channel.saved', { event: next.eventKey }));
            }}
          />
        ))}
      </div>
    </div>
  );
}

/** Changes when the server's copy does (a saved subscription got its id), so the card starts again from it. */
const stamp = (config: ChannelEventConfig) => `${config.enabled}:${config.subscriptions.map((s) => `${s.id}=${s.enabled}:${s.recipients.join(',')}`).join(';')}`;

/** Deletes the subscriptions the admin removed or emptied, then saves the event with the ones that have recipients. */
async function saveDraft(api: ReturnType<ConnectivityTabProps['connectivity']['channel']>, draft: EventDraft): Promise<void> {
  const kept = draft.subscriptions.map((s) => ({ ...s, recipients: splitRecipients(s.text) }));
  const emptied = kept.filter((s) => s.id && s.recipients.length === 0).map((s) => s.id!);
  for (const id of [...draft.removed, ...emptied]) await api.removeSubscription(draft.eventKey, id);
  await api.save({
    eventKey: draft.eventKey,
    enabled: draft.enabled,
    subscriptions: kept.filter((s) => s.recipients.length > 0).map((s) => ({ ...(s.id ? { id: s.id } : {}), enabled: s.enabled, recipients: s.recipients })),
  });
}

/** One event's switch and subscriptions, edited as a draft and saved together. */
function EventCard({ channel, initial, entry, canWrite, focusKey, save, onDiscard }: {
  channel: RecipientChannel;
  initial: EventDraft;
  entry: EventCatalogueEntry | undefined;
  canWrite: boolean;
  focusKey: { current: string | null };
  save: (draft: EventDraft) => Promise<void>;
  onDiscard?: () => void;
}) {
  const t = useT();
  const toError = useErrorText();
  const id = useId();
  const [draft, setDraft] = useState(initial);
  const [dirty, setDirty] = useState(initial.isNew);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const locked = !canWrite || busy;

  const change = (next: EventDraft) => {
    setDraft(next);
    setDirty(true);
    setError(null);
  };
  const changeSub = (key: string, patch: Partial<SubscriptionDraft>) => {
    change({ ...draft, subscriptions: draft.subscriptions.map((s) => (s.key === key ? { ...s, ...patch } : s)) });
    if ('text' in patch) setProblems((p) => ({ ...p, [key]: '' }));
  };
  const addSub = () => {
    const key = `s${++nextKey}`;
    focusKey.current = key;
    change({ ...draft, subscriptions: [...draft.subscriptions, { key, enabled: true, text: '' }] });
  };
  const removeSub = (sub: SubscriptionDraft) => change({ ...draft, subscriptions: draft.subscriptions.filter((s) => s.key !== sub.key), removed: sub.id ? [...draft.removed, sub.id] : draft.removed });

  async function submit() {
    const found: Record<string, string> = {};
    for (const sub of draft.subscriptions) {
      const recipients = splitRecipients(sub.text);
      const bad = invalidRecipients(channel, recipients);
      if (bad.length > 0) found[sub.key] = t.t(channel === 'email' ? 'connectivity.channel.badEmail' : 'connectivity.channel.badPhone', { recipients: bad.join(', '), count: bad.length });
      else if (recipients.length > MAX_RECIPIENTS) found[sub.key] = t.t('connectivity.channel.tooMany', { max: MAX_RECIPIENTS });
    }
    setProblems(found);
    if (Object.values(found).some(Boolean)) return;
    setBusy(true);
    setError(null);
    try {
      await save(draft);
      setDirty(false);
    } catch (thrown) {
      setError(toError(thrown));
    } finally {
      setBusy(false);
    }
  }

  const title = `${id}-title`;
  return (
    <section className="gh-ap-card gh-ap-cx-card" aria-labelledby={title}>
      <div className="gh-ap-cx-card-head">
        <div>
          <h3 id={title} className="gh-ap-cx-event-key"><code className="gh-ap-mono" dir="ltr">{draft.eventKey}</code></h3>
          {entry && <p className="gh-ap-hint">{entry.description}</p>}
        </div>
        <label className="gh-ap-check gh-ap-cx-toggle">
          <input type="checkbox" role="switch" checked={draft.enabled} disabled={locked} onChange={(e) => change({ ...draft, enabled: e.target.checked })} />
          <span>{t.t('connectivity.channel.eventEnabled')}</span>
        </label>
      </div>
      {draft.subscriptions.length === 0 && <p className="gh-ap-hint">{t.t('connectivity.channel.noSubscriptions')}</p>}
      <ul className="gh-ap-cx-subs">
        {draft.subscriptions.map((sub, index) => {
          const inputId = `${id}-${sub.key}`;
          const problem = problems[sub.key];
          return (
            <li key={sub.key} className="gh-ap-cx-sub">
              <div className="gh-ap-field">
                <label className="gh-ap-label" htmlFor={inputId}>{t.t(channel === 'email' ? 'connectivity.channel.emailRecipients' : 'connectivity.channel.phoneRecipients', { n: index + 1 })}</label>
                <input
                  id={inputId}
                  ref={(node) => {
                    if (node && focusKey.current === sub.key) {
                      focusKey.current = null;
                      node.focus();
                    }
                  }}
                  className="gh-ap-input"
                  type="text"
                  dir="ltr"
                  inputMode={channel === 'email' ? 'email' : 'tel'}
                  autoComplete="off"
                  spellCheck={false}
                  value={sub.text}
                  disabled={locked}
                  placeholder={channel === 'email' ? 'security@example.com, ops@example.com' : '+14155550123, +442071838750'}
                  aria-invalid={problem ? true : undefined}
                  aria-describedby={`${inputId}-hint${problem ? ` ${inputId}-error` : ''}`}
                  onChange={(e) => changeSub(sub.key, { text: e.target.value })}
                />
                <p id={`${inputId}-hint`} className="gh-ap-hint">{t.t(channel === 'email' ? 'connectivity.channel.emailHint' : 'connectivity.channel.phoneHint')}</p>
                {problem && <p id={`${inputId}-error`} className="gh-ap-field-error" role="alert">{problem}</p>}
              </div>
              <div className="gh-ap-cx-sub-actions">
                <label className="gh-ap-check">
                  <input type="checkbox" role="switch" checked={sub.enabled} disabled={locked} onChange={(e) => changeSub(sub.key, { enabled: e.target.checked })} />
                  <span>{t.t('connectivity.channel.subscriptionEnabled')}</span>
                </label>
                {canWrite && (
                  <button type="button" className="gh-ap-link gh-ap-link-danger" disabled={busy} onClick={() => removeSub(sub)} aria-label={t.t('connectivity.channel.removeLabel', { n: index + 1, event: draft.eventKey })}>
                    {t.t('connectivity.channel.remove')}
                  </button>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
      {canWrite && (
        <div className="gh-ap-cx-card-actions">
          <button type="button" className="gh-ap-link gh-ap-push-left" disabled={busy} onClick={addSub}>{t.t('connectivity.channel.addSubscription')}</button>
          {onDiscard && <button type="button" className="gh-ap-button-secondary" disabled={busy} onClick={onDiscard}>{t.t('common.cancel')}</button>}
          <button type="button" className="gh-ap-button" disabled={busy || !dirty} aria-busy={busy} onClick={() => void submit()}>
            {busy && <span className="gh-ap-spinner" aria-hidden="true" />}
            {t.t('common.save')}
          </button>
        </div>
      )}
    </section>
  );
}
