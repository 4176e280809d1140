import { useEffect, type RefObject } from 'react';

/** While `active` (a dialog is open) the element behind is inert: no focus, no clicks (React 18 has no inert prop). */
export function useInertWhile(ref: RefObject<HTMLElement>, active: boolean): void {
  useEffect(() => {
    ref.current?.toggleAttribute('inert', active);
  }, [ref, active]);
}
