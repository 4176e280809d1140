import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { useLocation } from '../../use-location';
import { Field } from '../../components/Field';
import { SubmitButton } from '../../components/SubmitButton';
import { ErrorAlert } from '../../components/ErrorAlert';
import { RouteLink } from '../../components/RouteLink';
import { useFocusFirst } from '../../components/use-focus-first';
import { OneTimeCodeField } from '../mfa/OneTimeCodeField';

const INCOMPLETE_LINK = 'This invitation link is incomplete. Open the link from your invitation email again, or ask for a new one below.';

/**
 * Accept invitation, with and without a one-time code (acceptInvitationUrl and
 * acceptInvitationWithOTCUrl, seed 000 sections 2.1, 2.2, 4.4): validate (greets the invitee by
 * name; a new account chooses its password, the code route asks for the emailed code) -> pending ->
 * success; invalid when the link lacks its token or userId; failed (with a resend form) when the link
 * cannot be verified. Loaded lazily: only invitation links land here.
 */
export default function AcceptInvitationScreen() {
  const { store, routes } = useLoginBox();
  const { invitation, vendor } = useAuth(store);
  const { search } = useLocation();
  const userId = search.get('userId') ?? '';
  const token = search.get('token') ?? '';
  const started = useRef('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [code, setCode] = useState('');
  const [email, setEmail] = useState('');
  const [formError, setFormError] = useState<string | null>(null);
  const { step } = invitation;
  // Until the link is verified (its flow chunk may still be loading) there is nobody to greet yet.
  const checking = step === 'validate' && (invitation.loading || invitation.name === undefined);
  const ref = useFocusFirst<HTMLDivElement>(checking ? 'checking' : step);

  useEffect(() => {
    // Once per link: verifying uses nothing up, but a re-render must not start it again.
    const key = `${userId}\n${token}`;
    if (started.current === key) return;
    started.current = key;
    void store.startInvitation({ userId, token });
  }, [store, userId, token]);

  const onAccept = (event: FormEvent) => {
    event.preventDefault();
    if (invitation.loading) return;
    if (invitation.shouldSetPassword && password !== confirm) {
      setFormError('Passwords do not match');
      return;
    }
    setFormError(null);
    void store.acceptInvitation({ userId, token, ...(invitation.shouldSetPassword ? { password } : {}), ...(invitation.codeRequired ? { code } : {}) });
  };

  const onResend = (event: FormEvent) => {
    event.preventDefault();
    if (!invitation.loading) void store.resendInvitation(email);
  };

  const tenant = invitation.tenantName || 'the account';
  let body;
  if (checking) {
    body = (
      <p role="status" className="gh-status" tabIndex={-1}>
        <span className="gh-spinner" aria-hidden="true" /> Checking your invitation...
      </p>
    );
  } else if (step === 'validate' || step === 'pending') {
    const minLength = vendor?.passwordConfig.minLength;
    body = (
      <form onSubmit={onAccept} aria-busy={invitation.loading}>
        <p>
          Hi {invitation.name}, you&apos;re invited to join <strong>{tenant}</strong>.{' '}
          {invitation.shouldSetPassword ? 'Choose a password to set up your account.' : 'Accept to join it with your existing account.'}
        </p>
        {invitation.email ? <Field label="Email" type="email" name="email" autoComplete="username" readOnly value={invitation.email} /> : null}
        {invitation.codeRequired ? <OneTimeCodeField label="Invitation code" hint="The 6-digit code in your invitation email" value={code} onChange={setCode} /> : null}
        {invitation.shouldSetPassword ? (
          <>
            <Field label="Password" type="password" name="password" autoComplete="new-password" required minLength={minLength} hint={minLength ? `At least ${minLength} characters` : undefined} value={password} onChange={(e) => setPassword(e.target.value)} />
            <Field label="Confirm password" type="password" name="confirmPassword" autoComplete="new-password" required value={confirm} onChange={(e) => setConfirm(e.target.value)} />
          </>
        ) : null}
        <ErrorAlert message={formError ?? invitation.error} />
        <SubmitButton busy={step === 'pending'}>Accept invitation</SubmitButton>
      </form>
    );
  } else if (step === 'success') {
    body =
      invitation.outcome === 'joined' ? (
        <>
          <p role="status" tabIndex={-1}>
            You&apos;ve joined {tenant}. Sign in with your account to continue.
          </p>
          <p className="gh-footer">
            <RouteLink to={routes.loginUrl}>Sign in</RouteLink>
          </p>
        </>
      ) : (
        <p role="status" tabIndex={-1}>
          Welcome to {tenant}! Your account is ready, redirecting...
        </p>
      );
  } else if (invitation.resendSent) {
    body = (
      <p role="status" tabIndex={-1}>
        If an invitation is waiting for that address, we sent it a new link.
      </p>
    );
  } else {
    // invalid or failed: say why, and offer a new invitation email.
    body = (
      <form onSubmit={onResend} aria-busy={invitation.loading}>
        <ErrorAlert message={invitation.error ?? (step === 'invalid' ? INCOMPLETE_LINK : null)} />
        <p>Enter your email and we will send you a new invitation link.</p>
        <Field label="Email" type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <SubmitButton busy={invitation.loading}>Send a new invitation</SubmitButton>
      </form>
    );
  }

  return (
    <div ref={ref}>
      <h1>Accept invitation</h1>
      {body}
    </div>
  );
}
