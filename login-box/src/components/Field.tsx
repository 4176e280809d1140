import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  hint?: ReactNode;
  /** The field's own error, shown under it; the input is then aria-invalid and described by it. */
  error?: string | null;
  /** Rendered inside the input's box at its end (e.g. the show/hide toggle of a password). */
  addon?: ReactNode;
  /** Rendered under the hint (e.g. the password policy and strength), and described by `describedBy`. */
  children?: ReactNode;
  /** Ids of elements in `children` that describe the input too. */
  describedBy?: string;
  inputRef?: Ref<HTMLInputElement>;
}

/** A labelled input; its error and hint are tied to it with aria-describedby. */
export function Field({ label, hint, error, addon, children, describedBy, inputRef, id: givenId, ...input }: FieldProps) {
  const generated = useId();
  const id = givenId ?? generated;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describers = [error ? errorId : null, hint ? hintId : null, describedBy ?? null].filter(Boolean).join(' ');
  // Emails, phone numbers and codes read left to right in every language (Hebrew included).
  const ltr = input.type === 'email' || input.type === 'tel' || input.autoComplete === 'one-time-code';
  const field = <input id={id} ref={inputRef} aria-invalid={error ? true : undefined} aria-describedby={describers || undefined} dir={ltr ? 'ltr' : undefined} {...input} />;
  return (
    <div className="gh-field">
      <label htmlFor={id}>{label}</label>
      {addon ? (
        <div className="gh-input-wrap">
          {field}
          {addon}
        </div>
      ) : (
        field
      )}
      {error ? (
        <p id={errorId} className="gh-field-error">
          {error}
        </p>
      ) : null}
      {hint ? (
        <p id={hintId} className="gh-hint">
          {hint}
        </p>
      ) : null}
      {children}
    </div>
  );
}
