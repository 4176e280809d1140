import { useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * Keeps the keyboard in a dialog around a save. In Chromium a focused button that becomes disabled
 * (the save starts) loses focus to the page, and Escape then reaches the portal's own handler and
 * closes the whole portal. So while `busy`, focus rests on the dialog itself; when the save fails
 * (busy ends with the dialog still open) it goes to the dialog's `[data-autofocus]` control, or the
 * dialog. Focus the user moved elsewhere inside the dialog is left alone.
 *
 * A layout effect: focus moves in the same commit that shows the error, so nothing (a screen
 * reader, a test waiting for the alert) sees the failed save's message with focus still parked on
 * the dialog. A passive effect ran a moment later and left that window open.
 */
export function useKeepFocusWhileBusy(dialogRef: RefObject<HTMLElement>, busy: boolean): void {
  const wasBusy = useRef(false);
  useLayoutEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const root = dialog.getRootNode() as Document | ShadowRoot;
    const active = root.activeElement as HTMLElement | null;
    const inside = active !== null && dialog.contains(active);
    const lost = !inside || (active as HTMLButtonElement).disabled === true;
    if (busy) {
      if (lost) dialog.focus();
    } else if (wasBusy.current && (lost || active === dialog)) {
      (dialog.querySelector<HTMLElement>('[data-autofocus]:not(:disabled)') ?? dialog).focus();
    }
    wasBusy.current = busy;
  }, [busy, dialogRef]);
}
