import type { ReactNode } from 'react';

/**
 * One labelled text input of a dialog form, with its error (announced, and tied to the input by
 * aria-describedby). `extra` sits next to the input (e.g. a color picker).
 */
export function TextField({ id, label, value, onChange, busy, problem, autofocus = false, code = false, placeholder, extra, type = 'text', autoComplete = 'off', hint }: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  busy: boolean;
  problem?: string;
  autofocus?: boolean;
  /** A key or code: no spell check. */
  code?: boolean;
  placeholder?: string;
  extra?: ReactNode;
  type?: 'text' | 'password' | 'email' | 'tel';
  autoComplete?: string;
  /** A line under the input that says what it takes. */
  hint?: string;
}) {
  const input = (
    <input
      id={id}
      className="gh-ap-input"
      type={type}
      value={value}
      placeholder={placeholder}
      autoComplete={autoComplete}
      spellCheck={code ? false : undefined}
      disabled={busy}
      {...(autofocus ? { 'data-autofocus': true } : {})}
      aria-invalid={problem === undefined ? undefined : Boolean(problem)}
      aria-describedby={[hint ? `${id}-hint` : '', problem ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined}
      onChange={(e) => onChange(e.target.value)}
    />
  );
  return (
    <div className="gh-ap-field">
      <label className="gh-ap-label" htmlFor={id}>{label}</label>
      {extra ? <div className="gh-ap-color">{input}{extra}</div> : input}
      {hint && <p id={`${id}-hint`} className="gh-ap-hint">{hint}</p>}
      {problem && <p id={`${id}-error`} className="gh-ap-field-error" role="alert">{problem}</p>}
    </div>
  );
}
