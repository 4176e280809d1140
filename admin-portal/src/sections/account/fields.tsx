import type { ReactNode } from 'react';
import { Combobox } from '../../controls/combobox';
import { useT } from '../../i18n/i18n-context';
import { Toast } from '../../toast';
import type { FieldVisibility } from '../../options';
import type { Choice } from './account-form';

interface FieldProps {
  id: string;
  label: string;
  mode: FieldVisibility;
  error?: string;
  hint?: string;
}

function describedBy(id: string, error?: string, hint?: string): string | undefined {
  return [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
}

function Messages({ id, error, hint }: { id: string; error?: string; hint?: string }) {
  return (
    <>
      {hint && <p id={`${id}-hint`} className="gh-ap-hint">{hint}</p>}
      {error && <p id={`${id}-error`} className="gh-ap-field-error">{error}</p>}
    </>
  );
}

/** A labelled text input; view-only is a read-only input (still focusable and copyable). */
export function TextField({ id, label, mode, error, hint, value, onChange, type = 'text', autoComplete, maxLength, placeholder }: FieldProps & { value: string; onChange: (value: string) => void; type?: 'text' | 'url'; autoComplete?: string; maxLength: number; placeholder?: string }) {
  if (mode === 'hidden') return null;
  return (
    <div className="gh-ap-field">
      <label className="gh-ap-label" htmlFor={id}>{label}</label>
      <input
        id={id}
        className="gh-ap-input"
        type={type}
        value={value}
        readOnly={mode === 'viewOnly'}
        autoComplete={autoComplete}
        maxLength={maxLength}
        placeholder={mode === 'viewOnly' ? undefined : placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        onChange={(event) => onChange(event.target.value)}
      />
      <Messages id={id} error={error} hint={hint} />
    </div>
  );
}

/** A labelled picker; view-only shows the chosen option's label in a read-only input. */
export function SelectField({ id, label, mode, error, hint, value, choices, onChange }: FieldProps & { value: string; choices: readonly Choice[]; onChange: (value: string) => void }) {
  if (mode === 'hidden') return null;
  const chosen = choices.find((c) => c.value === value)?.label ?? value;
  return (
    <div className="gh-ap-field">
      <label className="gh-ap-label" htmlFor={id}>{label}</label>
      {mode === 'viewOnly' ? (
        <input id={id} className="gh-ap-input" type="text" value={chosen} readOnly aria-describedby={describedBy(id, error, hint)} />
      ) : (
        <select id={id} className="gh-ap-select" value={value} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, error, hint)} onChange={(event) => onChange(event.target.value)}>
          {choices.map((choice) => (
            <option key={choice.value} value={choice.value}>{choice.label}</option>
          ))}
        </select>
      )}
      <Messages id={id} error={error} hint={hint} />
    </div>
  );
}

/** A labelled searchable picker (time zone, currency); view-only shows the chosen option's label read-only. */
export function ComboboxField({ id, label, mode, error, hint, value, choices, onChange }: FieldProps & { value: string; choices: readonly Choice[]; onChange: (value: string) => void }) {
  if (mode === 'hidden') return null;
  const chosen = choices.find((c) => c.value === value)?.label ?? value;
  return (
    <div className="gh-ap-field">
      <label className="gh-ap-label" htmlFor={id}>{label}</label>
      {mode === 'viewOnly' ? (
        <input id={id} className="gh-ap-input" type="text" value={chosen} readOnly aria-describedby={describedBy(id, error, hint)} />
      ) : (
        <Combobox id={id} label={label} value={value} options={choices} onChange={onChange} describedBy={describedBy(id, error, hint)} invalid={Boolean(error)} />
      )}
      <Messages id={id} error={error} hint={hint} />
    </div>
  );
}

/** The Save row: saving state on the button, a server error in an alert, and the outcome as a toast. */
export function SaveRow({ saving, status, banner, canSave, children }: { saving: boolean; status: string; banner: string | null; canSave: boolean; children?: ReactNode }) {
  const t = useT();
  return (
    <>
      {banner && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{banner}</p>}
      <div className="gh-ap-actions">
        {canSave && (
          <button type="submit" className="gh-ap-button" disabled={saving} aria-busy={saving}>
            {saving && <span className="gh-ap-spinner" aria-hidden="true" />}
            {t.t(saving ? 'account.saving' : 'common.save')}
          </button>
        )}
        {children}
        <Toast message={status || null} />
      </div>
    </>
  );
}
