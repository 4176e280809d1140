import { describe, expect, it } from 'vitest';
import { isSafePattern, MAX_MATCHED_LENGTH, safeRegExp } from './safe-regex';

describe('safe patterns', () => {
  it('accepts the patterns rules are written with', () => {
    for (const pattern of ['^[a-z0-9._%+-]+@acme\\.io$', '^(admin|owner)$', 'beta', '^user-\\d{3,}$', '(com|org)?$', '^[^@]+@[^@]+$', '(?:x)?y*', '[(*+]+']) {
      expect(isSafePattern(pattern), pattern).toBe(true);
    }
  });
  it('refuses nested repetition, repeated alternation, back-references and too many quantifiers', () => {
    for (const pattern of ['^(a+)+$', '(a*)*', '(a|aa)+', '((a|b))*', '(?:\\w+\\.)+com', '(a+){3}', '(\\w+)\\1', '(?<x>a)\\k<x>', 'a*a*a*b', `a?${'a?'.repeat(6)}a*a*b`, '^a|a*a*b']) {
      expect(isSafePattern(pattern), pattern).toBe(false);
    }
  });
  it('refuses patterns over 256 characters and unbalanced groups', () => {
    expect(isSafePattern('a'.repeat(256))).toBe(true);
    expect(isSafePattern('a'.repeat(257))).toBe(false);
    expect(isSafePattern('a)')).toBe(false);
  });
  it('answers undefined for an invalid expression, and for a non-string', () => {
    expect(safeRegExp('([')).toBeUndefined();
    expect(safeRegExp(5)).toBeUndefined();
    expect(safeRegExp('^a$')?.test('a')).toBe(true);
  });
  it('the worst patterns it accepts run in bounded time on the longest attribute it matches', () => {
    // Unguarded, a*a*a*b takes seconds on 256 characters; these are the costliest it lets through.
    for (const pattern of ['a*a*b', '^a*a*a*b', `^${'a?'.repeat(8)}a*a*b`, '^\\w*a*\\w*b', '.*=.*']) {
      const expression = safeRegExp(pattern);
      expect(expression, pattern).toBeDefined();
      const started = performance.now();
      expect(expression?.test('a'.repeat(MAX_MATCHED_LENGTH))).toBe(false);
      expect(performance.now() - started, pattern).toBeLessThan(1500);
    }
  });
});
