import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

export type FieldErrors = Partial<Record<string, string>>;

/**
 * A form's own validation (the form is `noValidate`, so no browser bubbles): the errors by field
 * name, shown under each field, and focus on the first invalid field (in the form's order) each
 * time errors are shown. `show` returns true when there were none.
 */
export function useFieldErrors<T extends HTMLElement = HTMLFormElement>(container?: RefObject<T | null>): {
  errors: FieldErrors;
  show(errors: FieldErrors): boolean;
  clear(name?: string): void;
  formRef: RefObject<T | null>;
} {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [round, setRound] = useState(0);
  const own = useRef<T>(null);
  const formRef = container ?? own;

  useEffect(() => {
    if (round === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [round, formRef]);

  const show = useCallback((next: FieldErrors) => {
    const present = Object.fromEntries(Object.entries(next).filter(([, message]) => Boolean(message))) as FieldErrors;
    setErrors(present);
    const ok = Object.keys(present).length === 0;
    if (!ok) setRound((r) => r + 1);
    return ok;
  }, []);

  const clear = useCallback((name?: string) => {
    setErrors((current) => {
      if (name === undefined) return Object.keys(current).length ? {} : current;
      if (!(name in current)) return current;
      const { [name]: _removed, ...rest } = current;
      return rest;
    });
  }, []);

  return { errors, show, clear, formRef };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A plausible email address (the server has the last word). */
export const isEmail = (value: string): boolean => EMAIL.test(value.trim()) && value.trim().length <= 320;

/**
 * Focuses the field a server error was put on (its `name`), each time such an error arrives, as
 * the form's own validation does.
 */
export function useFocusServerField(container: RefObject<HTMLElement | null>, field: string | undefined, error: string | null | undefined): void {
  useEffect(() => {
    if (field && error) container.current?.querySelector<HTMLElement>(`[name="${field}"]`)?.focus();
  }, [container, field, error]);
}
