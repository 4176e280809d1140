import { useEffect, useRef, type ReactNode } from 'react';
import { useI18n } from '../use-i18n';
import { useDescribeError } from '../lazy-step';

/**
 * A server or form error, worded in the user's language (known codes and sentences; else as the
 * server said it). Takes focus when it appears so screen-reader and keyboard users meet it.
 * `children` follow the message (e.g. a way out such as "Sign in instead").
 */
export function ErrorAlert({ message, code, children }: { message: string | null | undefined; code?: string | undefined; children?: ReactNode }) {
  const i18n = useI18n();
  const ref = useRef<HTMLDivElement>(null);
  const describe = useDescribeError(Boolean(message));
  const text = describe?.(i18n, message, code)?.text;
  useEffect(() => {
    if (text) ref.current?.focus();
  }, [text]);
  if (!text) return null;
  return (
    <div ref={ref} role="alert" tabIndex={-1} className="gh-alert">
      {text}
      {children}
    </div>
  );
}
