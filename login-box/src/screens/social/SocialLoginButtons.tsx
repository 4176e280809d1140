import { useEffect, useState } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { ErrorAlert } from '../../components/ErrorAlert';

/**
 * "Continue with <provider>" for every enabled social login provider (seed 000 section 1). Loaded
 * lazily, and only when the vendor has providers, so sign-in pages without them never fetch it.
 */
export function SocialLoginButtons() {
  const { store } = useLoginBox();
  const { social } = useAuth(store);
  const [chosen, setChosen] = useState<string | null>(null);

  useEffect(() => {
    void store.loadSocialProviders();
  }, [store]);

  const providers = social?.providers ?? [];
  const busy = social?.loading === true;
  // The error is a failed load, a refused start, or the message a failed sign-in left (seed 4.2).
  if (providers.length === 0 && !social?.error) return null;
  return (
    <section className="gh-social" aria-label="Sign in with another account">
      <ErrorAlert message={social?.error} />
      <p className="gh-hint">or</p>
      {providers.map((provider) => (
        <button
          key={provider.id}
          type="button"
          className="gh-button gh-secondary"
          disabled={busy}
          aria-busy={busy && chosen === provider.id}
          onClick={() => {
            setChosen(provider.id);
            void store.startSocialLogin(provider.id);
          }}
        >
          {busy && chosen === provider.id ? `Opening ${provider.displayName}...` : `Continue with ${provider.displayName}`}
        </button>
      ))}
    </section>
  );
}
