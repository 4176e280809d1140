/**
 * Server errors in the user's language. The API answers in English (seed 000 section 8); a known
 * errorCode, or a known sentence of the catalogue, is worded from the login box's catalog, and
 * anything else is shown as the server said it. Errors that name a field go to that field in words
 * a person uses: never "email: Invalid email address".
 */
import { ErrorCodes, ErrorMessages, SelfServiceErrorCodes } from '@gatehouse/shared';
import type { LoginBoxI18n, MessageKey } from '../use-i18n';

export interface ErrorView {
  /** The form field the error belongs to (its `name`), if any. */
  field?: string;
  text: string;
  code?: string;
}

const BY_CODE: Partial<Record<string, MessageKey>> = {
  [ErrorCodes.generic]: 'errors.generic',
  [ErrorCodes.payloadTooLarge]: 'errors.tooLarge',
  [ErrorCodes.invalidCredentials]: 'errors.invalidCredentials',
  [ErrorCodes.userNotVerified]: 'errors.userNotVerified',
  [ErrorCodes.invalidActivationToken]: 'errors.invalidActivationLink',
  [ErrorCodes.signUpDisabled]: 'errors.signUpDisabled',
  [ErrorCodes.userDisabled]: 'errors.userDisabled',
  [ErrorCodes.accountLocked]: 'errors.accountLocked',
  [ErrorCodes.invalidUnlockToken]: 'errors.invalidUnlockLink',
  [ErrorCodes.invalidRecoveryCode]: 'errors.invalidRecoveryCode',
  [ErrorCodes.invalidResetToken]: 'errors.invalidResetLink',
  [ErrorCodes.invalidResetCode]: 'errors.invalidCode',
  [ErrorCodes.invalidMagicLink]: 'errors.invalidMagicLink',
  [ErrorCodes.invalidPasswordlessCode]: 'errors.invalidCode',
  [ErrorCodes.invalidInvitationCode]: 'errors.invalidCode',
  [ErrorCodes.invalidPhoneCode]: 'errors.invalidCode',
  [SelfServiceErrorCodes.invalidActivationCode]: 'errors.invalidCode',
  [ErrorCodes.localLoginDisabled]: 'errors.localLoginDisabled',
  [ErrorCodes.invitationCodeRequired]: 'errors.invitationCodeRequired',
  [ErrorCodes.invalidImpersonationToken]: 'errors.invalidImpersonationLink',
  [ErrorCodes.captchaRequired]: 'errors.captchaRequired',
  [ErrorCodes.captchaFailed]: 'errors.captchaFailed',
  [ErrorCodes.captchaUnavailable]: 'errors.captchaUnavailable',
  [ErrorCodes.invalidMfaToken]: 'errors.mfaSessionExpired',
  [ErrorCodes.passkeyNotFound]: 'errors.passkeyNotRegistered',
  [ErrorCodes.passkeyChallengeInvalid]: 'errors.passkeyExpired',
};

/** Sentences of the seed's catalogue and of the API that reach the box without their code. */
const BY_MESSAGE: Partial<Record<string, MessageKey>> = {
  [ErrorMessages.generic]: 'errors.generic',
  [ErrorMessages.requestTooLarge]: 'errors.tooLarge',
  [ErrorMessages.unknown]: 'errors.unknown',
  [ErrorMessages.recoveryEmail]: 'errors.recoveryEmail',
  [ErrorMessages.recoverySms]: 'errors.recoverySms',
  [ErrorMessages.verifyPasswordSms]: 'errors.verifyPasswordSms',
  [ErrorMessages.recoveryStrategy]: 'errors.recoveryStrategy',
  [ErrorMessages.noRecoveryMethods]: 'errors.noRecoveryMethods',
  [ErrorMessages.sessionIdMissing]: 'errors.recoverySessionMissing',
  [ErrorMessages.invalidSmsResponse]: 'errors.unknown',
  [ErrorMessages.failedToAuthenticate]: 'errors.failedToAuthenticate',
  [ErrorMessages.invitationInvalid]: 'errors.invitationInvalid',
  'Invalid email or password': 'errors.invalidCredentials',
  'Invalid code, please try again': 'errors.invalidMfaCode',
  'The code is invalid or has expired': 'errors.invalidCode',
  'Invalid recovery code': 'errors.invalidRecoveryCode',
  'Security key verification failed, please try again': 'errors.securityKeyFailed',
  'The verification session expired, please sign in again': 'errors.mfaSessionExpired',
  'The sign-in link is invalid or has expired': 'errors.invalidMagicLink',
  'The password reset link is invalid or has expired': 'errors.invalidResetLink',
  'The activation link is invalid or has expired': 'errors.invalidActivationLink',
  'The unlock link is invalid or has expired': 'errors.invalidUnlockLink',
  'The impersonation link is invalid or has expired': 'errors.invalidImpersonationLink',
  'This passkey is not registered': 'errors.passkeyNotRegistered',
  'The identity provider could not be reached': 'errors.idpUnreachable',
  'Email is required': 'errors.field.email.required',
  'Passwords do not match': 'errors.field.confirm.mismatch',
};

/**
 * The box's own refusals, which carry the server's code (captchaRequired) but say more precisely
 * what went wrong: their sentence wins over the code. From captcha/recaptcha.ts (its own chunk, so
 * its constants are not imported here; a test keeps them in step).
 */
const LOCAL_MESSAGES: Partial<Record<string, MessageKey>> = {
  'The captcha could not be loaded. Check your connection or allow it in your content blocker, then try again.': 'errors.captchaLoad',
  'The captcha check could not be completed. Please try again.': 'errors.captchaExecute',
};

/** Field names in the API's validation messages, and the words for "this is not valid" of each. */
const FIELD_WORDS: Partial<Record<string, { field: string; key: MessageKey }>> = {
  email: { field: 'email', key: 'errors.field.email.invalid' },
  username: { field: 'email', key: 'errors.field.username.invalid' },
  password: { field: 'password', key: 'errors.field.password.invalid' },
  newPassword: { field: 'password', key: 'errors.field.password.invalid' },
  name: { field: 'name', key: 'errors.field.name.invalid' },
  companyName: { field: 'companyName', key: 'errors.field.companyName.invalid' },
  phoneNumber: { field: 'phoneNumber', key: 'errors.field.phoneNumber.invalid' },
  code: { field: 'code', key: 'errors.field.code.invalid' },
  otcToken: { field: 'code', key: 'errors.field.code.invalid' },
};

/** The API's password policy sentences (services/platform/passwords.ts), worded from the catalog. */
function passwordPolicyText(i18n: LoginBoxI18n, message: string): string {
  let match = /at least (\d+) characters/.exec(message);
  if (match) return i18n.t('errors.password.tooShort', { min: Number(match[1]) });
  match = /at most (\d+) characters/.exec(message);
  if (match) return i18n.t('errors.password.tooLong', { max: Number(match[1]) });
  match = /contain at least (\d+) of/.exec(message);
  if (match) return i18n.t('errors.password.classes', { count: Number(match[1]) });
  if (/required/i.test(message)) return i18n.t('errors.field.password.required');
  return message;
}

/**
 * What to show for a failed call: `message` and `code` from the snapshot (`errorContext` when known).
 * `fields` names the fields this form has; an error of another field stays a form-level message.
 */
export function describeError(
  i18n: LoginBoxI18n,
  message: string | null | undefined,
  code?: string,
  fields: readonly string[] = [],
  context?: Record<string, unknown>,
): ErrorView | null {
  if (!message) return null;
  const has = (field: string) => fields.includes(field);
  const view = (text: string, field?: string): ErrorView => ({ text, ...(field && has(field) ? { field } : {}), ...(code ? { code } : {}) });
  if (code === ErrorCodes.validation) {
    // "email: Invalid email address, password: Too small": the first part naming a known field.
    for (const [, name] of message.matchAll(/(?:^|,\s*)([A-Za-z][\w.]*):\s/g)) {
      const words = FIELD_WORDS[name!.split('.')[0]!];
      if (words) return view(i18n.t(words.key), words.field);
    }
    return view(i18n.t('errors.checkForm'));
  }
  if (code === ErrorCodes.passwordPolicy) return view(passwordPolicyText(i18n, message), 'password');
  if (code === ErrorCodes.breachedPassword) return view(i18n.t('errors.breachedPassword'), 'password');
  if (code === ErrorCodes.userAlreadyExists) return view(i18n.t('errors.userAlreadyExists'), 'email');
  if (code === ErrorCodes.rateLimited) {
    const seconds = typeof context?.retryAfterSeconds === 'number' ? context.retryAfterSeconds : null;
    return view(seconds ? i18n.t('errors.rateLimitedFor', { minutes: Math.max(1, Math.ceil(seconds / 60)) }) : i18n.t('errors.rateLimited'));
  }
  const key = LOCAL_MESSAGES[message] || (code && BY_CODE[code]) || BY_MESSAGE[message];
  if (key) return view(i18n.t(key));
  // Phrased by the server with a number: the too-many-attempts lockout.
  const minutes = /^Too many attempts\. Try again in (\d+) minute/.exec(message);
  if (minutes) return view(i18n.t('errors.rateLimitedFor', { minutes: Number(minutes[1]) }));
  return view(message);
}
