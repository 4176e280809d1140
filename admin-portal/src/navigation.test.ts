import { describe, expect, it } from 'vitest';
import { isEntryVisible, NAVIGATION, USAGE_FEATURE_FLAG, visibleEntries, type NavigationKey, type NavigationOverrides } from './navigation';

const user = (...permissions: string[]) => ({ superUser: false, permissions: permissions.map((key) => ({ key })), roles: [] });
const entry = (key: NavigationKey) => NAVIGATION.find((candidate) => candidate.key === key)!;
const showAll = (key: NavigationKey): NavigationOverrides => ({ [key]: { visibility: 'always' } });

describe('navigation table (seed 001 section 2)', () => {
  it('lists the sixteen seed entries, and the security center after Security (issue 12) and the super users’ Operator entry last (issue 13), multi-app mode’s Applications after Users (issue 15), with default visibility and permission', () => {
    expect(NAVIGATION.map(({ key, defaultVisibility, permission }) => [key, defaultVisibility, permission ?? null])).toEqual([
      ['profile', 'always', null],
      ['privacy', 'always', null],
      ['personalApiTokens', 'hidden', 'fe.secure.read.userApiTokens'],
      ['account', 'always', 'fe.secure.read.accountSettings'],
      ['users', 'always', 'fe.secure.read.users'],
      ['applications', 'always', 'fe.secure.read.users'],
      ['groups', 'hidden', 'fe.secure.read.groups'],
      ['roles', 'hidden', 'fe.secure.read.roles'],
      ['security', 'always', 'fe.secure.read.securityPolicy'],
      ['securityCenter', 'always', 'fe.secure.read.securityPolicy'],
      ['sso', 'hidden', 'fe.secure.read.samlConfiguration'],
      ['provisioning', 'hidden', 'fe.secure.read.provisioningConfiguration'],
      ['audits', 'always', 'fe.secure.read.audits'],
      ['webhooks', 'hidden', 'fe.connectivity.read.webhooks'],
      ['reports', 'always', 'fe.reports.read.reports'],
      ['apiTokens', 'hidden', 'fe.secure.read.tenantApiTokens'],
      ['usage', 'hidden', 'fe.usage.read'],
      ['subscriptions', 'hidden', 'fe.subscriptions.*'],
      ['allAccounts', 'byPermissions', 'fe.account-hierarchy.read.subAccount'],
      ['operator', 'always', null],
    ]);
  });
});

describe('always entries without a permission', () => {
  it.each(['profile', 'privacy'] as const)('%s is shown to any signed-in user, hidden only by the options', (key) => {
    expect(isEntryVisible(entry(key), { user: user() })).toBe(true);
    expect(isEntryVisible(entry(key), { user: user(), overrides: { [key]: { visibility: 'hidden' } } })).toBe(false);
  });
});

describe('always entries with a permission', () => {
  it.each([
    ['users', 'fe.secure.read.users'],
    ['securityCenter', 'fe.secure.read.securityPolicy'],
    ['account', 'fe.secure.read.accountSettings'],
    ['security', 'fe.secure.read.securityPolicy'],
    ['audits', 'fe.secure.read.audits'],
    ['reports', 'fe.reports.read.reports'],
  ] as const)('%s is shown when %s is held, not otherwise', (key, permission) => {
    expect(isEntryVisible(entry(key), { user: user(permission) })).toBe(true);
    expect(isEntryVisible(entry(key), { user: user('fe.secure.read.other') })).toBe(false);
    expect(isEntryVisible(entry(key), { user: user(permission), overrides: { [key]: { visibility: 'hidden' } } })).toBe(false);
  });
});

describe('hidden entries', () => {
  it.each([
    ['webhooks', 'fe.connectivity.read.webhooks'],
    ['roles', 'fe.secure.read.roles'],
    ['personalApiTokens', 'fe.secure.read.userApiTokens'],
    ['apiTokens', 'fe.secure.read.tenantApiTokens'],
    ['sso', 'fe.secure.read.samlConfiguration'],
    ['provisioning', 'fe.secure.read.provisioningConfiguration'],
    ['subscriptions', 'fe.subscriptions.read'],
    ['groups', 'fe.secure.read.groups'],
  ] as const)('%s stays hidden by default, and needs the options and %s to show', (key, permission) => {
    expect(isEntryVisible(entry(key), { user: user(permission) })).toBe(false);
    expect(isEntryVisible(entry(key), { user: user(permission), overrides: showAll(key) })).toBe(true);
    expect(isEntryVisible(entry(key), { user: user(permission), overrides: { [key]: { visibility: 'byPermissions' } } })).toBe(true);
    expect(isEntryVisible(entry(key), { user: user(), overrides: showAll(key) })).toBe(false);
  });

  it('usage also needs its feature flag on', () => {
    const context = { user: user('fe.usage.read'), overrides: showAll('usage') };
    expect(isEntryVisible(entry('usage'), context)).toBe(false);
    expect(isEntryVisible(entry('usage'), { ...context, flags: { [USAGE_FEATURE_FLAG]: 'off' } })).toBe(false);
    expect(isEntryVisible(entry('usage'), { ...context, flags: { [USAGE_FEATURE_FLAG]: 'on' } })).toBe(true);
    expect(isEntryVisible(entry('usage'), { user: user('fe.usage.read'), flags: { [USAGE_FEATURE_FLAG]: 'on' } })).toBe(false);
  });

  it('accepts the section name as the option key for subscriptions', () => {
    expect(isEntryVisible(entry('subscriptions'), { user: user('fe.subscriptions.read'), overrides: { subscription: { visibility: 'always' } } })).toBe(true);
  });
});

describe('by-permissions entries', () => {
  it('allAccounts is shown exactly when fe.account-hierarchy.read.subAccount is held', () => {
    expect(isEntryVisible(entry('allAccounts'), { user: user('fe.account-hierarchy.read.subAccount') })).toBe(true);
    expect(isEntryVisible(entry('allAccounts'), { user: user('fe.account-hierarchy.write.subAccount') })).toBe(false);
  });
});

describe('visibility rule', () => {
  it('a super user sees every entry, whatever the options and flags', () => {
    const keys = visibleEntries({ user: { superUser: true, permissions: [], roles: [] }, overrides: { users: { visibility: 'hidden' } } }).map((e) => e.key);
    expect(keys).toEqual(NAVIGATION.filter((e) => !e.multiAppsOnly).map((e) => e.key));
  });

  it('Applications (issue 15) is shown only in multi-app mode, to holders of fe.secure.read.users and to super users', () => {
    expect(isEntryVisible(entry('applications'), { user: user('fe.secure.read.users') })).toBe(false);
    expect(isEntryVisible(entry('applications'), { user: { superUser: true, permissions: [], roles: [] } })).toBe(false);
    expect(isEntryVisible(entry('applications'), { user: user('fe.secure.read.users'), multiApps: true })).toBe(true);
    expect(isEntryVisible(entry('applications'), { user: { superUser: true, permissions: [], roles: [] }, multiApps: true })).toBe(true);
    expect(isEntryVisible(entry('applications'), { user: user('fe.secure.read.groups'), multiApps: true })).toBe(false);
    expect(isEntryVisible(entry('applications'), { user: user('fe.secure.read.users'), multiApps: true, overrides: { applications: { visibility: 'hidden' } } })).toBe(false);
    expect(visibleEntries({ user: user('fe.secure.read.users'), multiApps: true }).map((e) => e.key)).toEqual(['profile', 'privacy', 'users', 'applications']);
  });

  it('a user with no permissions sees only profile and privacy', () => {
    expect(visibleEntries({ user: user() }).map((e) => e.key)).toEqual(['profile', 'privacy']);
    expect(visibleEntries({ user: { superUser: false } }).map((e) => e.key)).toEqual(['profile', 'privacy']);
  });

  it('the Operator entry (issue 13) is shown only to super users, whatever permissions or options a tenant admin has', () => {
    expect(isEntryVisible(entry('operator'), { user: { superUser: true, permissions: [], roles: [] } })).toBe(true);
    expect(isEntryVisible(entry('operator'), { user: user('fe.*', '*') })).toBe(false);
    expect(isEntryVisible(entry('operator'), { user: user('fe.*'), overrides: showAll('operator') })).toBe(false);
    expect(visibleEntries({ user: user('*') }).map((e) => e.key)).not.toContain('operator');
  });

  it('nobody signed in sees nothing', () => {
    expect(visibleEntries({ user: null })).toEqual([]);
  });

  it('wildcards: a granted fe.secure.* covers every secure entry; fe.subscriptions.* is met by any subscriptions key', () => {
    const keys = visibleEntries({ user: user('fe.secure.*') }).map((e) => e.key);
    expect(keys).toEqual(['profile', 'privacy', 'account', 'users', 'security', 'securityCenter', 'audits']);
    expect(isEntryVisible(entry('subscriptions'), { user: user('fe.subscriptions.write'), overrides: showAll('subscriptions') })).toBe(true);
    expect(isEntryVisible(entry('subscriptions'), { user: user('fe.subscription'), overrides: showAll('subscriptions') })).toBe(false);
    expect(isEntryVisible(entry('users'), { user: user('fe.*') })).toBe(true);
  });
});
