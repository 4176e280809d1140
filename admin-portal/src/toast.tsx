import { useEffect, useState } from 'react';

/** How long a toast stays in view. */
export const TOAST_MS = 6000;

/**
 * A saved change, told where the user looks: the message floats at the bottom of the portal (in
 * view however far the section is scrolled) and is announced politely. The live region is always
 * there, so a message put into it is read; it empties itself after TOAST_MS.
 */
export function Toast({ message }: { message: string | null }) {
  const [shown, setShown] = useState<string | null>(message);
  useEffect(() => {
    setShown(message);
    if (!message) return;
    const timer = setTimeout(() => setShown(null), TOAST_MS);
    return () => clearTimeout(timer);
  }, [message]);
  return (
    <div className="gh-ap-toast-region" role="status" aria-live="polite">
      {shown ? <p className="gh-ap-toast">{shown}</p> : null}
    </div>
  );
}
