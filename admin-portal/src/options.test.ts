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

  it('answers defaults for a host that passes nothing usable', () => {
    expect(readAdminPortalOptions(undefined)).toEqual({ navigation: {}, fieldVisibility: {} });
    expect(readAdminPortalOptions('x')).toEqual({ navigation: {}, fieldVisibility: {} });
  });
});
