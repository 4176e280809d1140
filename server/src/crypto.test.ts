import { expect, it } from 'vitest';
import { newId, newSecret } from './crypto';

it('cuts every id and secret from fresh random bytes, across many refills of its buffer', () => {
  // 3,000 ids and 3,000 secrets take 144 KiB: the 4 KiB buffer is refilled 36 times, at every possible cut.
  const ids = Array.from({ length: 3000 }, () => newId());
  const secrets = Array.from({ length: 3000 }, (_, i) => (i % 7 === 0 ? newId() && newSecret() : newSecret()));
  for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
  for (const secret of secrets) expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(new Set(ids).size).toBe(ids.length);
  expect(new Set(secrets).size).toBe(secrets.length);
  // No cut is a run of zeros (what a used, zeroed part of the buffer would give).
  expect(ids.filter((id) => /^0+$/.test(id))).toEqual([]);
  expect(secrets.filter((s) => /^A+$/.test(s))).toEqual([]);
  // Each of the 16 bytes of an id takes all values: the bytes are random, not a counter.
  const firstBytes = new Set(ids.map((id) => id.slice(0, 2)));
  expect(firstBytes.size).toBeGreaterThan(200);
});
