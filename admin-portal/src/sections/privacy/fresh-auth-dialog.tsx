import { useT } from '../../i18n/i18n-context';
import { Modal } from '../users/modal';
import type { FreshAuth } from './fresh-auth';

/**
 * Shown instead of a security dialog when the server asks the user to prove it is them again: a
 * step-up (a second factor, on the login box's step-up route, coming back here) or a new sign-in.
 */
export function FreshAuthDialog({ need, onStepUp, onSignInAgain, onClose }: { need: FreshAuth; onStepUp: (maxAge: number | null) => void; onSignInAgain: () => void; onClose: () => void }) {
  const t = useT();
  const stepUp = need.kind === 'stepUp';
  return (
    <Modal title={t.t(stepUp ? 'privacy.fresh.stepUpTitle' : 'privacy.fresh.signInTitle')} onClose={onClose}>
      <p className="gh-ap-modal-text" role="alert">{t.t(stepUp ? 'privacy.fresh.stepUpText' : 'privacy.fresh.signInText')}</p>
      <div className="gh-ap-modal-actions">
        <button type="button" className="gh-ap-button-secondary" onClick={onClose}>{t.t('common.cancel')}</button>
        <button type="button" className="gh-ap-button" data-autofocus onClick={() => (need.kind === 'stepUp' ? onStepUp(need.maxAge) : onSignInAgain())}>
          {t.t(stepUp ? 'privacy.fresh.stepUp' : 'privacy.fresh.signIn')}
        </button>
      </div>
    </Modal>
  );
}
