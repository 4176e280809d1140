import { useId, useRef, useState, type FormEvent } from 'react';
import { RestrictionStrategies, type RestrictionStrategy } from '@gatehouse/shared/admin-paths';
import type { IpRestriction } from '@gatehouse/shared/wire';
import { DEFAULT_LOCALE } from '../../contract';
import { errorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';
import { DialogFooter } from '../dialogs/dialog-footer';
import { TextField } from '../dialogs/text-field';
import { useRefocusOnError } from '../dialogs/refocus';
import { Modal } from '../users/modal';
import { fieldError, isSelfLockout } from './restriction-errors';
import type { IpEntryInput } from './restrictions-api';

const MAX_DESCRIPTION = 200;

/**
 * Add or edit one IP entry (an address or a CIDR range, its description, strategy and whether it is
 * active). The server validates the address; its 400 shows under the field it names. When the save
 * would shut out the admin's own address (409), the dialog asks first and resends with
 * confirmSelfLockout only when the admin says so.
 */
export function IpEntryDialog({ entry, myIp, save, onClose }: {
  /** The entry being edited, or null to add one. */
  entry: IpRestriction | null;
  /** The caller's address as the server sees it, when known (named in the lockout question). */
  myIp: string | null;
  save: (input: IpEntryInput, confirmSelfLockout: boolean) => Promise<void>;
  onClose: () => void;
}) {
  const t = useT();
  const ids = useId();
  const [input, setInput] = useState<IpEntryInput>({
    ip: entry?.ip ?? '',
    description: entry?.description ?? '',
    strategy: entry?.strategy ?? 'ALLOW',
    isActive: entry?.isActive ?? true,
  });
  const [problems, setProblems] = useState<{ ip?: string; description?: string }>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useRefocusOnError(error, busy, ref);

  const set = (patch: Partial<IpEntryInput>) => {
    setInput((current) => ({ ...current, ...patch }));
    setProblems((current) => ({ ...current, ...Object.fromEntries(Object.keys(patch).map((k) => [k, undefined])) }));
  };

  async function attempt(confirmSelfLockout: boolean) {
    setBusy(true);
    setError(null);
    try {
      await save(input, confirmSelfLockout);
    } catch (thrown) {
      setBusy(false);
      if (!confirmSelfLockout && isSelfLockout(thrown)) {
        setConfirming(true);
        return;
      }
      setConfirming(false);
      const named = fieldError(thrown, ['ip', 'description'] as const);
      if (named) {
        // The API answers English; in another language the field's own sentence says the same.
        const message = t.locale === DEFAULT_LOCALE ? named.message : t.t(named.field === 'ip' ? 'restrictions.ip.invalid' : 'restrictions.ip.descriptionTooLong', { max: MAX_DESCRIPTION });
        setProblems({ [named.field]: message });
      } else {
        setError(errorText(t, thrown));
      }
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const found: typeof problems = {};
    if (!input.ip.trim()) found.ip = t.t('restrictions.ip.missing');
    if (input.description.trim().length > MAX_DESCRIPTION) found.description = t.t('restrictions.ip.descriptionTooLong', { max: MAX_DESCRIPTION });
    setProblems(found);
    if (found.ip || found.description) return;
    void attempt(false);
  }

  const title = t.t(entry ? 'restrictions.ip.editTitle' : 'restrictions.ip.addTitle');
  return (
    <Modal title={confirming ? t.t('restrictions.lockout.title') : title} onClose={onClose} busy={busy}>
      <div ref={ref} className="gh-ap-form">
        {confirming ? (
          <>
            <p className="gh-ap-modal-text" role="alert">{myIp ? t.t('restrictions.lockout.textIp', { ip: myIp }) : t.t('restrictions.lockout.text')}</p>
            {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
            <div className="gh-ap-modal-actions">
              <button type="button" className="gh-ap-button-secondary" disabled={busy} data-autofocus onClick={() => setConfirming(false)}>{t.t('restrictions.lockout.back')}</button>
              <button type="button" className="gh-ap-button gh-ap-button-danger" disabled={busy} aria-busy={busy} onClick={() => void attempt(true)}>
                {busy && <span className="gh-ap-spinner" aria-hidden="true" />}
                {t.t('restrictions.lockout.confirm')}
              </button>
            </div>
          </>
        ) : (
          <form className="gh-ap-form" onSubmit={submit} noValidate>
            <TextField id={`${ids}-ip`} label={t.t('restrictions.ip.column.ip')} value={input.ip} onChange={(ip) => set({ ip })} busy={busy} problem={problems.ip} autofocus code hint={t.t('restrictions.ip.ipHint')} />
            <TextField id={`${ids}-description`} label={t.t('restrictions.ip.column.description')} value={input.description} onChange={(description) => set({ description })} busy={busy} problem={problems.description} />
            <fieldset className="gh-ap-fieldset" disabled={busy}>
              <legend className="gh-ap-label">{t.t('restrictions.ip.column.strategy')}</legend>
              {RestrictionStrategies.map((strategy: RestrictionStrategy) => (
                <label key={strategy} className="gh-ap-check" htmlFor={`${ids}-strategy-${strategy}`}>
                  <input id={`${ids}-strategy-${strategy}`} type="radio" name={`${ids}-strategy`} checked={input.strategy === strategy} onChange={() => set({ strategy })} />
                  <span>{t.t(`restrictions.strategy.${strategy}`)}</span>
                </label>
              ))}
            </fieldset>
            <label className="gh-ap-check" htmlFor={`${ids}-active`}>
              <input id={`${ids}-active`} type="checkbox" checked={input.isActive} disabled={busy} onChange={(e) => set({ isActive: e.target.checked })} />
              <span>{t.t('restrictions.ip.activeLabel')}</span>
            </label>
            <DialogFooter error={error} busy={busy} label={t.t(entry ? 'common.save' : 'restrictions.ip.add')} onClose={onClose} />
          </form>
        )}
      </div>
    </Modal>
  );
}
