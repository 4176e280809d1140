import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { useI18n } from '../../use-i18n';
import { ErrorAlert } from '../../components/ErrorAlert';
import { passkeyRegistration } from './ceremonies';

/** The promptPasskeys step after sign-in (seed 000 section 4.2): add a passkey, not now, or never ask again. */
export function PromptPasskeysScreen() {
  const { store } = useLoginBox();
  const { passkeys } = useAuth(store);
  const { t } = useI18n();

  if (passkeys.registered) {
    return (
      <>
        <h1>{t('passkeys.added.title')}</h1>
        <p role="status">{t('passkeys.added.text')}</p>
        <button type="button" className="gh-button gh-block" onClick={() => store.dismissPasskeyPrompt()}>
          {t('common.continue')}
        </button>
      </>
    );
  }

  return (
    <div className="gh-stack">
      <h1>{t('passkeys.prompt.title')}</h1>
      <p>{t('passkeys.prompt.text')}</p>
      <ErrorAlert message={passkeys.error} />
      <button type="button" className="gh-button" disabled={passkeys.loading} aria-busy={passkeys.loading} onClick={() => void store.registerPasskey(passkeyRegistration)}>
        {passkeys.loading ? <span className="gh-spinner" aria-hidden="true" /> : null}
        <span>{t('passkeys.prompt.add')}</span>
      </button>
      <button type="button" className="gh-button gh-secondary" disabled={passkeys.loading} onClick={() => store.dismissPasskeyPrompt()}>
        {t('passkeys.prompt.notNow')}
      </button>
      <button type="button" className="gh-text-button" disabled={passkeys.loading} onClick={() => store.dismissPasskeyPrompt({ dontShowAgain: true })}>
        {t('passkeys.prompt.dontShowAgain')}
      </button>
    </div>
  );
}
