import { useEffect, useMemo, useRef, useState } from 'react';
import { adoptCss } from '../host-styles';
import { useNamespaces } from '../i18n/i18n-context';
import { fieldVisibility } from '../options';
import { Toast } from '../toast';
import { AccountSecurity } from './privacy/account-security';
import { FreshAuthDialog } from './privacy/fresh-auth-dialog';
import { freshAuthNeeded, stepUpHref, type FreshAuth } from './privacy/fresh-auth';
import { LoginSessions } from './privacy/login-sessions';
import { MfaDevicesPart } from './privacy/mfa-devices';
import { useInertWhile } from './dialogs/use-inert';
import { createPrivacyApi } from './privacy/privacy-api';
import { createSecurityApi } from './privacy/security-api';
import { browserRegistration, webAuthnAvailable, type RegistrationCeremony } from './privacy/webauthn';
import type { SectionProps } from './section-props';
import css from './users/users.css?inline';
import ownCss from './privacy/privacy.css?inline';

type Part = 'account' | 'loginSessions' | 'mfa' | 'fresh';

/**
 * Privacy (seed 001 "Privacy sections: loginSessions, mfa"; issue 11 section 3): the user's own
 * security: password and email, where they are signed in, and the second factors and passkeys
 * protecting the account, each added, removed or renewed here. Each part can be hidden or view-only
 * through `fieldVisibility(options, 'privacy', 'account' | 'loginSessions' | 'mfa')`. A change the
 * server refuses for want of a recent sign-in or step-up offers that instead.
 */
export default function PrivacySection({ title, headingId, user, api, store, options, stepUpUrl, navigate, ceremony }: SectionProps & { ceremony?: RegistrationCeremony | null }) {
  const t = useNamespaces(['privacy']);
  const privacy = useMemo(() => createPrivacyApi(api), [api]);
  const security = useMemo(() => createSecurityApi(api), [api]);
  const webauthn = ceremony === undefined ? (webAuthnAvailable() ? browserRegistration : null) : ceremony;
  const accountMode = fieldVisibility(options, 'privacy', 'account');
  const sessionsMode = fieldVisibility(options, 'privacy', 'loginSessions');
  const mfaMode = fieldVisibility(options, 'privacy', 'mfa');
  const [dialogIn, setDialogIn] = useState<Part | null>(null);
  const [fresh, setFresh] = useState<FreshAuth | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const sectionRef = useRef<HTMLElement>(null);
  const headRef = useRef<HTMLHeadingElement>(null);
  const accountRef = useRef<HTMLDivElement>(null);
  const sessionsRef = useRef<HTMLDivElement>(null);
  const mfaRef = useRef<HTMLDivElement>(null);

  useEffect(() => (sectionRef.current ? adoptCss(sectionRef.current, `${css}\n${ownCss}`) : undefined), []);
  // While one part's dialog is open, everything else behind it is inert (the dialog traps focus too).
  useInertWhile(headRef, dialogIn !== null);
  useInertWhile(accountRef, dialogIn !== null && dialogIn !== 'account');
  useInertWhile(sessionsRef, dialogIn !== null && dialogIn !== 'loginSessions');
  useInertWhile(mfaRef, dialogIn !== null && dialogIn !== 'mfa');

  const signInAgain = () => void store.logout();
  const dialogOf = (part: Part) => (open: boolean) => setDialogIn(open ? part : null);
  const saved = (message: string) => setNotice(message);
  const onFreshAuth = (error: unknown) => {
    const need = freshAuthNeeded(error);
    if (!need) return false;
    setFresh(need);
    setDialogIn('fresh');
    return true;
  };
  const stepUp = (maxAge: number | null) => {
    const href = stepUpHref(stepUpUrl ?? '/account/step-up', maxAge, window.location.href);
    if (navigate) navigate(href);
    else window.location.assign(href);
  };

  return (
    <section ref={sectionRef} className="gh-ap-section gh-ap-section-wide" aria-labelledby={headingId}>
      <div className="gh-ap-privacy">
        <h2 ref={headRef} id={headingId} className="gh-ap-section-title">{title}</h2>
        <Toast message={notice} />
        {accountMode !== 'hidden' && (
          <div ref={accountRef}>
            <AccountSecurity security={security} email={user.email ?? null} canWrite={accountMode === 'editable'} onDialog={dialogOf('account')} onFreshAuth={onFreshAuth} onSaved={saved} />
          </div>
        )}
        {mfaMode !== 'hidden' && (
          <div ref={mfaRef}>
            <MfaDevicesPart privacy={privacy} security={security} ceremony={webauthn} canWrite={mfaMode === 'editable'} onSignInAgain={signInAgain} onDialog={dialogOf('mfa')} onFreshAuth={onFreshAuth} onSaved={saved} />
          </div>
        )}
        {sessionsMode !== 'hidden' && (
          <div ref={sessionsRef}>
            <LoginSessions privacy={privacy} canWrite={sessionsMode === 'editable'} onDialog={dialogOf('loginSessions')} onSaved={saved} />
          </div>
        )}
        {accountMode === 'hidden' && sessionsMode === 'hidden' && mfaMode === 'hidden' && <p className="gh-ap-hint">{t.t('privacy.nothing')}</p>}
      </div>
      {fresh && (
        <FreshAuthDialog
          need={fresh}
          onStepUp={stepUp}
          onSignInAgain={signInAgain}
          onClose={() => {
            setFresh(null);
            setDialogIn(null);
          }}
        />
      )}
    </section>
  );
}
