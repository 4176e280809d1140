/**
 * Reset phone number route (seed 000 sections 2.1 resetPhoneNumberUrl, 2.2 steps ResetPhoneNumber,
 * VerifyResetPhoneNumber, ChangePhoneNumber): for a user who lost the phone their codes go to.
 * The email gets a code; the code allows a new number; a code texted to that number makes it the
 * account's. Its own chunk: only this route loads it.
 *
 * A phone that is also an SMS second factor is replaced only after the password: the reset then
 * starts from "Lost your phone?" on the SMS step of a sign-in, whose pending mfaToken the store sends
 * with the emailed code. Opened directly, the route says so up front, and the server refuses such an
 * account once the emailed code is proven (never earlier, so the email step tells nobody anything).
 */
import { useState, type FormEvent } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Field } from '../../components/Field';
import { RouteLink } from '../../components/RouteLink';
import { SubmitButton } from '../../components/SubmitButton';
import { useFocusFirst } from '../../components/use-focus-first';
import { OneTimeCodeField } from '../mfa/OneTimeCodeField';
import { PhoneNumberField } from '../mfa/factors/PhoneNumberField';

export default function ResetPhoneNumberScreen() {
  const { store, routes } = useLoginBox();
  const { resetPhoneNumber: state, login } = useAuth(store);
  const [email, setEmail] = useState(state.email || login.email);
  const [code, setCode] = useState('');
  const [phone, setPhone] = useState('');
  // "Use a different number" goes back to the number while a code is out.
  const [editing, setEditing] = useState(false);
  const codeSent = state.step === 'ChangePhoneNumber' && !!state.phoneNumber && !editing;
  const formRef = useFocusFirst<HTMLFormElement>(`${state.step}-${codeSent}-${state.done}`);
  // "Lost your phone?" left a password sign-in waiting for its second factor.
  const fromSignIn = login.step === 'loginWithTwoFactor';

  const submit = (run: () => Promise<void>) => (event: FormEvent) => {
    event.preventDefault();
    if (state.loading) return;
    void run().then(() => setCode(''));
  };

  if (state.done) {
    return (
      <>
        <h1>Phone number changed</h1>
        <form ref={formRef} onSubmit={(e) => e.preventDefault()}>
          <p role="status" tabIndex={-1}>
            Your phone number is now {state.phoneNumber}. Codes will be texted to it from now on.
          </p>
          <RouteLink to={routes.loginUrl}>Sign in</RouteLink>
        </form>
      </>
    );
  }

  let body;
  if (state.step === 'ResetPhoneNumber') {
    body = (
      <form ref={formRef} onSubmit={submit(() => store.resetPhoneNumber(email))} aria-busy={state.loading}>
        <p>Lost the phone your sign-in codes go to? Enter your account&apos;s email and we&apos;ll email you a code to set a new number.</p>
        {fromSignIn ? null : (
          <p className="gh-hint">
            If your phone also confirms your sign-ins, sign in with your password first and choose &quot;Lost your phone?&quot; when asked for the code, or sign in with a recovery code.
          </p>
        )}
        <Field label="Email" type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <ErrorAlert message={state.error} />
        <SubmitButton busy={state.loading}>Email me a code</SubmitButton>
        <RouteLink to={routes.loginUrl}>Back to sign in</RouteLink>
      </form>
    );
  } else if (state.step === 'VerifyResetPhoneNumber') {
    body = (
      <form ref={formRef} onSubmit={submit(() => store.verifyResetPhoneNumber(code))} aria-busy={state.loading}>
        <p role="status" tabIndex={-1}>
          If {state.email} belongs to an account with a phone number, we emailed it a 6-digit code. It expires in 15 minutes.
        </p>
        <OneTimeCodeField label="Email code" value={code} onChange={setCode} />
        <ErrorAlert message={state.error} />
        <SubmitButton busy={state.loading}>Continue</SubmitButton>
        <button type="button" className="gh-text-button" disabled={state.loading} onClick={() => void store.resetPhoneNumber(state.email)}>
          Send a new code
        </button>
        <RouteLink to={routes.loginUrl}>Back to sign in</RouteLink>
      </form>
    );
  } else if (!codeSent) {
    body = (
      <form ref={formRef} onSubmit={submit(() => store.changePhoneNumber(phone).then(() => setEditing(false)))} aria-busy={state.loading}>
        <p>Enter your new mobile number. We&apos;ll text it a code to make sure it is yours.</p>
        <PhoneNumberField label="New phone number" value={phone} onChange={setPhone} />
        <ErrorAlert message={state.error} />
        <SubmitButton busy={state.loading}>Send code</SubmitButton>
      </form>
    );
  } else {
    body = (
      <form ref={formRef} onSubmit={submit(() => store.verifyPhoneNumber(code))} aria-busy={state.loading}>
        <p role="status" tabIndex={-1}>
          We texted a 6-digit code to {state.phoneNumber}. It expires in 5 minutes.
        </p>
        <OneTimeCodeField label="Text message code" value={code} onChange={setCode} />
        <ErrorAlert message={state.error} />
        <SubmitButton busy={state.loading}>Change phone number</SubmitButton>
        <button type="button" className="gh-text-button" onClick={() => setEditing(true)}>
          Use a different number
        </button>
      </form>
    );
  }

  return (
    <>
      <h1>Reset phone number</h1>
      {body}
    </>
  );
}
