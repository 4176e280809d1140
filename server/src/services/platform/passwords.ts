import { hash, verify } from '@node-rs/argon2';
import type { Config } from '../../config';

/** OWASP argon2id parameters (m=19 MiB, t=2, p=1). Algorithm 2 = Argon2id. */
const ARGON2 = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2);
}

let dummyHash: Promise<string> | null = null;

/**
 * Verifies a password. With no stored hash it still verifies against a dummy, so an unknown
 * email costs the same time as a wrong password and does not reveal which accounts exist.
 */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hashPassword('gatehouse-dummy-password');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}

const OPTIONAL_TESTS: { name: string; test: RegExp }[] = [
  { name: 'a lowercase letter', test: /\p{Ll}/u },
  { name: 'an uppercase letter', test: /\p{Lu}/u },
  { name: 'a number', test: /\p{Nd}/u },
  { name: 'a symbol', test: /[^\p{L}\p{Nd}\s]/u },
];

/** Returns the first policy violation as a sentence for the user, or null when the password is fine. */
export function checkPasswordPolicy(password: string, policy: Config['password']): string | null {
  const length = [...password].length;
  if (length < policy.minLength) return `Password must be at least ${policy.minLength} characters long`;
  if (length > policy.maxLength) return `Password must be at most ${policy.maxLength} characters long`;
  if (policy.allowPassphrases && length >= policy.minPhraseLength) return null;
  const passed = OPTIONAL_TESTS.filter((t) => t.test.test(password)).length;
  if (passed < policy.minOptionalTestsToPass) {
    return `Password must contain at least ${policy.minOptionalTestsToPass} of: ${OPTIONAL_TESTS.map((t) => t.name).join(', ')}`;
  }
  return null;
}
