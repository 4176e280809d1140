import { describe, expect, it } from 'vitest';
import { fieldVisibility, readAdminPortalOptions } from './options';

describe('readAdminPortalOptions', () => {
  it('reads field visibility for any section and ignores invalid values', () => {
    const options = readAdminPortalOptions({
      fieldVisibility: {
        account: { currency: 'viewOnly', customLogin: 'hidden', website: 'bogus' },
        users: 'not-a-record',
        profile: { jobTitle: 'hidden' },
      },
    });
    expect(fieldVisibility(options, 'account', 'currency')).toBe('viewOnly');
    expect(fieldVisibility(options, 'account', 'customLogin')).toBe('hidden');
    expect(fieldVisibility(options, 'account', 'website')).toBe('editable');
    expect(fieldVisibility(options, 'users', 'invite')).toBe('editable');
    expect(fieldVisibility(options, 'profile', 'jobTitle')).toBe('hidden');
  });

  it('keeps navigation overrides with a known visibility only', () => {
    const options = readAdminPortalOptions({ navigation: { roles: { visibility: 'byPermissions' }, groups: { visibility: 'sometimes' } } });
    expect(options.navigation).toEqual({ roles: { visibility: 'byPermissions' } });
  });

  it('keeps the host’s result callbacks that are functions (seed 001 section 4: actions report false on failure)', () => {
    const security = (ok: boolean) => ok;
    const options = readAdminPortalOptions({ callbacks: { security, allAccounts: 'not a function' } });
    expect(options.callbacks).toEqual({ security });
    expect(readAdminPortalOptions({ callbacks: { security: 1 } }).callbacks).toBeUndefined();
  });

  it('answers defaults for a host that passes nothing usable', () => {
    expect(readAdminPortalOptions(undefined)).toEqual({ navigation: {}, fieldVisibility: {} });
    expect(readAdminPortalOptions('x')).toEqual({ navigation: {}, fieldVisibility: {} });
  });
});
