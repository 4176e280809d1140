import type { ReactNode } from 'react';

/** The form's primary button: disabled with a spinner and aria-busy while its call runs. */
export function SubmitButton({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <button type="submit" className="gh-button" disabled={busy} aria-busy={busy}>
      {busy ? <span className="gh-spinner" aria-hidden="true" /> : null}
      <span>{children}</span>
    </button>
  );
}
