/**
 * The password policy (GET passwords/config; the vendor's public config carries the same) checked in
 * the browser as the server checks it (server/src/services/platform/passwords.ts), so the user sees
 * each rule before failing it, and a refused password never needs a round trip.
 */
import type { PasswordConfig } from '@gatehouse/shared';

/** The optional character classes, in the server's order. */
export const OPTIONAL_TESTS: readonly RegExp[] = [/\p{Ll}/u, /\p{Lu}/u, /\p{Nd}/u, /[^\p{L}\p{Nd}\s]/u];

export interface PolicyCheck {
  /** Long enough (and not too long). */
  length: boolean;
  tooLong: boolean;
  /** How many of the optional classes the password has. */
  classes: number;
  /** A passphrase (allowPassphrases, at least minPhraseLength) skips the class rule. */
  passphrase: boolean;
  ok: boolean;
}

export function checkPolicy(password: string, config: PasswordConfig): PolicyCheck {
  const length = [...password].length;
  const classes = OPTIONAL_TESTS.filter((test) => test.test(password)).length;
  const passphrase = config.allowPassphrases && length >= config.minPhraseLength;
  const tooLong = length > config.maxLength;
  const longEnough = length >= config.minLength;
  return { length: longEnough && !tooLong, tooLong, classes, passphrase, ok: longEnough && !tooLong && (passphrase || classes >= config.minOptionalTestsToPass) };
}
