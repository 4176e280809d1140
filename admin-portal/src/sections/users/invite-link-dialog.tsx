import { useEffect, useId, useState, type FormEvent } from 'react';
import { INVITE_LINK_DEFAULT_EXPIRY_MINUTES } from '@gatehouse/shared/admin-paths';
import type { InviteLink } from '@gatehouse/shared/wire';
import { Modal } from './modal';
import type { UsersApi } from './users-api';
import { shortDateTime } from '../../format';
import { errorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';
import { TableSkeleton } from './users-table';

/** Minutes in a day: the link's expiry is asked in days and sent in minutes (seed 001 section 5, days times 1440). */
export const MINUTES_PER_DAY = 1440;
/** The server's upper bound for expiresInMinutes is a year. */
const MAX_DAYS = 365;
const DEFAULT_DAYS = String(Math.round(INVITE_LINK_DEFAULT_EXPIRY_MINUTES / MINUTES_PER_DAY));

/** The minutes of a whole number of days from 1 to 365, or null. */
export function inviteLinkMinutes(days: string): number | null {
  const value = days.trim();
  if (!/^\d+$/.test(value)) return null;
  const count = Number(value);
  return count >= 1 && count <= MAX_DAYS ? count * MINUTES_PER_DAY : null;
}

type Api = Pick<UsersApi, 'inviteLink' | 'createInviteLink' | 'updateInviteLink' | 'deleteInviteLink'>;

/**
 * The tenant's invite link (seed 001 sections 3 and 9): anyone with the URL may join the account
 * until it expires. Shows the URL with Copy and its expiry; creates one when there is none (default
 * 30 days, the seed's 43200 minutes), sets a new expiry (days from now, same URL), or deletes it
 * after a confirmation (it stops working at once).
 */
export function InviteLinkDialog({ api, onClose, onChanged }: { api: Api; onClose: () => void; onChanged: (message: string) => void }) {
  const t = useT();
  const [link, setLink] = useState<InviteLink | null | undefined>(undefined);
  const [days, setDays] = useState(DEFAULT_DAYS);
  const [daysError, setDaysError] = useState<string | null>(null);
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
      (thrown) => live && setLoadError(errorText(t, thrown)),
    );
    return () => {
      live = false;
    };
  }, [api, t]);

  async function run(work: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (thrown) {
      setError(errorText(t, thrown));
    } finally {
      setBusy(false);
    }
  }

  function readMinutes(): number | null {
    const value = inviteLinkMinutes(days);
    setDaysError(value === null ? t.t('users.inviteLinkDialog.daysInvalid', { max: MAX_DAYS }) : null);
    return value;
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const value = readMinutes();
    if (value === null) return;
    void run(async () => {
      if (link) {
        setLink(await api.updateInviteLink(value));
        onChanged(t.t('users.inviteLinkDialog.saved'));
      } else {
        setLink(await api.createInviteLink(value));
        onChanged(t.t('users.inviteLinkDialog.created'));
      }
    });
  }

  async function copy(url: string) {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(t.t('users.inviteLinkDialog.copied'));
    } catch {
      setCopied(t.t('users.inviteLinkDialog.copyFailed'));
    }
  }

  return (
    <Modal title={t.t('users.inviteLink')} onClose={onClose} busy={busy}>
      {loadError && (
        <>
          <p className="gh-ap-banner gh-ap-banner-error" role="alert">{loadError}</p>
          <div className="gh-ap-modal-actions">
            <button type="button" className="gh-ap-button-secondary" onClick={onClose} data-autofocus>{t.t('common.close')}</button>
          </div>
        </>
      )}
      {link === undefined && !loadError && (
        <div aria-busy="true">
          <p className="gh-ap-visually-hidden" role="status">{t.t('users.inviteLinkDialog.loading')}</p>
          <TableSkeleton rows={2} />
        </div>
      )}
      {link === null && <p className="gh-ap-modal-text">{t.t('users.inviteLinkDialog.none')}</p>}
      {link && (
        <>
          <div className="gh-ap-field">
            <label className="gh-ap-label" htmlFor={`${ids}-url`}>{t.t('users.inviteLinkDialog.link')}</label>
            <div className="gh-ap-copy-row">
              <input id={`${ids}-url`} className="gh-ap-input" type="text" readOnly value={link.url} onFocus={(event) => event.currentTarget.select()} />
              <button type="button" className="gh-ap-button-secondary" onClick={() => void copy(link.url)} data-autofocus>{t.t('common.copy')}</button>
            </div>
            <p className="gh-ap-hint" role="status">{copied ?? ''}</p>
          </div>
          <p className="gh-ap-modal-text">{t.t('users.inviteLinkDialog.expires', { date: shortDateTime(t, link.expires) })}</p>
        </>
      )}
      {link !== undefined && !confirmDelete && (
        <form className="gh-ap-form" onSubmit={submit} noValidate>
          <div className="gh-ap-field">
            <label className="gh-ap-label" htmlFor={`${ids}-days`}>{t.t(link ? 'users.inviteLinkDialog.newExpiry' : 'users.inviteLinkDialog.expiresIn')}</label>
            <input
              id={`${ids}-days`}
              className="gh-ap-input"
              type="number"
              inputMode="numeric"
              min={1}
              max={MAX_DAYS}
              value={days}
              disabled={busy}
              aria-invalid={daysError ? true : undefined}
              aria-describedby={daysError ? `${ids}-days-hint ${ids}-days-error` : `${ids}-days-hint`}
              {...(link ? {} : { 'data-autofocus': true })}
              onChange={(event) => {
                setDays(event.target.value);
                setDaysError(null);
              }}
            />
            <p id={`${ids}-days-hint`} className="gh-ap-hint">{t.t('users.inviteLinkDialog.daysHint', { max: MAX_DAYS })}</p>
            {daysError && <p id={`${ids}-days-error`} className="gh-ap-field-error" role="alert">{daysError}</p>}
          </div>
          {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
          <div className="gh-ap-modal-actions">
            {link && <button type="button" className="gh-ap-button-secondary gh-ap-push-left" disabled={busy} onClick={() => setConfirmDelete(true)}>{t.t('users.inviteLinkDialog.delete')}</button>}
            <button type="button" className="gh-ap-button-secondary" onClick={onClose} disabled={busy}>{t.t('common.close')}</button>
            <button type="submit" className="gh-ap-button" disabled={busy} aria-busy={busy}>
              {busy && <span className="gh-ap-spinner" aria-hidden="true" />}
              {t.t(link ? 'users.inviteLinkDialog.saveExpiry' : 'users.inviteLinkDialog.create')}
            </button>
          </div>
        </form>
      )}
      {link && confirmDelete && (
        <>
          <p className="gh-ap-modal-text" role="alert">{t.t('users.inviteLinkDialog.confirmDelete')}</p>
          {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
          <div className="gh-ap-modal-actions">
            <button type="button" className="gh-ap-button-secondary" onClick={() => setConfirmDelete(false)} disabled={busy}>{t.t('users.inviteLinkDialog.keep')}</button>
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
                  setDays(DEFAULT_DAYS);
                  onChanged(t.t('users.inviteLinkDialog.deleted'));
                })
              }
            >
              {busy && <span className="gh-ap-spinner" aria-hidden="true" />}
              {t.t('users.inviteLinkDialog.delete')}
            </button>
          </div>
        </>
      )}
    </Modal>
  );
}
