import { describe, expect, it } from 'vitest';
import { createTtlCache } from './ttl-cache';

function movableClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

describe('ttl cache', () => {
  it('answers a value until its lifetime has passed, then forgets it', () => {
    const clock = movableClock();
    const cache = createTtlCache<string, number>({ clock, ttlMs: 1_000, max: 10 });
    cache.set('a', 1);
    clock.advance(999);
    expect(cache.get('a')).toBe(1);
    clock.advance(1);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('does not extend an entry when it is read', () => {
    const clock = movableClock();
    const cache = createTtlCache<string, string>({ clock, ttlMs: 500, max: 10 });
    cache.set('k', 'v');
    clock.advance(400);
    expect(cache.get('k')).toBe('v');
    clock.advance(100);
    expect(cache.get('k')).toBeUndefined();
  });

  it('holds at most max entries, evicting the oldest set first', () => {
    const clock = movableClock();
    const cache = createTtlCache<number, number>({ clock, ttlMs: 1_000, max: 3 });
    for (const n of [1, 2, 3]) cache.set(n, n);
    cache.set(1, 10); // set again: now the newest
    cache.set(4, 4);
    expect(cache.size).toBe(3);
    expect(cache.get(2)).toBeUndefined();
    expect([cache.get(1), cache.get(3), cache.get(4)]).toEqual([10, 3, 4]);
  });

  it('forgets an entry on delete and every entry on clear', () => {
    const cache = createTtlCache<string, number>({ clock: movableClock(), ttlMs: 1_000, max: 10 });
    cache.set('a', 1);
    cache.set('b', 2);
    cache.delete('a');
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBe(2);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('refuses a lifetime over one second, so revocations reach every process within it', () => {
    expect(() => createTtlCache({ clock: movableClock(), ttlMs: 1_001, max: 10 })).toThrow(RangeError);
    expect(() => createTtlCache({ clock: movableClock(), ttlMs: 0, max: 10 })).toThrow(RangeError);
    expect(() => createTtlCache({ clock: movableClock(), ttlMs: 100, max: 0 })).toThrow(RangeError);
  });
});
