import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { useI18n } from '../../use-i18n';
import { passkeyLogin } from './ceremonies';

/** "Sign in with a passkey", full width under the "or" divider: no password; with a typed email only that user's passkeys are offered. */
export function PasskeyLoginButton({ email }: { email: string }) {
  const { store } = useLoginBox();
  const { login } = useAuth(store);
  const { t } = useI18n();
  return (
    <button type="button" className="gh-button gh-secondary gh-block" disabled={login.loading} onClick={() => void store.loginWithPasskey(passkeyLogin, email.trim() || undefined)}>
      <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
        <circle cx="9" cy="8" r="4" fill="none" stroke="currentColor" strokeWidth="1.8" />
        <path d="M2 20c0-3.3 3.1-6 7-6 1.2 0 2.3.2 3.2.7M17 11a3 3 0 1 0 0 6 3 3 0 0 0 0-6Zm0 6v5m0-2h2" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
      </svg>
      <span>{t('passkeys.signIn')}</span>
    </button>
  );
}
