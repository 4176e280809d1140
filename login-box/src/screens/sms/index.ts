/**
 * The SMS screens as one lazy chunk (one file, one integrity entry in the manifest fetched before
 * the login form): the SMS code steps of the login screen and the sign-up form for other strategies.
 */
export { default as SmsOtcStep } from './SmsOtcStep';
export { default as StrategySignUpForm } from './StrategySignUpForm';
