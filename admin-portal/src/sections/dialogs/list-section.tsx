import { useEffect, useRef, useState, type ReactNode } from 'react';
import { adoptCss } from '../../host-styles';
import { useErrorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';
import { Toast } from '../../toast';
import { TableSkeleton } from '../users/users-table';
import { useInertWhile } from './use-inert';
import { useLatestLoad } from './use-latest-load';

/**
 * The state of a section that lists one kind of thing and edits it in dialogs (Roles, Groups): the
 * list (the newest load wins; a failed load shows its error and empties the list), the open dialog
 * (the list behind it inert), and the notice that announces a finished change.
 */
export function useListSection<T, D>(fetchList: () => Promise<T>, css: string) {
  const [dialog, setDialog] = useState<D | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const sectionRef = useRef<HTMLElement>(null);
  const behindRef = useRef<HTMLDivElement>(null);
  const toError = useErrorText();

  useEffect(() => (sectionRef.current ? adoptCss(sectionRef.current, css) : undefined), [css]);
  useInertWhile(behindRef, dialog !== null);
  const { data, loading, error, setError, reload: load } = useLatestLoad(fetchList, toError);

  return {
    data,
    loading,
    error,
    setError,
    dialog,
    notice,
    setNotice,
    sectionRef,
    behindRef,
    /** Opens a dialog (clearing the last notice). */
    open: (next: D) => {
      setNotice(null);
      setDialog(next);
    },
    close: () => setDialog(null),
    /** Loads the list again (the newest load wins), leaving the dialog as it is. */
    reload: load,
    /** After a change: the dialog stays (busy) until the list shows it, then closes and `message` is announced. */
    finish: async (message: string) => {
      await load();
      setDialog(null);
      setNotice(message);
    },
  };
}

export type ListSectionState = Pick<ReturnType<typeof useListSection>, 'loading' | 'error' | 'notice' | 'sectionRef' | 'behindRef'>;

/**
 * The frame of such a section: heading with the section's buttons, the notice (a toast), the load
 * error, a table of `items` (the cells `row` renders, then the `actions` cell, a "⋯" menu, when
 * given) with its skeleton while loading and its empty state saying what to do next, and the open
 * dialog after the inert part. Cells carry their column's name for the stacked cards of small screens.
 */
export function ListSection<T extends { id: string }>({ state, title, headingId, buttons, note, caption, columns, items, empty, row, actions, dialogs }: {
  state: ListSectionState;
  title: string;
  headingId: string;
  buttons: ReactNode;
  /** A line above the table that explains something about the list (e.g. why some rows are read-only). */
  note?: ReactNode;
  caption: string;
  /** Column titles, the row header's first. */
  columns: string[];
  items: T[] | null;
  /** What an empty list tells the admin to do next. */
  empty: string;
  /** The cells of one row: a `<th scope="row">`, then `<td data-label>`s. */
  row: (item: T) => ReactNode;
  /** The actions cell of a row; no actions column at all when not given. */
  actions?: (item: T) => ReactNode;
  dialogs: ReactNode;
}) {
  const t = useT();
  const { loading, error, notice, sectionRef, behindRef } = state;
  const width = columns.length + (actions ? 1 : 0);
  return (
    <section ref={sectionRef} className="gh-ap-section gh-ap-section-wide" aria-labelledby={headingId}>
      <div ref={behindRef} className="gh-ap-users">
        <div className="gh-ap-users-head">
          <h2 id={headingId} className="gh-ap-section-title">{title}</h2>
          {buttons}
        </div>
        <Toast message={notice} />
        {error && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error}</p>}
        {note && <p className="gh-ap-hint">{note}</p>}
        <div className="gh-ap-table-wrap">
          <table className="gh-ap-table" aria-busy={loading}>
            <caption className="gh-ap-visually-hidden">{caption}</caption>
            <thead>
              <tr>
                {columns.map((column) => (
                  <th key={column} scope="col">{column}</th>
                ))}
                {actions && <th scope="col" className="gh-ap-cell-actions"><span className="gh-ap-visually-hidden">{t.t('common.actions')}</span></th>}
              </tr>
            </thead>
            <tbody>
              {items?.map((item) => (
                <tr key={item.id}>
                  {row(item)}
                  {actions && <td className="gh-ap-cell-actions">{actions(item)}</td>}
                </tr>
              ))}
              {!loading && (items?.length ?? 0) === 0 ? (
                <tr>
                  <td colSpan={width}>
                    <p className="gh-ap-table-empty">{empty}</p>
                  </td>
                </tr>
              ) : null}
            </tbody>
          </table>
          {loading && !items && <TableSkeleton />}
        </div>
      </div>
      {dialogs}
    </section>
  );
}
