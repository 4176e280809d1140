/**
 * Sign-up strategies (seed 000 section 3): email and phoneNumber, each enabled and required. Plain
 * data, no zod: the server and the browser's sign-up screen read the same rules from here.
 */

/** One strategy of GET .../signUp/strategies. */
export interface SignUpStrategy {
  enabled: boolean;
  required: boolean;
}

export interface SignUpStrategies {
  email: SignUpStrategy;
  phoneNumber: SignUpStrategy;
}

/** Seed 000 section 3: email enabled and required, phone disabled. */
export const DEFAULT_SIGNUP_STRATEGIES: SignUpStrategies = { email: { enabled: true, required: true }, phoneNumber: { enabled: false, required: false } };

/** The error of a phone sign-up without a phone number (seed 000 section 5), on both sides. */
export const PHONE_SIGNUP_REQUIRED_MESSAGE = 'Phone number is required for phone number signup';

/**
 * Whether sign-up by phone number (`POST .../signUp/phoneNumber`) is open. It creates accounts
 * without an email address, so it is open only while the email strategy is not required; with email
 * required, the phone number is a field of the email sign-up instead.
 */
export function phoneSignUpOpen(strategies: SignUpStrategies): boolean {
  return strategies.phoneNumber.enabled && !strategies.email.required;
}
