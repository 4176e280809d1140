import { useRef, useState } from 'react';
import { useT } from '../../i18n/i18n-context';
import { copyText } from '../api-tokens/copy-text';

/**
 * Recovery codes, shown once: a list to read, Copy (all of them, one a line) and Download (a text
 * file). Each code signs in once when the second factor is not at hand.
 */
export function RecoveryCodesList({ codes }: { codes: readonly string[] }) {
  const t = useT();
  const [copied, setCopied] = useState<boolean | null>(null);
  const field = useRef<HTMLInputElement>(null);
  const text = codes.join('\n');
  const download = () => {
    const url = URL.createObjectURL(new Blob([`${text}\n`], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'recovery-codes.txt';
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  };
  return (
    <div className="gh-ap-codes">
      <p className="gh-ap-modal-text">{t.t('privacy.codes.text')}</p>
      <ul className="gh-ap-codes-list" aria-label={t.t('privacy.codes.label')}>
        {codes.map((code) => <li key={code}><code>{code}</code></li>)}
      </ul>
      {/* The copy command's fallback selects this hidden field's text. */}
      <input ref={field} className="gh-ap-visually-hidden" aria-hidden="true" tabIndex={-1} readOnly value={text} />
      <div className="gh-ap-codes-actions">
        <button type="button" className="gh-ap-button-secondary" onClick={() => void copyText(text, field.current).then(setCopied)}>{t.t('privacy.codes.copy')}</button>
        <button type="button" className="gh-ap-button-secondary" onClick={download}>{t.t('privacy.codes.download')}</button>
        <span role="status" className="gh-ap-hint">{copied === null ? '' : t.t(copied ? 'privacy.codes.copied' : 'privacy.codes.copyFailed')}</span>
      </div>
    </div>
  );
}
