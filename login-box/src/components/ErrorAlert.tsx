import { useEffect, useRef } from 'react';

/** A server or form error; takes focus when it appears so screen-reader and keyboard users meet it. */
export function ErrorAlert({ message }: { message: string | null | undefined }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (message) ref.current?.focus();
  }, [message]);
  if (!message) return null;
  return (
    <div ref={ref} role="alert" tabIndex={-1} className="gh-alert">
      {message}
    </div>
  );
}
