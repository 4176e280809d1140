/**
 * Values of the access token's `amr` and `acr` claims. Plain data, no zod: the browser's step-up
 * check (seed 000 section 4.9) compares against these.
 */
export const AuthMethods = {
  password: 'pwd',
  mfa: 'mfa',
  otp: 'otp',
  sms: 'sms',
  hardwareKey: 'hwk',
} as const;

export const AuthContextClasses = {
  /** Signed in with a password only. */
  password: 'urn:gatehouse:acr:pwd',
  /** Signed in with a second factor: the "multi-factor policy identifier" of seed 000 section 4.9. */
  mfa: 'urn:gatehouse:acr:mfa',
} as const;
