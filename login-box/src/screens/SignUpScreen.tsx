import { lazy, Suspense, useState, type FormEvent } from 'react';
import { useLoginBox } from '../context';
import { useAuth } from '../use-auth';
import { Field } from '../components/Field';
import { SubmitButton } from '../components/SubmitButton';
import { ErrorAlert } from '../components/ErrorAlert';
import { RouteLink } from '../components/RouteLink';
import { useFocusFirst } from '../components/use-focus-first';

// One chunk with the SMS code steps (screens/sms): only deployments with other sign-up strategies (phone number, optional email) fetch it.
const StrategySignUpForm = lazy(() => import('./sms').then((m) => ({ default: m.StrategySignUpForm })));

/** Sign-up (stage SignUp) and its success message (stage SignUpSuccess). */
export function SignUpScreen() {
  const { store, routes } = useLoginBox();
  const { signUp, vendor } = useAuth(store);
  const [form, setForm] = useState({ name: '', companyName: '', email: '', password: '' });
  const ref = useFocusFirst<HTMLDivElement>(signUp.stage);
  const minLength = vendor?.passwordConfig.minLength;
  // Joining by invite link: the account joins the link's tenant, so there is no company to name.
  const invited = location.search.includes('invitationToken=');
  const update = (key: keyof typeof form) => (event: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: event.target.value }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (signUp.loading) return;
    void store.signUp({ email: form.email.trim(), password: form.password, name: form.name.trim(), companyName: invited ? undefined : form.companyName.trim() });
  };

  if (signUp.stage === 'SignUpSuccess') {
    return (
      <div ref={ref}>
        <h1>Check your email</h1>
        <p role="status" tabIndex={-1}>
          Your account was created. We sent an activation link to <strong>{signUp.email}</strong>. Open it to activate your account.
        </p>
        <p className="gh-footer">
          <RouteLink to={routes.loginUrl}>Back to sign in</RouteLink>
        </p>
      </div>
    );
  }

  if (vendor && !vendor.allowSignUps) {
    return (
      <div ref={ref}>
        <h1>Create your account</h1>
        <p>Sign-up is not available. Ask an administrator of your organization for an invitation.</p>
        <p className="gh-footer">
          <RouteLink to={routes.loginUrl}>Back to sign in</RouteLink>
        </p>
      </div>
    );
  }

  const strategies = vendor?.signUpStrategies;
  if (signUp.stage === 'VerifyPhone' || strategies?.phoneNumber.enabled || strategies?.email.required === false) {
    return (
      <Suspense fallback={<p role="status">Loading...</p>}>
        <StrategySignUpForm />
      </Suspense>
    );
  }

  return (
    <div ref={ref}>
      <h1>Create your account</h1>
      <form onSubmit={onSubmit} aria-busy={signUp.loading}>
        <Field label="Name" name="name" autoComplete="name" required value={form.name} onChange={update('name')} />
        {!invited && <Field label="Company name" name="companyName" autoComplete="organization" required value={form.companyName} onChange={update('companyName')} />}
        <Field label="Email" type="email" name="email" autoComplete="email" required value={form.email} onChange={update('email')} />
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
        <ErrorAlert message={signUp.error} />
        <SubmitButton busy={signUp.loading}>Sign up</SubmitButton>
      </form>
      <p className="gh-footer">
        Already have an account? <RouteLink to={routes.loginUrl}>Sign in</RouteLink>
      </p>
    </div>
  );
}
