import { useLayoutEffect, type RefObject } from 'react';

/**
 * For a dialog that does not use `Modal` (which keeps focus itself, see keep-focus.ts): after a
 * failed save, focus goes back to the dialog's `[data-autofocus]` control, so the keyboard (Tab,
 * Escape) stays in the dialog rather than reaching the portal behind it. A layout effect, for the
 * reason keep-focus.ts gives: focus moves in the commit that shows the error.
 */
export function useRefocusOnError(error: string | null, busy: boolean, within: RefObject<HTMLElement>): void {
  useLayoutEffect(() => {
    if (error && !busy) within.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
  }, [error, busy, within]);
}
