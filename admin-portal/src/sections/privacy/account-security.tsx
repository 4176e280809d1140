import { useRef, useState } from 'react';
import { useT } from '../../i18n/i18n-context';
import { useInertWhile } from '../dialogs/use-inert';
import { EmailDialog } from './email-dialog';
import { PasswordDialog } from './password-dialog';
import type { SecurityApi } from './security-api';

type Dialog = 'password' | 'email' | null;

/**
 * Password and email (issue 11 section 3): change the password (the current one, and a step-up
 * where a second factor is enrolled) and the email address (proven by the new address before it
 * replaces the old one). `canWrite` false (view-only) shows the address without the actions.
 */
export function AccountSecurity({ security, email, canWrite, onDialog, onFreshAuth, onSaved }: {
  security: SecurityApi;
  email: string | null;
  canWrite: boolean;
  onDialog: (open: boolean) => void;
  onFreshAuth: (error: unknown) => boolean;
  onSaved: (message: string) => void;
}) {
  const t = useT();
  const [dialog, setDialogState] = useState<Dialog>(null);
  const [shownEmail, setShownEmail] = useState(email);
  const contentRef = useRef<HTMLDivElement>(null);
  useInertWhile(contentRef, dialog !== null);
  const setDialog = (next: Dialog) => {
    setDialogState(next);
    onDialog(next !== null);
  };
  // The server's "prove it is you" answer closes the dialog; the section offers the step-up instead.
  const fresh = (error: unknown) => {
    if (!onFreshAuth(error)) return false;
    setDialogState(null);
    return true;
  };

  return (
    <section className="gh-ap-privacy-part" aria-labelledby="gh-ap-privacy-account">
      <div ref={contentRef} className="gh-ap-privacy-content">
        <h3 id="gh-ap-privacy-account" className="gh-ap-privacy-title">{t.t('privacy.account.title')}</h3>
        <dl className="gh-ap-security-list">
          <div className="gh-ap-security-row">
            <dt>{t.t('privacy.account.password')}</dt>
            <dd>
              <span className="gh-ap-hint">{t.t('privacy.account.passwordHint')}</span>
              {canWrite && <button type="button" className="gh-ap-button-secondary" onClick={() => setDialog('password')}>{t.t('privacy.account.changePassword')}</button>}
            </dd>
          </div>
          <div className="gh-ap-security-row">
            <dt>{t.t('privacy.account.email')}</dt>
            <dd>
              <span className="gh-ap-security-value">{shownEmail ?? t.t('privacy.account.noEmail')}</span>
              {canWrite && <button type="button" className="gh-ap-button-secondary" onClick={() => setDialog('email')}>{t.t('privacy.account.changeEmail')}</button>}
            </dd>
          </div>
        </dl>
      </div>
      {dialog === 'password' && (
        <PasswordDialog
          change={security.changePassword}
          userInputs={shownEmail ? [shownEmail, shownEmail.split('@')[0]!] : []}
          onFreshAuth={fresh}
          onClose={() => setDialog(null)}
          onDone={() => {
            setDialog(null);
            onSaved(t.t('privacy.password.changed'));
          }}
        />
      )}
      {dialog === 'email' && (
        <EmailDialog
          currentEmail={shownEmail}
          request={security.changeEmail}
          verify={security.verifyEmailChange}
          onFreshAuth={fresh}
          onClose={() => setDialog(null)}
          onDone={(changed) => {
            setShownEmail(changed);
            setDialog(null);
            onSaved(t.t('privacy.email.changed', { email: changed }));
          }}
        />
      )}
    </section>
  );
}
