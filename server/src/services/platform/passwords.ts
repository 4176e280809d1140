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

/** libuv's thread pool size: UV_THREADPOOL_SIZE when it is a valid one (1 to 1024), else libuv's default of 4. */
function threadPoolSize(): number {
  const size = Number(process.env.UV_THREADPOOL_SIZE);
  return Number.isInteger(size) && size >= 1 && size <= 1024 ? size : 4;
}

/**
 * How many argon2 jobs run at once. @node-rs/argon2 runs each on libuv's thread pool, which token
 * signature checks (jwt-verify.ts), RS256 signatures (keys.ts; ES256 ones have a thread of their
 * own) and file reads share. A burst of sign-ins would otherwise hold every thread for the tens of
 * milliseconds a hash takes, and each request that checks a token would wait behind them. One
 * thread stays free for that work; further hashes queue
 * here, first come first served. With two left free, bench runs on 2 cores measured 98, 81 and 110
 * sign-ins/s against 108, 118 and 118 with no limit (a freed slot waits for the event loop to start
 * the next hash, and its core may idle meanwhile); with one, medians of 114 and 114 over five runs
 * each. With more cores than UV_THREADPOOL_SIZE - 1, raise UV_THREADPOOL_SIZE (docs/scaling.md).
 */
export const ARGON2_CONCURRENCY = Math.max(1, threadPoolSize() - 1);

let running = 0;
const waiting: (() => void)[] = [];

/** Argon2 jobs on the pool now, and those queued behind them. */
export function argon2Jobs(): { running: number; queued: number } {
  return { running, queued: waiting.length };
}

async function limited<T>(job: () => Promise<T>): Promise<T> {
  if (running < ARGON2_CONCURRENCY) running += 1;
  else await new Promise<void>((resolve) => waiting.push(resolve)); // the finishing job hands over its slot
  try {
    return await job();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

export function hashPassword(password: string): Promise<string> {
  const cost = parameters;
  return limited(() => hash(password, cost));
}

let dummyHash: Promise<string> | null = null;

/**
 * Verifies a password. With no stored hash it still verifies against a dummy, so an unknown
 * email costs the same time as a wrong password and does not reveal which accounts exist.
 */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hashPassword('gatehouse-dummy-password');
    const dummy = await dummyHash;
    await limited(() => verify(dummy, password)).catch(() => false);
    return false;
  }
  return limited(() => verify(stored, password)).catch(() => false);
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
