import { useState, type FormEvent } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { Field } from '../../components/Field';
import { SubmitButton } from '../../components/SubmitButton';
import { ErrorAlert } from '../../components/ErrorAlert';
import { RouteLink } from '../../components/RouteLink';
import { useFocusFirst } from '../../components/use-focus-first';

const PHONE_HINT = 'In international format, starting with + and the country code, e.g. +44 20 7946 0958';

/**
 * The sign-up form for any sign-up strategies other than the default (seed 000 section 3): an Email
 * and/or a Phone number field as configured, each required or optional. With a phone number and no
 * email (phone sign-up open: phone enabled, email not required) it signs up by phone number and
 * shows the VerifyPhone stage while the code is texted; otherwise it is the email sign-up, with the
 * phone number as a profile field. Loaded lazily: only such deployments fetch it.
 * Its Name, Company and Password fields repeat SignUpScreen's on purpose: sharing them cost 201 B
 * gzip on the path before the login form is interactive (measured), for about 20 lines saved.
 */
export default function StrategySignUpForm() {
  const { store, routes } = useLoginBox();
  const { signUp, vendor } = useAuth(store);
  const [form, setForm] = useState({ name: '', companyName: '', email: '', phoneNumber: '', password: '' });
  const ref = useFocusFirst<HTMLDivElement>(signUp.stage);
  const update = (key: keyof typeof form) => (event: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: event.target.value }));
  const email = vendor?.signUpStrategies.email ?? { enabled: true, required: true };
  const phone = vendor?.signUpStrategies.phoneNumber ?? { enabled: false, required: false };
  // Phone sign-up makes accounts without an email, so it is open only while email is not required.
  const byPhone = phone.enabled && !email.required && (!email.enabled || form.email.trim() === '');
  const minLength = vendor?.passwordConfig.minLength;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (signUp.loading) return;
    const profile = { name: form.name.trim(), companyName: form.companyName.trim() };
    if (byPhone) void store.signUpWithPhone({ ...profile, phoneNumber: form.phoneNumber });
    else void store.signUp({ ...profile, email: form.email.trim(), password: form.password, ...(form.phoneNumber.trim() ? { phoneNumber: form.phoneNumber.trim() } : {}) });
  };

  if (signUp.stage === 'VerifyPhone') {
    return (
      <div ref={ref}>
        <h1>Verify your phone number</h1>
        {signUp.loading ? (
          <p role="status" className="gh-status" tabIndex={-1}>
            <span className="gh-spinner" aria-hidden="true" />
            <span>
              Your account is created. We&apos;re texting a 6-digit code to <strong>{signUp.phoneNumber}</strong> to confirm it is yours...
            </span>
          </p>
        ) : (
          <>
            <p>
              Your account is created. To finish, confirm that <strong>{signUp.phoneNumber}</strong> is yours with a code we text to it.
            </p>
            <form
              onSubmit={(event) => {
                event.preventDefault();
                void store.sendSignUpPhoneCode();
              }}
            >
              <ErrorAlert message={signUp.error} />
              <SubmitButton busy={signUp.loading}>Text me the code</SubmitButton>
            </form>
          </>
        )}
        <p className="gh-footer">
          Already have an account? <RouteLink to={routes.loginUrl}>Sign in</RouteLink>
        </p>
      </div>
    );
  }

  const optional = (label: string, required: boolean) => (required ? label : `${label} (optional)`);
  return (
    <div ref={ref}>
      <h1>Create your account</h1>
      <form onSubmit={onSubmit} aria-busy={signUp.loading}>
        <Field label="Name" name="name" autoComplete="name" required value={form.name} onChange={update('name')} />
        <Field label="Company name" name="companyName" autoComplete="organization" required value={form.companyName} onChange={update('companyName')} />
        {email.enabled ? <Field label={optional('Email', email.required)} type="email" name="email" autoComplete="email" required={email.required} value={form.email} onChange={update('email')} /> : null}
        {phone.enabled ? (
          <Field
            label={optional('Phone number', phone.required || !email.enabled)}
            type="tel"
            name="phoneNumber"
            autoComplete="tel"
            inputMode="tel"
            required={phone.required || !email.enabled}
            hint={byPhone ? `${PHONE_HINT}. We text it a code to confirm it is yours.` : PHONE_HINT}
            value={form.phoneNumber}
            onChange={update('phoneNumber')}
          />
        ) : null}
        {byPhone ? null : (
          <Field
            label="Password"
            type="password"
            name="password"
            autoComplete="new-password"
            required
            minLength={minLength}
            hint={minLength ? `At least ${minLength} characters` : undefined}
            value={form.password}
            onChange={update('password')}
          />
        )}
        <ErrorAlert message={signUp.error} />
        <SubmitButton busy={signUp.loading}>Sign up</SubmitButton>
      </form>
      <p className="gh-footer">
        Already have an account? <RouteLink to={routes.loginUrl}>Sign in</RouteLink>
      </p>
    </div>
  );
}
