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
import { useI18n } from '../../use-i18n';

export default function ResetPhoneNumberScreen() {
  const { store, routes } = useLoginBox();
  const { resetPhoneNumber: state, login } = useAuth(store);
  const { t } = useI18n();
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
        <h1>{t('phone.changed.title')}</h1>
        <form ref={formRef} onSubmit={(e) => e.preventDefault()}>
          <p role="status" tabIndex={-1}>
            {t('phone.changed.text', { phone: state.phoneNumber ?? '' })}
          </p>
          <RouteLink to={routes.loginUrl}>{t('signUp.signIn')}</RouteLink>
        </form>
      </>
    );
  }

  let body;
  if (state.step === 'ResetPhoneNumber') {
    body = (
      <form ref={formRef} onSubmit={submit(() => store.resetPhoneNumber(email))} aria-busy={state.loading}>
        <p>{t('phone.intro')}</p>
        {fromSignIn ? null : (
          <p className="gh-hint">
            {t('phone.mfaHint')}
          </p>
        )}
        <Field label={t('field.email')} type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <ErrorAlert message={state.error} />
        <SubmitButton busy={state.loading}>{t('phone.emailCode')}</SubmitButton>
        <RouteLink to={routes.loginUrl}>{t('common.backToSignIn')}</RouteLink>
      </form>
    );
  } else if (state.step === 'VerifyResetPhoneNumber') {
    body = (
      <form ref={formRef} onSubmit={submit(() => store.verifyResetPhoneNumber(code))} aria-busy={state.loading}>
        <p role="status" tabIndex={-1}>
          {t('phone.codeSent', { email: state.email })}
        </p>
        <OneTimeCodeField label={t('mfa.email.label')} value={code} onChange={setCode} />
        <ErrorAlert message={state.error} />
        <SubmitButton busy={state.loading}>{t('common.continue')}</SubmitButton>
        <button type="button" className="gh-text-button" disabled={state.loading} onClick={() => void store.resetPhoneNumber(state.email)}>
          {t('common.sendNewCode')}
        </button>
        <RouteLink to={routes.loginUrl}>{t('common.backToSignIn')}</RouteLink>
      </form>
    );
  } else if (!codeSent) {
    body = (
      <form ref={formRef} onSubmit={submit(() => store.changePhoneNumber(phone).then(() => setEditing(false)))} aria-busy={state.loading}>
        <p>{t('phone.enterNew')}</p>
        <PhoneNumberField label={t('field.newPhoneNumber')} value={phone} onChange={setPhone} />
        <ErrorAlert message={state.error} />
        <SubmitButton busy={state.loading}>{t('common.sendCode')}</SubmitButton>
      </form>
    );
  } else {
    body = (
      <form ref={formRef} onSubmit={submit(() => store.verifyPhoneNumber(code))} aria-busy={state.loading}>
        <p role="status" tabIndex={-1}>
          {t('mfa.sms.sentTo', { phone: state.phoneNumber ?? '' })}
        </p>
        <OneTimeCodeField label={t('mfa.sms.label')} value={code} onChange={setCode} />
        <ErrorAlert message={state.error} />
        <SubmitButton busy={state.loading}>{t('phone.change')}</SubmitButton>
        <button type="button" className="gh-text-button" onClick={() => setEditing(true)}>
          {t('phone.differentNumber')}
        </button>
      </form>
    );
  }

  return (
    <>
      <h1>{t('phone.title')}</h1>
      {body}
    </>
  );
}
