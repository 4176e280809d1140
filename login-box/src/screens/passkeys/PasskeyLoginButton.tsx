import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { passkeyLogin } from './ceremonies';

/** "Sign in with a passkey": no password; with a typed email only that user's passkeys are offered. */
export function PasskeyLoginButton({ email }: { email: string }) {
  const { store } = useLoginBox();
  const { login } = useAuth(store);
  return (
    <button type="button" className="gh-button gh-secondary" disabled={login.loading} onClick={() => void store.loginWithPasskey(passkeyLogin, email || undefined)}>
      Sign in with a passkey
    </button>
  );
}
