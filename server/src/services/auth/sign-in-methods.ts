/**
 * How a sign-in proved the user, in the words the audit log shows (issue 11 section 4: every sign-in
 * records its method). Derived from the session's amr where that is enough; a sign-in that waited for
 * a second factor keeps its first method on the mfaToken (migration 024) so the finished sign-in
 * still names it.
 */
import { AuthMethods, MfaAuthMethods } from '@gatehouse/shared/wire';

export const SignInMethods = {
  password: 'password',
  magicLink: 'magic link',
  emailCode: 'emailed code',
  smsCode: 'SMS code',
  passkey: 'passkey',
  social: 'social login',
  sso: 'SSO',
  hostedLogin: 'hosted login',
  activation: 'activation link',
  activationCode: 'activation code',
  invitation: 'invitation',
  passwordReset: 'password reset',
} as const;
export type SignInMethod = (typeof SignInMethods)[keyof typeof SignInMethods];

/** The first factor a session's amr names (before any second factor), or null when it names none. */
export function methodOfAmr(amr: readonly string[]): SignInMethod | null {
  if (amr.includes('sso')) return SignInMethods.sso;
  if (amr.includes('social')) return SignInMethods.social;
  if (amr.includes(AuthMethods.password)) return SignInMethods.password;
  if (amr.includes('mfa')) return null; // only second-factor methods follow
  if (amr.includes(AuthMethods.sms)) return SignInMethods.smsCode;
  if (amr.includes('email')) return amr.includes(AuthMethods.otp) ? SignInMethods.emailCode : SignInMethods.magicLink;
  if (amr.includes(AuthMethods.hardwareKey)) return SignInMethods.passkey;
  return null;
}

const SECOND_FACTORS: Record<string, string> = {
  [AuthMethods.otp]: 'authenticator app',
  [AuthMethods.sms]: 'SMS code',
  [AuthMethods.hardwareKey]: 'security key',
  [MfaAuthMethods.email]: 'emailed code',
  [MfaAuthMethods.recoveryCode]: 'recovery code',
};

/** The second factor an amr with 'mfa' names ('authenticator app', 'recovery code', ...), else null. */
export function secondFactorOfAmr(amr: readonly string[]): string | null {
  if (!amr.includes('mfa')) return null;
  const after = amr.slice(amr.indexOf('mfa') + 1);
  for (const value of after) if (SECOND_FACTORS[value]) return SECOND_FACTORS[value]!;
  return 'second factor';
}
