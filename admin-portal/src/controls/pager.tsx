import { useT } from '../i18n/i18n-context';

/**
 * Previous / "page N of M" / Next under a paged table, with an optional summary (e.g. "42 users")
 * at the start. `busy` disables both buttons while a page loads; the page number is announced.
 */
export function Pager({ label, summary = '', page, pages, busy = false, onPage }: {
  /** The navigation's accessible name, e.g. "Users pages". */
  label: string;
  summary?: string;
  /** Zero-based. */
  page: number;
  pages: number;
  busy?: boolean;
  onPage: (page: number) => void;
}) {
  const t = useT();
  return (
    <nav className="gh-ap-pager" aria-label={label}>
      <span>{summary}</span>
      <button type="button" className="gh-ap-button-secondary" disabled={page === 0 || busy} onClick={() => onPage(page - 1)}>{t.t('common.previous')}</button>
      <span aria-live="polite">{t.t('common.pageOf', { page: page + 1, pages })}</span>
      <button type="button" className="gh-ap-button-secondary" disabled={page + 1 >= pages || busy} onClick={() => onPage(page + 1)}>{t.t('common.next')}</button>
    </nav>
  );
}
