import { useEffect, useRef } from 'react';

/** Moves focus to the first field of the container whenever `key` (the step) changes. */
export function useFocusFirst<T extends HTMLElement>(key: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    const first = ref.current?.querySelector<HTMLElement>('input:not([readonly]):not([type=hidden]), button, [tabindex="-1"][role=status]');
    first?.focus();
  }, [key]);
  return ref;
}
