import { useState } from 'react';
import { useI18n } from '../../use-i18n';

/** Copies a value to the clipboard and says so to screen readers. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const { t } = useI18n();
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(value).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <button type="button" className="gh-text-button" onClick={copy} aria-label={t('common.copyLabel', { label })}>
      {copied ? t('common.copied') : t('common.copy')}
      <span className="gh-visually-hidden" aria-live="polite">{copied ? t('common.copiedLabel', { label }) : ''}</span>
    </button>
  );
}
