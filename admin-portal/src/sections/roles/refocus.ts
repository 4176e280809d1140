import { useEffect, type RefObject } from 'react';

/**
 * While a dialog saves, its controls are disabled and the focused button loses focus to the page;
 * when the save fails, focus goes back to the dialog's `[data-autofocus]` control, so the keyboard
 * (Tab, Escape) stays in the dialog rather than reaching the portal behind it.
 */
export function useRefocusOnError(error: string | null, busy: boolean, within: RefObject<HTMLElement>): void {
  useEffect(() => {
    if (error && !busy) within.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
  }, [error, busy, within]);
}
