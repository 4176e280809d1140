import { useEffect, useState } from 'react';
import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useI18n } from '../../use-i18n';

/**
 * "Continue with <provider>" for every enabled social login provider (seed 000 section 1). Loaded
 * lazily, and only when the vendor has providers, so sign-in pages without them never fetch it.
 */
export function SocialLoginButtons() {
  const { store } = useLoginBox();
  const { social } = useAuth(store);
  const { t } = useI18n();
  const [chosen, setChosen] = useState<string | null>(null);

  useEffect(() => {
    void store.loadSocialProviders();
  }, [store]);

  const providers = social?.providers ?? [];
  const busy = social?.loading === true;
  // The error is a failed load, a refused start, or the message a failed sign-in left (seed 4.2).
  if (providers.length === 0 && !social?.error) return null;
  return (
    <div className="gh-social" role="group" aria-label={t('social.group')}>
      <ErrorAlert message={social?.error} />
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
          {busy && chosen === provider.id ? t('social.opening', { provider: provider.displayName }) : t('social.continueWith', { provider: provider.displayName })}
        </button>
      ))}
    </div>
  );
}
