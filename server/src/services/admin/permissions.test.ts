import { describe, expect, it } from 'vitest';
import { covers } from './permissions';

describe('covers (server-side permission checks, including "grant only what you hold")', () => {
  it('covers the same key and keys under a granted wildcard', () => {
    expect(covers(['fe.secure.read.users'], 'fe.secure.read.users')).toBe(true);
    expect(covers(['fe.secure.*'], 'fe.secure.write.impersonate')).toBe(true);
    expect(covers(['fe.secure.*'], 'fe.secure.*')).toBe(true);
  });

  it('regression (security review): a narrow key never covers a wildcard, so it cannot be used to hand one out', () => {
    expect(covers(['fe.secure.read.users'], 'fe.secure.*')).toBe(false);
    expect(covers(['fe.secure.read.users', 'fe.secure.write.users'], 'fe.*')).toBe(false);
    expect(covers(['fe.secure.read.*'], 'fe.secure.*')).toBe(false);
  });

  it('covers nothing else', () => {
    expect(covers([], 'fe.secure.read.users')).toBe(false);
    expect(covers(['fe.secure.read.users'], 'fe.secure.write.users')).toBe(false);
    expect(covers(['fe.connectivity.*'], 'fe.secure.read.users')).toBe(false);
  });
});
