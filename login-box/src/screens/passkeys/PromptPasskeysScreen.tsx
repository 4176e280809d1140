import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { ErrorAlert } from '../../components/ErrorAlert';
import { passkeyRegistration } from './ceremonies';

/** The promptPasskeys step after sign-in (seed 000 section 4.2): add a passkey, not now, or never ask again. */
export function PromptPasskeysScreen() {
  const { store } = useLoginBox();
  const { passkeys } = useAuth(store);

  if (passkeys.registered) {
    return (
      <>
        <h1>Passkey added</h1>
        <p role="status">Next time, sign in with your passkey: no password needed.</p>
        <button type="button" className="gh-button" onClick={() => store.dismissPasskeyPrompt()}>
          Continue
        </button>
      </>
    );
  }

  return (
    <>
      <h1>Use a passkey next time</h1>
      <p>A passkey lets you sign in with your fingerprint, face, screen lock or security key instead of a password.</p>
      <ErrorAlert message={passkeys.error} />
      <button type="button" className="gh-button" disabled={passkeys.loading} aria-busy={passkeys.loading} onClick={() => void store.registerPasskey(passkeyRegistration)}>
        {passkeys.loading ? <span className="gh-spinner" aria-hidden="true" /> : null}
        <span>Add a passkey</span>
      </button>
      <button type="button" className="gh-button gh-secondary" disabled={passkeys.loading} onClick={() => store.dismissPasskeyPrompt()}>
        Not now
      </button>
      <button type="button" className="gh-text-button" disabled={passkeys.loading} onClick={() => store.dismissPasskeyPrompt({ dontShowAgain: true })}>
        Don&apos;t show again
      </button>
    </>
  );
}
