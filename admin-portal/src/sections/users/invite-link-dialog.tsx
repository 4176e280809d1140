import { useEffect, useId, useState, type FormEvent } from 'react';
import { INVITE_LINK_DEFAULT_EXPIRY_MINUTES } from '@gatehouse/shared/admin-paths';
import type { InviteLink } from '@gatehouse/shared/wire';
import { Modal } from './modal';
import type { UsersApi } from './users-api';
import { errorMessage } from './users-format';

/** The server's bounds for expiresInMinutes (a minute to a year). */
const MAX_MINUTES = 525_600;

function longDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
}

type Api = Pick<UsersApi, 'inviteLink' | 'createInviteLink' | 'updateInviteLink' | 'deleteInviteLink'>;

/**
 * The tenant's invite link (seed 001 sections 3 and 9): anyone with the URL may join the account
 * until it expires. Shows the URL with Copy and its expiry; creates one when there is none (default
 * 43200 minutes, 30 days), sets a new expiry (minutes from now, same URL), or deletes it after a
 * confirmation (it stops working at once).
 */
export function InviteLinkDialog({ api, onClose, onChanged }: { api: Api; onClose: () => void; onChanged: (message: string) => void }) {
  const [link, setLink] = useState<InviteLink | null | undefined>(undefined);
  const [minutes, setMinutes] = useState(String(INVITE_LINK_DEFAULT_EXPIRY_MINUTES));
  const [minutesError, setMinutesError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [copied, setCopied] = useState<string | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const ids = useId();

  useEffect(() => {
    let live = true;
    api.inviteLink().then(
      (found) => live && setLink(found),
      (thrown) => live && setLoadError(errorMessage(thrown)),
    );
    return () => {
      live = false;
    };
  }, [api]);

  async function run(work: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (thrown) {
      setError(errorMessage(thrown));
    } finally {
      setBusy(false);
    }
  }

  function readMinutes(): number | null {
    const value = Number(minutes.trim());
    if (!/^\d+$/.test(minutes.trim()) || value < 1 || value > MAX_MINUTES) {
      setMinutesError(`Enter a whole number of minutes from 1 to ${MAX_MINUTES}`);
      return null;
    }
    setMinutesError(null);
    return value;
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const value = readMinutes();
    if (value === null) return;
    void run(async () => {
      if (link) {
        setLink(await api.updateInviteLink(value));
        onChanged('Invite link expiry saved');
      } else {
        setLink(await api.createInviteLink(value));
        onChanged('Invite link created');
      }
    });
  }

  async function copy(url: string) {
    try {
      await navigator.clipboard.writeText(url);
      setCopied('Link copied');
    } catch {
      setCopied('Copy failed: select the link and copy it');
    }
  }

  return (
    <Modal title="Invite link" onClose={onClose} busy={busy}>
      {loadError && (
        <>
          <p className="gh-ap-banner gh-ap-banner-error" role="alert">{loadError}</p>
          <div className="gh-ap-modal-actions">
            <button type="button" className="gh-ap-button-secondary" onClick={onClose} data-autofocus>Close</button>
          </div>
        </>
      )}
      {link === undefined && !loadError && (
        <p className="gh-ap-loading"><span className="gh-ap-spinner" aria-hidden="true" /> Loading the invite link…</p>
      )}
      {link === null && <p className="gh-ap-modal-text">This account has no invite link. Create one to let anyone with the link join the account.</p>}
      {link && (
        <>
          <div className="gh-ap-field">
            <label className="gh-ap-label" htmlFor={`${ids}-url`}>Link</label>
            <div className="gh-ap-copy-row">
              <input id={`${ids}-url`} className="gh-ap-input" type="text" readOnly value={link.url} onFocus={(event) => event.currentTarget.select()} />
              <button type="button" className="gh-ap-button-secondary" onClick={() => void copy(link.url)} data-autofocus>Copy</button>
            </div>
            <p className="gh-ap-hint" role="status">{copied ?? ''}</p>
          </div>
          <p className="gh-ap-modal-text">Expires {longDate(link.expires)}</p>
        </>
      )}
      {link !== undefined && !confirmDelete && (
        <form className="gh-ap-form" onSubmit={submit} noValidate>
          <div className="gh-ap-field">
            <label className="gh-ap-label" htmlFor={`${ids}-minutes`}>{link ? 'New expiry, in minutes from now' : 'Expires in (minutes)'}</label>
            <input
              id={`${ids}-minutes`}
              className="gh-ap-input"
              type="number"
              inputMode="numeric"
              min={1}
              max={MAX_MINUTES}
              value={minutes}
              disabled={busy}
              aria-invalid={minutesError ? true : undefined}
              aria-describedby={minutesError ? `${ids}-minutes-error` : undefined}
              {...(link ? {} : { 'data-autofocus': true })}
              onChange={(event) => {
                setMinutes(event.target.value);
                setMinutesError(null);
              }}
            />
            {minutesError && <p id={`${ids}-minutes-error`} className="gh-ap-field-error" role="alert">{minutesError}</p>}
          </div>
          {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
          <div className="gh-ap-modal-actions">
            {link && <button type="button" className="gh-ap-button-secondary gh-ap-push-left" disabled={busy} onClick={() => setConfirmDelete(true)}>Delete link</button>}
            <button type="button" className="gh-ap-button-secondary" onClick={onClose} disabled={busy}>Close</button>
            <button type="submit" className="gh-ap-button" disabled={busy} aria-busy={busy}>
              {busy && <span className="gh-ap-spinner" aria-hidden="true" />}
              {link ? 'Save expiry' : 'Create link'}
            </button>
          </div>
        </form>
      )}
      {link && confirmDelete && (
        <>
          <p className="gh-ap-modal-text" role="alert">Delete the invite link? It stops working at once; people who have it can no longer join.</p>
          {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
          <div className="gh-ap-modal-actions">
            <button type="button" className="gh-ap-button-secondary" onClick={() => setConfirmDelete(false)} disabled={busy}>Keep link</button>
            <button
              type="button"
              className="gh-ap-button gh-ap-button-danger"
              disabled={busy}
              aria-busy={busy}
              onClick={() =>
                void run(async () => {
                  await api.deleteInviteLink();
                  setLink(null);
                  setConfirmDelete(false);
                  setMinutes(String(INVITE_LINK_DEFAULT_EXPIRY_MINUTES));
                  onChanged('Invite link deleted');
                })
              }
            >
              {busy && <span className="gh-ap-spinner" aria-hidden="true" />}
              Delete link
            </button>
          </div>
        </>
      )}
    </Modal>
  );
}
