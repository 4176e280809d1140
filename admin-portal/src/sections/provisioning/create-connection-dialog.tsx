import { useId, useState, type FormEvent } from 'react';
import type { ScimSource } from '@gatehouse/shared/admin-paths';
import { useT } from '../../i18n/i18n-context';
import { DialogFooter } from '../dialogs/dialog-footer';
import { useSave } from '../dialogs/use-save';
import { Modal } from '../users/modal';
import { SOURCE_CHOICES, SOURCE_LABELS } from './sources';

/**
 * "Add connection": where the users will come from (Okta, Microsoft Entra ID, another identity
 * provider, or the tenant's own SCIM client). Nothing is chosen at first, so the admin picks on
 * purpose; the token dialog follows.
 */
export function CreateConnectionDialog({ save, onClose }: { save: (source: ScimSource) => Promise<void>; onClose: () => void }) {
  const t = useT();
  const ids = useId();
  const [source, setSource] = useState<ScimSource | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const { busy, error, run } = useSave();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!source) {
      setProblem(t.t('provisioning.create.sourceMissing'));
      return;
    }
    await run(() => save(source));
  }

  return (
    <Modal title={t.t('provisioning.create.title')} onClose={onClose} busy={busy}>
      <form className="gh-ap-form" onSubmit={submit} noValidate>
        <p className="gh-ap-modal-text">{t.t('provisioning.create.text')}</p>
        <fieldset className="gh-ap-fieldset" disabled={busy} aria-describedby={problem ? `${ids}-error` : undefined} aria-invalid={problem ? true : undefined}>
          <legend className="gh-ap-label">{t.t('provisioning.create.source')}</legend>
          {SOURCE_CHOICES.map((choice, index) => (
            <label key={choice} className="gh-ap-check gh-ap-scim-choice" htmlFor={`${ids}-${choice}`}>
              <input
                id={`${ids}-${choice}`}
                type="radio"
                name={`${ids}-source`}
                value={choice}
                checked={source === choice}
                {...(index === 0 ? { 'data-autofocus': true } : {})}
                onChange={() => {
                  setSource(choice);
                  setProblem(null);
                }}
              />
              <span>
                {t.t(SOURCE_LABELS[choice].name)}
                <span className="gh-ap-hint gh-ap-scim-choice-hint">{t.t(SOURCE_LABELS[choice].hint)}</span>
              </span>
            </label>
          ))}
          {problem && <p id={`${ids}-error`} className="gh-ap-field-error" role="alert">{problem}</p>}
        </fieldset>
        <DialogFooter error={error} busy={busy} label={t.t('provisioning.create.confirm')} onClose={onClose} />
      </form>
    </Modal>
  );
}
