import { useState } from 'react';

/** Copies a value to the clipboard and says so to screen readers. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(value).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <button type="button" className="gh-text-button" onClick={copy} aria-label={label}>
      {copied ? 'Copied' : 'Copy'}
      <span className="gh-visually-hidden" aria-live="polite">{copied ? `${label}: copied` : ''}</span>
    </button>
  );
}
