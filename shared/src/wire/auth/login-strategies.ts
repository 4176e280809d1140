/**
 * The vendor login policy's strategies this deployment supports (seed 000 section 1). Plain data, no
 * zod: the browser's preLogin picks the next step from these.
 */
export const LOGIN_STRATEGIES = [
  'EmailAndPassword',
  'MagicLink',
  'Code',
  'UsernameAndPassword',
  'UsernameAndMagicLink',
  'UsernameAndCode',
  'NoLocalAuthentication',
  'SmsCode',
  'SmsCodeV2',
  'UsernameAndSms',
] as const;

export type LoginStrategy = (typeof LOGIN_STRATEGIES)[number];

/** The passwordless kinds of `POST auth v1 passwordless/{type}/...` (seed 000 section 7.2). */
export type PasswordlessType = 'magiclink' | 'code' | 'smscode';

/** The passwordless type a strategy signs in with, or null for a password (or no local) strategy. */
export function passwordlessTypeOf(strategy: string | null | undefined): PasswordlessType | null {
  if (strategy === 'MagicLink' || strategy === 'UsernameAndMagicLink') return 'magiclink';
  if (strategy === 'Code' || strategy === 'UsernameAndCode') return 'code';
  // SmsCode: the user types an email; SmsCodeV2: a phone number; UsernameAndSms: a username.
  if (strategy === 'SmsCode' || strategy === 'SmsCodeV2' || strategy === 'UsernameAndSms') return 'smscode';
  return null;
}

/** Whether the strategy identifies users by username (the others by email). */
export function usesUsername(strategy: string | null | undefined): boolean {
  return typeof strategy === 'string' && strategy.startsWith('Username');
}
