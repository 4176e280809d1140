import { useLoginBox } from '../../../context';
import { useAuth } from '../../../use-auth';
import { RouteLink } from '../../../components/RouteLink';
import { passkeyLogin } from '../../passkeys/ceremonies';
import { useI18n } from '../../../use-i18n';

/**
 * On the verify step: the user's other enrolled factors whose method is on, text message and
 * security key. `primary` when the account has no authenticator app (these are then the way in).
 */
export function OtherFactors({ primary }: { primary: boolean }) {
  const { store, routes } = useLoginBox();
  const { mfa } = useAuth(store);
  const { t } = useI18n();
  // An empty list (older servers) does not turn anything off.
  const on = (strategy: string) => mfa.mfaStrategies.length === 0 || mfa.mfaStrategies.some((s) => s.strategy === strategy && s.isActive);
  const phone = (mfa.mfaDevices?.phones.length ?? 0) > 0 && on('SMS');
  const key = (mfa.mfaDevices?.webauthn.length ?? 0) > 0 && (on('WebAuthnPlatform') || on('WebAuthnCrossPlatform'));
  const kind = primary ? 'gh-button' : 'gh-text-button';
  // Only this device's own authenticator (fingerprint, face, screen lock) enrolled: say so.
  const thisDevice = mfa.mfaDevices?.webauthn.every((d) => d.deviceType === 'internal') === true;
  return (
    <>
      {primary ? <p>{t('mfa.others.intro')}</p> : null}
      {key ? (
        <button type="button" className={kind} onClick={() => void store.verifyMfaWebAuthn(passkeyLogin)} disabled={mfa.loading}>
          {thisDevice ? t('mfa.others.thisDevice') : t('mfa.others.securityKey')}
        </button>
      ) : null}
      {phone ? (
        <button type="button" className={key && primary ? 'gh-button gh-secondary' : kind} onClick={() => void store.sendMfaSmsCode()} disabled={mfa.loading}>
          {primary ? t('mfa.others.sms') : t('mfa.others.smsInstead')}
        </button>
      ) : null}
      {phone && mfa.context === 'login' ? <RouteLink to={routes.resetPhoneNumberUrl}>{t('mfa.lostPhone')}</RouteLink> : null}
    </>
  );
}
