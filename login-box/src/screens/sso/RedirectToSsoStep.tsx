import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { useFocusFirst } from '../../components/use-focus-first';

/**
 * The redirectToSSO step (seed 000 sections 2.2, 4.2): preLogin found single sign-on for the email,
 * so the browser goes to the organization's identity provider after 2 s. Loaded lazily: only
 * identifiers at an SSO domain reach it.
 */
export default function RedirectToSsoStep() {
  const { store } = useLoginBox();
  const { login } = useAuth(store);
  const ref = useFocusFirst<HTMLDivElement>(login.step);
  return (
    <div ref={ref}>
      <h1>Single sign-on</h1>
      <p>
        <strong>{login.email}</strong> signs in with your organization&apos;s identity provider.
      </p>
      <p role="status" tabIndex={-1} className="gh-status">
        <span className="gh-spinner" aria-hidden="true" /> Redirecting you there...
      </p>
      <button type="button" className="gh-text-button" onClick={() => store.resetLogin()}>
        Use a different email
      </button>
    </div>
  );
}
