/**
 * The notification panel (lazily loaded with its strings and styles): the caller's notifications,
 * pinned first, each with read/unread and pin/unpin, and mark-all-read. Escape closes it and the
 * bell gets the focus back. Every action answers the unread count, which the bell shows at once.
 */
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { NOTIFICATIONS_PAGE_SIZE } from '@gatehouse/shared/admin-paths';
import { adoptCss } from '../host-styles';
import { useNamespaces } from '../i18n/i18n-context';
import type { Notification, NotificationsApi } from './notifications-api';
import css from './notifications.css?inline';

type Load = { state: 'loading' } | { state: 'error' } | { state: 'ready'; rows: Notification[]; total: number; unread: number };

export default function NotificationPanel({ calls, onClose, onUnread }: { calls: NotificationsApi; onClose(): void; onUnread(unread: number): void }) {
  const t = useNamespaces(['notifications']);
  const panelRef = useRef<HTMLDivElement>(null);
  const headingId = useId();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [busy, setBusy] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => (panelRef.current ? adoptCss(panelRef.current, css) : undefined), []);
  useEffect(() => panelRef.current?.focus(), []);

  const fetchPage = useCallback(
    async (count: number) => {
      try {
        const list = await calls.list(0, Math.min(Math.max(count, NOTIFICATIONS_PAGE_SIZE), 100));
        setLoad({ state: 'ready', rows: list.rows, total: list.total, unread: list.unread });
        onUnread(list.unread);
      } catch {
        setLoad({ state: 'error' });
      }
    },
    [calls, onUnread],
  );
  useEffect(() => void fetchPage(NOTIFICATIONS_PAGE_SIZE), [fetchPage]);

  const shown = load.state === 'ready' ? load.rows.length : NOTIFICATIONS_PAGE_SIZE;
  const act = async (key: string, call: () => Promise<{ unread: number }>) => {
    // Buttons stay enabled while a call runs (a disabled focused button drops the focus out of the
    // panel, and the portal's Escape would then close the portal): a second click is ignored.
    if (busy !== null) return;
    setBusy(key);
    setFailed(false);
    try {
      onUnread((await call()).unread);
      await fetchPage(shown);
    } catch {
      setFailed(true);
    } finally {
      setBusy(null);
      // Mark-all-read disables itself when nothing is left unread: keep the focus in the panel.
      const panel = panelRef.current;
      const root = panel?.getRootNode() as Document | ShadowRoot | undefined;
      if (panel && root && !panel.contains(root.activeElement)) panel.focus();
    }
  };

  // Escape closes the panel only, also when the focus has fallen out of it: a focused button that
  // disabled itself (mark-all-read) drops the focus to the page before the `finally` above can
  // catch it, and the portal's document-level Escape would then close the whole portal. A capture
  // listener on the document runs before the portal's and stops the event there; it acts only when
  // nothing has the focus, so an Escape meant for another dialog is left alone.
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  useEffect(() => {
    const doc = panelRef.current?.ownerDocument;
    if (!doc) return;
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (doc.activeElement && doc.activeElement !== doc.body) return;
      event.preventDefault();
      event.stopPropagation();
      onCloseRef.current();
    };
    doc.addEventListener('keydown', onKeyDown, true);
    return () => doc.removeEventListener('keydown', onKeyDown, true);
  }, []);
  // With the focus in the panel, its own handler closes it.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    onClose();
  };

  return (
    <div ref={panelRef} className="gh-ap-notif" role="dialog" aria-labelledby={headingId} tabIndex={-1} onKeyDown={onKeyDown}>
      <div className="gh-ap-notif-head">
        <h2 id={headingId} className="gh-ap-notif-title">{t.t('notifications.title')}</h2>
        <button type="button" className="gh-ap-notif-link" disabled={load.state !== 'ready' || load.unread === 0} aria-busy={busy === 'all'} onClick={() => void act('all', () => calls.markAllRead())}>
          {t.t('notifications.markAllRead')}
        </button>
        <button type="button" className="gh-ap-notif-close" aria-label={t.t('notifications.close')} onClick={onClose}>
          <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M6 6l12 12M18 6L6 18" /></svg>
        </button>
      </div>
      {failed && <p className="gh-ap-notif-error" role="alert">{t.t('notifications.actionFailed')}</p>}
      {load.state === 'loading' && (
        <div className="gh-ap-notif-skeleton" role="status" aria-label={t.t('notifications.loading')}>
          {[0, 1, 2].map((i) => (
            <div key={i} className="gh-ap-notif-skeleton-row" aria-hidden="true"><span className="gh-ap-skeleton-bar" /><span className="gh-ap-skeleton-bar gh-ap-notif-short" /></div>
          ))}
        </div>
      )}
      {load.state === 'error' && (
        <div className="gh-ap-notif-empty">
          <p role="alert">{t.t('notifications.loadFailed')}</p>
          <button type="button" className="gh-ap-button-secondary" onClick={() => { setLoad({ state: 'loading' }); void fetchPage(NOTIFICATIONS_PAGE_SIZE); }}>{t.t('notifications.retry')}</button>
        </div>
      )}
      {load.state === 'ready' && load.rows.length === 0 && (
        <div className="gh-ap-notif-empty">
          <p className="gh-ap-notif-empty-title">{t.t('notifications.empty')}</p>
          <p>{t.t('notifications.emptyText')}</p>
        </div>
      )}
      {load.state === 'ready' && load.rows.length > 0 && (
        <ul className="gh-ap-notif-list">
          {load.rows.map((n) => (
            <li key={n.id} className="gh-ap-notif-item" data-status={n.status} data-severity={n.severity}>
              <div className="gh-ap-notif-meta">
                <span className="gh-ap-notif-severity">{t.t(`notifications.severity.${n.severity}`)}</span>
                {n.status === 'unread' && <span className="gh-ap-notif-new">{t.t('notifications.new')}</span>}
                {n.pinned && <span className="gh-ap-notif-pinned">{t.t('notifications.pinned')}</span>}
                <time className="gh-ap-notif-time" dateTime={new Date(n.createdAt).toISOString()}>{t.formatDate(new Date(n.createdAt), { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' })}</time>
              </div>
              <p className="gh-ap-notif-item-title">{n.title}</p>
              {n.body && <p className="gh-ap-notif-body">{n.body}</p>}
              <div className="gh-ap-notif-actions">
                <button
                  type="button"
                  className="gh-ap-notif-link"
                  aria-disabled={busy !== null}
                  aria-label={`${t.t(n.status === 'unread' ? 'notifications.markRead' : 'notifications.markUnread')}: ${n.title}`}
                  onClick={() => void act(`status:${n.id}`, () => calls.setStatus(n.id, n.status === 'unread' ? 'read' : 'unread'))}
                >
                  {t.t(n.status === 'unread' ? 'notifications.markRead' : 'notifications.markUnread')}
                </button>
                <button
                  type="button"
                  className="gh-ap-notif-link"
                  aria-disabled={busy !== null}
                  aria-label={`${t.t(n.pinned ? 'notifications.unpin' : 'notifications.pin')}: ${n.title}`}
                  onClick={() => void act(`pin:${n.id}`, () => calls.setPin(n.id, n.pinned ? 'unpinned' : 'pinned'))}
                >
                  {t.t(n.pinned ? 'notifications.unpin' : 'notifications.pin')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {load.state === 'ready' && load.total > load.rows.length && load.rows.length < 100 && (
        <div className="gh-ap-notif-more">
          <button type="button" className="gh-ap-button-secondary" onClick={() => void fetchPage(load.rows.length + NOTIFICATIONS_PAGE_SIZE)}>{t.t('notifications.more')}</button>
        </div>
      )}
    </div>
  );
}
