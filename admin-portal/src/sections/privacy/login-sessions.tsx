import { useCallback, useRef, useState } from 'react';
import type { UserSession } from '@gatehouse/shared/wire';
import { shortDateTime } from '../../format';
import { useT } from '../../i18n/i18n-context';
import { useInertWhile } from '../dialogs/use-inert';
import { useLatestLoad } from '../dialogs/use-latest-load';
import { DeleteDialog } from '../roles/delete-dialog';
import { TableSkeleton } from '../users/users-table';
import type { PrivacyApi } from './privacy-api';
import { deviceTypeKey, sessionDevice } from './privacy-format';

type Dialog = { kind: 'one'; session: UserSession } | { kind: 'others'; count: number } | null;

/**
 * Login sessions (seed 001 "Privacy sections: loginSessions"): where the user is signed in, with the
 * device and browser the server read from each session's User-Agent, when it was last active, and
 * "This device" on the session of this browser; signing out one other session, or all of them.
 * `canWrite` false (view-only) lists them without the sign-out actions.
 */
export function LoginSessions({ privacy, canWrite, onDialog, onSaved }: { privacy: PrivacyApi; canWrite: boolean; onDialog: (open: boolean) => void; onSaved: (message: string) => void }) {
  const t = useT();
  // Seed 001 section 8: a failed load shows the generic message (a failed action shows the server's).
  const loadError = useCallback(() => t.t('common.genericError'), [t]);
  const [dialog, setDialogState] = useState<Dialog>(null);

  const setDialog = (next: Dialog) => {
    setDialogState(next);
    onDialog(next !== null);
  };

  const contentRef = useRef<HTMLDivElement>(null);
  useInertWhile(contentRef, dialog !== null);

  const fetchSessions = useCallback(() => privacy.sessions(), [privacy]);
  const { data: sessions, loading, error, reload: load } = useLatestLoad<UserSession[]>(fetchSessions, loadError);

  // Closing a dialog re-reads the list: a refused sign-out usually means the session already ended elsewhere.
  const closeDialog = () => {
    setDialog(null);
    void load();
  };
  const others = (sessions ?? []).filter((s) => !s.current);
  const col = { device: t.t('privacy.sessions.device'), ip: t.t('privacy.sessions.ip'), lastActive: t.t('privacy.sessions.lastActive'), signedIn: t.t('privacy.sessions.signedIn') };

  return (
    <section className="gh-ap-privacy-part" aria-labelledby="gh-ap-privacy-sessions">
      <div ref={contentRef} className="gh-ap-privacy-content">
        <div className="gh-ap-users-head">
          <h3 id="gh-ap-privacy-sessions" className="gh-ap-privacy-title">{t.t('privacy.sessions.title')}</h3>
          {canWrite && others.length > 0 && (
            <button type="button" className="gh-ap-button-secondary" onClick={() => setDialog({ kind: 'others', count: others.length })}>
              {t.t('privacy.sessions.signOutOthers')}
            </button>
          )}
        </div>
        <p className="gh-ap-hint">{t.t('privacy.sessions.intro')}</p>
        {error && (
          <div className="gh-ap-banner gh-ap-banner-error gh-ap-privacy-error" role="alert">
            <span>{error}</span>
            <button type="button" className="gh-ap-link" onClick={() => void load()}>{t.t('common.tryAgain')}</button>
          </div>
        )}
        {!error && (
          <div className="gh-ap-table-wrap">
            <table className="gh-ap-table" aria-busy={loading}>
              <caption className="gh-ap-visually-hidden">{t.t('privacy.sessions.caption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{col.device}</th>
                  <th scope="col">{col.ip}</th>
                  <th scope="col">{col.lastActive}</th>
                  <th scope="col">{col.signedIn}</th>
                  {canWrite && <th scope="col" className="gh-ap-cell-actions"><span className="gh-ap-visually-hidden">{t.t('common.actions')}</span></th>}
                </tr>
              </thead>
              <tbody>
                {sessions?.map((session) => {
                  const device = sessionDevice(session, t);
                  const typeKey = deviceTypeKey(session);
                  return (
                    <tr key={session.id}>
                      <th scope="row">
                        <div className="gh-ap-role-text" title={session.userAgent ?? undefined}>
                          <span>{device}</span>
                          {(typeKey || session.current) && (
                            <span className="gh-ap-badges">
                              {typeKey && <span className="gh-ap-hint">{t.t(typeKey)}</span>}
                              {session.current && <span className="gh-ap-badge gh-ap-badge-current">{t.t('privacy.sessions.thisDevice')}</span>}
                            </span>
                          )}
                        </div>
                      </th>
                      <td data-label={col.ip}>{session.ipAddress ?? t.t('common.unknown')}</td>
                      <td data-label={col.lastActive} className="gh-ap-nowrap">{session.current ? t.t('privacy.sessions.now') : shortDateTime(t, session.lastActiveAt)}</td>
                      <td data-label={col.signedIn} className="gh-ap-nowrap">{shortDateTime(t, session.createdAt)}</td>
                      {canWrite && (
                        <td className="gh-ap-cell-actions">
                          {!session.current && (
                            <button type="button" className="gh-ap-link gh-ap-link-danger" aria-label={t.t('privacy.sessions.signOutOne', { device, date: shortDateTime(t, session.createdAt) })} onClick={() => setDialog({ kind: 'one', session })}>
                              {t.t('privacy.sessions.signOut')}
                            </button>
                          )}
                        </td>
                      )}
                    </tr>
                  );
                })}
                {!loading && (sessions?.length ?? 0) === 0 ? (
                  <tr>
                    <td colSpan={canWrite ? 5 : 4}>
                      <p className="gh-ap-table-empty">{t.t('privacy.sessions.empty')}</p>
                    </td>
                  </tr>
                ) : null}
              </tbody>
            </table>
            {loading && !sessions && <TableSkeleton rows={2} />}
          </div>
        )}
      </div>

      {dialog?.kind === 'one' && (
        <DeleteDialog
          title={t.t('privacy.sessions.signOutTitle')}
          confirmLabel={t.t('privacy.sessions.signOut')}
          text={t.t('privacy.sessions.signOutText', { device: sessionDevice(dialog.session, t), ip: dialog.session.ipAddress ?? t.t('privacy.sessions.unknownIp') })}
          onClose={closeDialog}
          run={async () => {
            await privacy.revokeSession(dialog.session.id);
            await load();
            setDialog(null);
            onSaved(t.t('privacy.sessions.signedOut'));
          }}
        />
      )}
      {dialog?.kind === 'others' && (
        <DeleteDialog
          title={t.t('privacy.sessions.signOutOthers')}
          confirmLabel={t.t('privacy.sessions.signOutAll')}
          text={t.t('privacy.sessions.signOutOthersText', { count: dialog.count })}
          onClose={closeDialog}
          run={async () => {
            const { revoked } = await privacy.revokeOtherSessions();
            await load();
            setDialog(null);
            onSaved(t.t('privacy.sessions.signedOutCount', { count: revoked }));
          }}
        />
      )}
    </section>
  );
}
