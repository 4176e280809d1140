import { useEffect, type RefObject } from 'react';

/**
 * For a dialog that does not use `Modal` (which keeps focus itself, see keep-focus.ts): after a
 * failed save, focus goes back to the dialog's `[data-autofocus]` control, so the keyboard (Tab,
 * Escape) stays in the dialog rather than reaching the portal behind it.
 */
export function useRefocusOnError(error: string | null, busy: boolean, within: RefObject<HTMLElement>): void {
  useEffect(() => {
    if (error && !busy) within.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
  }, [error, busy, within]);
}
