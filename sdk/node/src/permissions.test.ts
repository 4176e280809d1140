import { describe, expect, it } from 'vitest';
import { hasEntitlement, hasPermissions, permissionMatches } from './permissions.js';
import type { AccessTokenClaims } from './verify/verify-access-token.js';

const claims = (extra: Partial<AccessTokenClaims>): AccessTokenClaims => ({ sub: 'u', tenantId: 't', ...extra });

describe('permissions and entitlements of a token', () => {
  it('matches wildcards on either side, as the server does', () => {
    expect(permissionMatches('fe.secure.*', 'fe.secure.read.users')).toBe(true);
    expect(permissionMatches('fe.secure.read.users', 'fe.secure.read.*')).toBe(true);
    expect(permissionMatches('fe.secure.read.users', 'fe.secure.write.users')).toBe(false);
    expect(permissionMatches('fe.secure.read.users', 'fe.secure.read.user')).toBe(false);
  });

  it('needs every required permission; super users hold them all; a malformed claim holds none', () => {
    const admin = claims({ permissions: ['fe.secure.read.users', 'fe.usage.read'] });
    expect(hasPermissions(admin, ['fe.secure.read.users', 'fe.usage.read'])).toBe(true);
    expect(hasPermissions(admin, ['fe.secure.read.users', 'fe.usage.write'])).toBe(false);
    expect(hasPermissions(claims({ superUser: true }), ['anything'])).toBe(true);
    expect(hasPermissions(claims({ permissions: 'fe.secure.read.users' as unknown as string[] }), ['fe.secure.read.users'])).toBe(false);
  });

  it('reads the compact entitlements claim: -1 never expires, a date (ms) until it passes, an inherited key is not a feature', () => {
    const now = 1_800_000_000_000;
    const c = claims({ entitlements: { f: { sso: -1, reports: now + 1000, old: now - 1 } } });
    expect(hasEntitlement(c, 'sso', now)).toBe(true);
    expect(hasEntitlement(c, 'reports', now)).toBe(true);
    expect(hasEntitlement(c, 'reports', now + 1000)).toBe(false);
    expect(hasEntitlement(c, 'old', now)).toBe(false);
    expect(hasEntitlement(c, 'missing', now)).toBe(false);
    expect(hasEntitlement(c, 'toString', now)).toBe(false);
    expect(hasEntitlement(claims({}), 'sso', now)).toBe(false);
    expect(hasEntitlement(claims({ superUser: true }), 'sso', now)).toBe(true);
  });
});
