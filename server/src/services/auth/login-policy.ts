import { ErrorCodes, type LoginStrategy } from '@gatehouse/shared/wire';
import { AppError } from '../../errors';

/** The refusal of every local sign-in (password, magic link, code) under NoLocalAuthentication. */
export const localLoginDisabled = () =>
  new AppError(ErrorCodes.localLoginDisabled, 403, 'Sign-in with a password, link or code is turned off for this application; use single sign-on instead');

/** Throws unless the vendor's login policy allows local sign-in (seed 000 section 1: NoLocalAuthentication). */
export function requireLocalLogin(strategy: LoginStrategy): void {
  if (strategy === 'NoLocalAuthentication') throw localLoginDisabled();
}
