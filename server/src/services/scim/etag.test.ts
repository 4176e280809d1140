import { describe, expect, it } from 'vitest';
import { isScimError } from './errors';
import { assertIfMatch, etagOf, isNotModified } from './etag';

function status(fn: () => void): string {
  try {
    fn();
    return 'passed';
  } catch (err) {
    return isScimError(err) ? `${err.status} ${err.detail}` : 'other';
  }
}

describe('ETags', () => {
  it('are weak and carry the version', () => {
    expect(etagOf(3)).toBe('W/"3"');
    expect(etagOf('a"b')).toBe('W/"ab"');
  });

  it('If-Match: absent or * passes; a listed current tag (weak or strong) passes; otherwise 412', () => {
    const current = etagOf(5);
    expect(status(() => assertIfMatch(undefined, current))).toBe('passed');
    expect(status(() => assertIfMatch('*', current))).toBe('passed');
    expect(status(() => assertIfMatch('W/"5"', current))).toBe('passed');
    expect(status(() => assertIfMatch('"5"', current))).toBe('passed');
    expect(status(() => assertIfMatch('W/"4", W/"5"', current))).toBe('passed');
    expect(status(() => assertIfMatch('W/"4"', current))).toBe('412 The resource has changed since the version given in If-Match');
    expect(status(() => assertIfMatch('garbage', current))).toMatch(/^412/);
  });

  it('If-None-Match: the current tag or * means not modified', () => {
    expect(isNotModified('W/"5"', etagOf(5))).toBe(true);
    expect(isNotModified('*', etagOf(5))).toBe(true);
    expect(isNotModified('W/"4"', etagOf(5))).toBe(false);
    expect(isNotModified(null, etagOf(5))).toBe(false);
  });

  it('refuses an oversized header instead of parsing it', () => {
    expect(status(() => assertIfMatch(`W/"1",${'W/"2",'.repeat(1000)}`, etagOf(1)))).toMatch(/^400/);
  });
});
