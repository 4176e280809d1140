import type { ReactNode } from 'react';

/** A row's action button; view-only (the host's field visibility) shows it disabled. */
export function RowAction({ label, children, onClick, danger = false, viewOnly = false }: { label: string; children: ReactNode; onClick: () => void; danger?: boolean; viewOnly?: boolean }) {
  return (
    <button type="button" className={danger ? 'gh-ap-link gh-ap-link-danger' : 'gh-ap-link'} aria-label={label} disabled={viewOnly} onClick={onClick}>
      {children}
    </button>
  );
}
