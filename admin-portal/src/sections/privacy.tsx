import { useEffect, useMemo, useRef, useState } from 'react';
import { adoptCss } from '../host-styles';
import { fieldVisibility } from '../options';
import { LoginSessions } from './privacy/login-sessions';
import { MfaDevicesPart } from './privacy/mfa-devices';
import { useInertWhile } from './dialogs/use-inert';
import { createPrivacyApi } from './privacy/privacy-api';
import type { SectionProps } from './section-props';
import css from './users/users.css?inline';
import ownCss from './privacy/privacy.css?inline';

type Part = 'loginSessions' | 'mfa';

/**
 * Privacy (seed 001 "Privacy sections: loginSessions, mfa"): where the signed-in user is signed in,
 * and the second factors and passkeys protecting the account. Each part can be hidden or view-only
 * through `fieldVisibility(options, 'privacy', 'loginSessions' | 'mfa')`.
 */
export default function PrivacySection({ title, headingId, api, store, options }: SectionProps) {
  const privacy = useMemo(() => createPrivacyApi(api), [api]);
  const sessionsMode = fieldVisibility(options, 'privacy', 'loginSessions');
  const mfaMode = fieldVisibility(options, 'privacy', 'mfa');
  const [dialogIn, setDialogIn] = useState<Part | null>(null);
  const sectionRef = useRef<HTMLElement>(null);
  const headRef = useRef<HTMLHeadingElement>(null);
  const sessionsRef = useRef<HTMLDivElement>(null);
  const mfaRef = useRef<HTMLDivElement>(null);

  useEffect(() => (sectionRef.current ? adoptCss(sectionRef.current, `${css}\n${ownCss}`) : undefined), []);
  // While one part's dialog is open, everything else behind it is inert (the dialog traps focus too).
  useInertWhile(headRef, dialogIn !== null);
  useInertWhile(sessionsRef, dialogIn === 'mfa');
  useInertWhile(mfaRef, dialogIn === 'loginSessions');

  const signInAgain = () => void store.logout();

  return (
    <section ref={sectionRef} className="gh-ap-section gh-ap-section-wide" aria-labelledby={headingId}>
      <div className="gh-ap-privacy">
        <h2 ref={headRef} id={headingId} className="gh-ap-section-title">{title}</h2>
        {sessionsMode !== 'hidden' && (
          <div ref={sessionsRef}>
            <LoginSessions privacy={privacy} canWrite={sessionsMode === 'editable'} onDialog={(open) => setDialogIn(open ? 'loginSessions' : null)} />
          </div>
        )}
        {mfaMode !== 'hidden' && (
          <div ref={mfaRef}>
            <MfaDevicesPart privacy={privacy} canWrite={mfaMode === 'editable'} onSignInAgain={signInAgain} onDialog={(open) => setDialogIn(open ? 'mfa' : null)} />
          </div>
        )}
        {sessionsMode === 'hidden' && mfaMode === 'hidden' && <p className="gh-ap-hint">There is nothing to show here.</p>}
      </div>
    </section>
  );
}
