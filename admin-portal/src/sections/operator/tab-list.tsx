import { useRef, useState, type ReactNode } from 'react';
import { useErrorText } from '../../i18n/errors';
import { useT } from '../../i18n/i18n-context';
import { Toast } from '../../toast';
import { useInertWhile } from '../dialogs/use-inert';
import { useLatestLoad } from '../dialogs/use-latest-load';
import { TableSkeleton } from '../users/users-table';

/**
 * The state of an Operator tab that lists one kind of thing and edits it in dialogs: the newest
 * load wins, the list behind an open dialog is inert, and a finished change is announced.
 * `fetchList` must be stable (useCallback).
 */
export function useTabList<T, D>(fetchList: () => Promise<T>) {
  const toError = useErrorText();
  const [dialog, setDialog] = useState<D | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const behindRef = useRef<HTMLDivElement>(null);
  useInertWhile(behindRef, dialog !== null);
  const { data, loading, error, reload } = useLatestLoad(fetchList, toError);
  return {
    data,
    loading,
    error,
    dialog,
    notice,
    actionError,
    behindRef,
    open: (next: D) => {
      setNotice(null);
      setActionError(null);
      setDialog(next);
    },
    close: () => setDialog(null),
    /** A change made without a dialog (a row action): announced when done, its error shown above the list. */
    act: async (change: () => Promise<void>, message: string) => {
      setNotice(null);
      setActionError(null);
      try {
        await change();
        await reload();
        setNotice(message);
      } catch (thrown) {
        setActionError(toError(thrown));
      }
    },
    /** After a change: the dialog stays (busy) until the list shows it, then closes and `message` is announced. */
    finish: async (message: string) => {
      await reload();
      setDialog(null);
      setNotice(message);
    },
  };
}

export type TabListState = Pick<ReturnType<typeof useTabList>, 'loading' | 'error' | 'notice' | 'actionError' | 'behindRef'>;

/**
 * The frame of such a tab: its intro and button, the notice, the load error, a table (skeleton while
 * loading, an empty state that says what to do next) whose cells carry their column's name for the
 * stacked cards of small screens, and the open dialog after the inert part.
 */
export function TabList<T>({ state, intro, button, caption, columns, items, itemKey, empty, row, actions, dialogs }: {
  state: TabListState;
  intro: string;
  button?: ReactNode;
  caption: string;
  columns: string[];
  items: T[] | null;
  itemKey: (item: T) => string;
  empty: string;
  row: (item: T) => ReactNode;
  actions?: (item: T) => ReactNode;
  dialogs: ReactNode;
}) {
  const t = useT();
  const { loading, error, notice, actionError, behindRef } = state;
  const width = columns.length + (actions ? 1 : 0);
  return (
    <>
      <div ref={behindRef} className="gh-ap-users">
        <div className="gh-ap-users-head">
          <p className="gh-ap-hint gh-ap-op-intro">{intro}</p>
          {button}
        </div>
        <Toast message={notice} />
        {(error ?? actionError) && <p className="gh-ap-banner gh-ap-banner-error" role="alert">{error ?? actionError}</p>}
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
                <tr key={itemKey(item)}>
                  {row(item)}
                  {actions && <td className="gh-ap-cell-actions">{actions(item)}</td>}
                </tr>
              ))}
              {!loading && !error && (items?.length ?? 0) === 0 ? (
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
    </>
  );
}

/** The last generation the tab was shown at (-1 means hidden): lists load again only when shown again. */
export function useShownGeneration(generation: number): number {
  const last = useRef(generation);
  if (generation >= 0) last.current = generation;
  return last.current;
}
