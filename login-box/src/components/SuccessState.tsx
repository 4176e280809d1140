import type { ReactNode } from 'react';
import { useLoginBox } from '../context';
import { useI18n } from '../use-i18n';

/**
 * A success step that the seed shows for a fixed time before moving on (activation, magic link,
 * invitation, unlock, reset): what happened, where the user goes next, and "Continue" to go at once.
 */
export function SuccessState({ children, next }: { children: ReactNode; next?: string }) {
  const { store } = useLoginBox();
  const { t } = useI18n();
  return (
    <div className="gh-success">
      <p role="status" tabIndex={-1} className="gh-notice" data-kind="success">
        <span className="gh-success-mark" aria-hidden="true" />
        <span>{children}</span>
      </p>
      {next ? <p className="gh-hint">{next}</p> : null}
      <button type="button" className="gh-button" onClick={() => store.continueNow()}>
        {t('common.continue')}
      </button>
    </div>
  );
}
