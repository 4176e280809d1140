/**
 * The header's notification bell (issue 16 "Notifications"): a button naming the unread count
 * ("Notifications, 3 unread") that opens the panel. The button and the count feed ship with the
 * shell; the panel, its strings and styles load the first time it opens.
 */
import { lazy, Suspense, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { NOTIFICATION_READER_PERMISSIONS } from '@gatehouse/shared/admin-paths';
import { holdsPermission, type AccessSubject } from '../access';
import { adoptCss } from '../host-styles';
import type { GatehouseApi } from '../contract';
import { useT } from '../i18n/i18n-context';
import { createNotificationsApi } from './notifications-api';
import { createUnreadFeed, type UnreadFeedOptions } from './unread-feed';
import bellCss from './bell.css?inline';

const NotificationPanel = lazy(() => import('./notification-panel'));

/** True when the user sees some category of notifications (the server's rule, notifications.md). */
export function seesNotifications(user: AccessSubject | null | undefined): boolean {
  return Boolean(user && (user.superUser || NOTIFICATION_READER_PERMISSIONS.some((key) => holdsPermission(user, key))));
}

export function NotificationBell({ api, feedOptions }: { api: GatehouseApi; feedOptions?: UnreadFeedOptions }) {
  const t = useT();
  const calls = useMemo(() => createNotificationsApi(api), [api]);
  const feed = useMemo(() => createUnreadFeed(calls, feedOptions), [calls, feedOptions]);
  useEffect(() => {
    feed.start();
    return () => feed.stop();
  }, [feed]);
  const unread = useSyncExternalStore(feed.subscribe, feed.snapshot) ?? 0;
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  useEffect(() => (buttonRef.current ? adoptCss(buttonRef.current, bellCss) : undefined), []);
  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };
  const label = unread > 0 ? t.t('shell.notificationsUnread', { count: unread }) : t.t('shell.notifications');
  return (
    <div className="gh-ap-bell-wrap">
      <button ref={buttonRef} type="button" className="gh-ap-bell" aria-label={label} aria-expanded={open} aria-haspopup="dialog" onClick={() => (open ? close() : setOpen(true))}>
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M6 16V11a6 6 0 1 1 12 0v5l2 2H4l2-2M10 20a2 2 0 0 0 4 0" /></svg>
        {unread > 0 && <span className="gh-ap-bell-count" aria-hidden="true">{unread > 99 ? '99+' : unread}</span>}
      </button>
      {open && (
        <Suspense fallback={<div className="gh-ap-bell-loading" role="status" aria-label={t.t('shell.notificationsLoading')}><span className="gh-ap-spinner" aria-hidden="true" /></div>}>
          <NotificationPanel calls={calls} onClose={close} onUnread={feed.set} />
        </Suspense>
      )}
    </div>
  );
}
