import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { EnrollAuthenticatorStep } from './EnrollAuthenticatorStep';
import { MfaEmailCodeStep } from './MfaEmailCodeStep';
import { MfaVerifyStep } from './MfaVerifyStep';
import { RecoverTwoFactorStep } from './RecoverTwoFactorStep';
import { RecoveryCodesStep } from './RecoveryCodesStep';

/** The MFA part of sign-in: login steps loginWithTwoFactor, recoverTwoFactor and forceTwoFactor. */
export function MfaLoginScreen() {
  const { store } = useLoginBox();
  const { login, mfa } = useAuth(store);

  let body;
  if (mfa.step === 'recoveryCode') body = <RecoveryCodesStep />;
  else if (login.step === 'recoverTwoFactor') body = <RecoverTwoFactorStep />;
  else if (login.step === 'forceTwoFactor') body = <EnrollAuthenticatorStep />;
  else if (mfa.step === 'emailVerifyCode') body = <MfaEmailCodeStep />;
  else body = <MfaVerifyStep onBack={() => store.resetLogin()} />;

  const title = login.step === 'forceTwoFactor' || mfa.step === 'recoveryCode' ? 'Set up two-factor authentication' : 'Two-factor authentication';
  return (
    <>
      <h1>{title}</h1>
      {login.step === 'forceTwoFactor' && mfa.step !== 'recoveryCode' ? <p>Your organization requires a second factor for {login.email}.</p> : null}
      {body}
    </>
  );
}
