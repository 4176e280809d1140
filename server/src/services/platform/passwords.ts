import { hash, verify } from '@node-rs/argon2';
import type { Config } from '../../config';

interface Argon2Parameters {
  readonly algorithm: 2;
  readonly memoryCost: number;
  readonly timeCost: number;
  readonly parallelism: number;
}

/** OWASP argon2id parameters (m=19 MiB, t=2, p=1): every password the server hashes. Algorithm 2 = Argon2id. */
export const ARGON2_PARAMETERS: Argon2Parameters = Object.freeze({ algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 });

/**
 * Still argon2id, at the lowest cost worth the name (m=1 MiB, t=1): what the server's own test
 * suites hash their thousands of fixture passwords with (server/src/test/password-cost.ts), where
 * the production cost was about a third of the test time. A hash records its parameters, so
 * `verify` checks hashes of either cost.
 */
const TEST_PARAMETERS: Argon2Parameters = Object.freeze({ algorithm: 2, memoryCost: 1024, timeCost: 1, parallelism: 1 });

let parameters: Argon2Parameters = ARGON2_PARAMETERS;

/**
 * Switches this process to the test cost ('test') or back ('production'). Only inside a Vitest
 * worker (VITEST set): called anywhere else it throws, so no configuration can lower the cost.
 */
export function setPasswordHashCostForTests(cost: 'test' | 'production'): void {
  if (!process.env.VITEST) throw new Error('setPasswordHashCostForTests is for test suites only');
  parameters = cost === 'test' ? TEST_PARAMETERS : ARGON2_PARAMETERS;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, parameters);
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
