import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BREACHED_PASSWORDS } from './breached-passwords.list';
import { DEFAULT_ERROR_RATE, bloomParameters, breachedPasswordFilter, createBloomFilter, isBreachedPassword } from './breached-passwords';

describe('Bloom filter', () => {
  it('sizes m and k from n and p (m = -n ln p / ln2^2, k = m/n ln 2)', () => {
    expect(bloomParameters(1000, 1e-4)).toEqual({ m: 19171, k: 13 });
    expect(() => bloomParameters(0, 1e-4)).toThrow();
    expect(() => bloomParameters(10, 1)).toThrow();
  });

  it('finds every password of the shipped list', () => {
    const list = BREACHED_PASSWORDS.split('\n');
    expect(list.length).toBeGreaterThan(40_000);
    const filter = breachedPasswordFilter();
    expect(list.filter((p) => !filter.has(p))).toEqual([]);
    expect(isBreachedPassword('password')).toBe(true);
    expect(isBreachedPassword('Password')).toBe(true);
    expect(isBreachedPassword('correct horse battery')).toBe(false);
  });

  it('keeps the false-positive rate near the seed default of 1e-4 on random strings', () => {
    const filter = breachedPasswordFilter();
    const trials = 200_000;
    let hits = 0;
    for (let i = 0; i < trials; i += 1) if (filter.has(randomBytes(12).toString('base64url'))) hits += 1;
    const rate = hits / trials;
    // Expected ~20 hits; under 4 or over 80 would be far outside chance for a filter sized for 1e-4.
    expect(rate).toBeLessThan(DEFAULT_ERROR_RATE * 4);
    expect(rate).toBeGreaterThan(DEFAULT_ERROR_RATE / 5);
  });

  it('a small filter filled to its n stays near p', () => {
    const filter = createBloomFilter(5000, 1e-2);
    for (let i = 0; i < 5000; i += 1) filter.add(`item-${i}`);
    let hits = 0;
    for (let i = 0; i < 20_000; i += 1) if (filter.has(`other-${i}`)) hits += 1;
    expect(hits / 20_000).toBeGreaterThan(0.002);
    expect(hits / 20_000).toBeLessThan(0.02);
  });
});
