import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLoginBox } from '../context';
import { useAuth } from '../use-auth';
import { useLocation } from '../use-location';
import { Field } from '../components/Field';
import { SubmitButton } from '../components/SubmitButton';
import { ErrorAlert } from '../components/ErrorAlert';
import { useFocusFirst } from '../components/use-focus-first';

const INCOMPLETE_LINK = 'This activation link is incomplete. Request a new one below.';

/** Activation (seed 4.5): activating -> activatingForm -> success, or failed -> resend. */
export function ActivateScreen() {
  const { store } = useLoginBox();
  const { activate, vendor } = useAuth(store);
  const { search } = useLocation();
  const userId = search.get('userId') ?? '';
  const token = search.get('token') ?? '';
  const linkIncomplete = !userId || !token;
  const started = useRef('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [email, setEmail] = useState('');
  const [formError, setFormError] = useState<string | null>(null);
  const step = linkIncomplete && activate.step !== 'resend' ? 'failed' : activate.step;
  const ref = useFocusFirst<HTMLDivElement>(step);

  useEffect(() => {
    const key = `${userId}\n${token}`;
    if (linkIncomplete || started.current === key) return;
    started.current = key;
    void store.startActivation({ userId, token });
  }, [store, userId, token, linkIncomplete]);

  const onActivate = (event: FormEvent) => {
    event.preventDefault();
    if (activate.loading) return;
    if (password !== confirm) {
      setFormError('Passwords do not match');
      return;
    }
    setFormError(null);
    void store.activate({ userId, token, password });
  };

  const onResend = (event: FormEvent) => {
    event.preventDefault();
    if (!activate.loading) void store.resendActivation(email);
  };

  let body;
  if (step === 'activating') {
    body = (
      <p role="status" className="gh-status">
        <span className="gh-spinner" aria-hidden="true" /> Activating your account...
      </p>
    );
  } else if (step === 'activatingForm') {
    const minLength = vendor?.passwordConfig.minLength;
    body = (
      <form onSubmit={onActivate} aria-busy={activate.loading}>
        <p>Choose a password to finish activating your account.</p>
        <Field label="Password" type="password" name="password" autoComplete="new-password" required minLength={minLength} hint={minLength ? `At least ${minLength} characters` : undefined} value={password} onChange={(e) => setPassword(e.target.value)} />
        <Field label="Confirm password" type="password" name="confirmPassword" autoComplete="new-password" required value={confirm} onChange={(e) => setConfirm(e.target.value)} />
        <ErrorAlert message={formError ?? activate.error} />
        <SubmitButton busy={activate.loading}>Activate</SubmitButton>
      </form>
    );
  } else if (step === 'success') {
    // With an error only when the invite link it signed up through died before activation.
    body = (
      <>
        <ErrorAlert message={activate.error} />
        <p role="status">Your account is activated, redirecting...</p>
      </>
    );
  } else if (step === 'resend' && activate.resendSent) {
    body = <p role="status" tabIndex={-1}>If an account is waiting for activation at that address, we sent it a new activation link.</p>;
  } else {
    body = (
      <form onSubmit={onResend} aria-busy={activate.loading}>
        <ErrorAlert message={activate.error ?? (linkIncomplete ? INCOMPLETE_LINK : null)} />
        <p>Enter your email and we will send you a new activation link.</p>
        <Field label="Email" type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <SubmitButton busy={activate.loading}>Resend activation email</SubmitButton>
      </form>
    );
  }

  return (
    <div ref={ref}>
      <h1>Activate your account</h1>
      {body}
    </div>
  );
}
