import { createHash } from 'node:crypto';
import { ErrorCodes } from '@gatehouse/shared/wire';
import type { Config } from '../../config';
import { AppError } from '../../errors';
import { BREACHED_PASSWORDS } from './breached-passwords.list';

/** Seed 000 section 9: the Bloom filter's default false-positive rate. */
export const DEFAULT_ERROR_RATE = 1e-4;

/** A Bloom filter over strings: k positions per item from two SHA-256-derived hashes (Kirsch-Mitzenmacher double hashing). */
export interface BloomFilter {
  /** Bits in the filter. */
  readonly m: number;
  /** Positions set per item. */
  readonly k: number;
  add(item: string): void;
  /** False means certainly not added; true means added, or a false positive (about the error rate). */
  has(item: string): boolean;
}

/** Optimal size for n items at false-positive rate p: m = -n ln p / (ln 2)^2 bits, k = (m / n) ln 2 hashes. */
export function bloomParameters(n: number, p: number): { m: number; k: number } {
  if (!(n > 0) || !(p > 0 && p < 1)) throw new Error(`Bloom filter needs n > 0 and 0 < p < 1, got n=${n}, p=${p}`);
  const m = Math.ceil((-n * Math.log(p)) / Math.LN2 ** 2);
  const k = Math.max(1, Math.round((m / n) * Math.LN2));
  return { m, k };
}

/** An empty filter sized for `n` items at error rate `p`. */
export function createBloomFilter(n: number, p = DEFAULT_ERROR_RATE): BloomFilter {
  const { m, k } = bloomParameters(n, p);
  const bits = new Uint8Array(Math.ceil(m / 8));

  /** Position i is (h1 + i * h2) mod m; h1 and h2 come from the first two 48-bit words of SHA-256(item). */
  function positions(item: string): number[] {
    const digest = createHash('sha256').update(item, 'utf8').digest();
    // 48-bit words are exact in a double, and (h1 + i * h2) stays far below 2^53 for any sane m and k.
    const h1 = digest.readUIntBE(0, 6) % m;
    // A zero step would put all k positions on one bit.
    const h2 = digest.readUIntBE(6, 6) % m || 1;
    const out: number[] = [];
    for (let i = 0; i < k; i += 1) out.push((h1 + i * h2) % m);
    return out;
  }

  return {
    m,
    k,
    add(item) {
      for (const pos of positions(item)) bits[pos >> 3]! |= 1 << (pos & 7);
    },
    has(item) {
      return positions(item).every((pos) => (bits[pos >> 3]! & (1 << (pos & 7))) !== 0);
    },
  };
}

let shipped: BloomFilter | null = null;

/** The filter of the shipped list (built on first use, ~50 ms; about 120 KB instead of a 49k-entry set). */
export function breachedPasswordFilter(): BloomFilter {
  if (!shipped) {
    const list = BREACHED_PASSWORDS.split('\n');
    const filter = createBloomFilter(list.length);
    for (const password of list) filter.add(password);
    shipped = filter;
  }
  return shipped;
}

/** Whether a password is on the shipped breached list (also in lower case, as the list mostly is). */
export function isBreachedPassword(password: string): boolean {
  const filter = breachedPasswordFilter();
  return filter.has(password) || filter.has(password.toLowerCase());
}

/** The refusal of a new password on the breached list (sign-up, activation, reset, change), or null. */
export function breachedPasswordError(password: string, policy: Pick<Config['passwordPolicies'], 'rejectBreached'>): AppError | null {
  if (!policy.rejectBreached || !isBreachedPassword(password)) return null;
  return new AppError(ErrorCodes.breachedPassword, 400, 'This password has appeared in a data breach and cannot be used. Choose a different one.');
}
