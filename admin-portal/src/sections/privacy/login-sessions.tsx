import { useCallback, useRef, useState } from 'react';
import type { UserSession } from '@gatehouse/shared/wire';
import { useInertWhile } from '../dialogs/use-inert';
import { useLatestLoad } from '../dialogs/use-latest-load';
import { DeleteDialog } from '../roles/delete-dialog';
import type { PrivacyApi } from './privacy-api';
import { GENERIC_ERROR, shortDateTime } from './privacy-format';
import { describeUserAgent } from './user-agent';

const genericError = () => GENERIC_ERROR;

type Dialog = { kind: 'one'; session: UserSession } | { kind: 'others'; count: number } | null;

/**
 * Login sessions (seed 001 "Privacy sections: loginSessions"): where the user is signed in, with
 * "This device" on the session of this browser; signing out one other session, or all of them.
 * `canWrite` false (view-only) lists them without the sign-out actions.
 */
export function LoginSessions({ privacy, canWrite, onDialog }: { privacy: PrivacyApi; canWrite: boolean; onDialog: (open: boolean) => void }) {
  const [dialog, setDialogState] = useState<Dialog>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const setDialog = (next: Dialog) => {
    if (next) setNotice(null);
    setDialogState(next);
    onDialog(next !== null);
  };

  const contentRef = useRef<HTMLDivElement>(null);
  useInertWhile(contentRef, dialog !== null);

  const fetchSessions = useCallback(() => privacy.sessions(), [privacy]);
  const { data: sessions, loading, error, reload: load } = useLatestLoad<UserSession[]>(fetchSessions, genericError);

  // Closing a dialog re-reads the list: a refused sign-out usually means the session already ended elsewhere.
  const closeDialog = () => {
    setDialog(null);
    void load();
  };
  const others = (sessions ?? []).filter((s) => !s.current);
  const columns = canWrite ? 4 : 3;

  return (
    <section className="gh-ap-privacy-part" aria-labelledby="gh-ap-privacy-sessions">
      <div ref={contentRef} className="gh-ap-privacy-content">
        <div className="gh-ap-users-head">
          <h3 id="gh-ap-privacy-sessions" className="gh-ap-privacy-title">Login sessions</h3>
          {canWrite && others.length > 0 && (
            <button type="button" className="gh-ap-button-secondary" onClick={() => setDialog({ kind: 'others', count: others.length })}>
              Sign out of all other sessions
            </button>
          )}
        </div>
        <p className="gh-ap-hint">Browsers and devices where you are signed in. Sign out of any you do not recognise.</p>
        <p className="gh-ap-status" role="status">{notice ?? ''}</p>
        {error && (
          <div className="gh-ap-banner gh-ap-banner-error gh-ap-privacy-error" role="alert">
            <span>{error}</span>
            <button type="button" className="gh-ap-link" onClick={() => void load()}>Try again</button>
          </div>
        )}
        {!error && (
          <div className="gh-ap-table-wrap">
            <table className="gh-ap-table" aria-busy={loading}>
              <caption className="gh-ap-visually-hidden">Your login sessions</caption>
              <thead>
                <tr>
                  <th scope="col">Device</th>
                  <th scope="col">IP address</th>
                  <th scope="col">Signed in</th>
                  {canWrite && <th scope="col"><span className="gh-ap-visually-hidden">Actions</span></th>}
                </tr>
              </thead>
              <tbody>
                {sessions?.map((session) => {
                  const device = describeUserAgent(session.userAgent);
                  return (
                    <tr key={session.id}>
                      <th scope="row">
                        <div className="gh-ap-role-text" title={session.userAgent ?? undefined}>
                          <span>{device}</span>
                          {session.current && <span className="gh-ap-badges"><span className="gh-ap-badge gh-ap-badge-current">This device</span></span>}
                        </div>
                      </th>
                      <td>{session.ipAddress ?? 'Unknown'}</td>
                      <td className="gh-ap-nowrap">{shortDateTime(session.createdAt)}</td>
                      {canWrite && (
                        <td>
                          {!session.current && (
                            <button type="button" className="gh-ap-link gh-ap-link-danger" aria-label={`Sign out ${device}, signed in ${shortDateTime(session.createdAt)}`} onClick={() => setDialog({ kind: 'one', session })}>
                              Sign out
                            </button>
                          )}
                        </td>
                      )}
                    </tr>
                  );
                })}
                {(loading && !sessions) || (!loading && (sessions?.length ?? 0) === 0) ? (
                  <tr>
                    <td colSpan={columns}>
                      <div className="gh-ap-table-empty">
                        {loading && !sessions ? (<><span className="gh-ap-spinner" aria-hidden="true" /> Loading sessions…</>) : 'No active sessions'}
                      </div>
                    </td>
                  </tr>
                ) : null}
              </tbody>
            </table>
          </div>
        )}
      </div>

      {dialog?.kind === 'one' && (
        <DeleteDialog
          title="Sign out this session"
          confirmLabel="Sign out"
          text={`${describeUserAgent(dialog.session.userAgent)} (${dialog.session.ipAddress ?? 'unknown IP address'}) will be signed out and must sign in again.`}
          onClose={closeDialog}
          run={async () => {
            await privacy.revokeSession(dialog.session.id);
            await load();
            setDialog(null);
            setNotice('Session signed out');
          }}
        />
      )}
      {dialog?.kind === 'others' && (
        <DeleteDialog
          title="Sign out of all other sessions"
          confirmLabel="Sign out all"
          text={`${dialog.count} other ${dialog.count === 1 ? 'session' : 'sessions'} will be signed out and must sign in again. This browser stays signed in.`}
          onClose={closeDialog}
          run={async () => {
            const { revoked } = await privacy.revokeOtherSessions();
            await load();
            setDialog(null);
            setNotice(`${revoked} ${revoked === 1 ? 'session' : 'sessions'} signed out`);
          }}
        />
      )}
    </section>
  );
}
