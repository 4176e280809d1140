import { describe, expect, it } from 'vitest';
import { isEntitledToPermission, permissionCovers } from './permission';
import type { EntitlementsContext } from './types';

const NOW = Date.UTC(2025, 5, 1);
const base: EntitlementsContext = {
  features: {
    sso: { planIds: [], expireTime: -1, linkedPermissions: ['fe.secure.write.sso'] },
    audit: { planIds: [], expireTime: NOW - 1, linkedPermissions: ['fe.secure.read.audits'] },
    auditPlus: { planIds: [], expireTime: null, linkedPermissions: ['fe.secure.read.audits', 'fe.secure.write.sso'] },
  },
  plans: {},
  permissions: { 'fe.secure.*': true, 'fe.account.read': true },
};
const at = { now: NOW };

describe('permission patterns', () => {
  it('* stands for any run of characters; everything else is literal', () => {
    expect(permissionCovers('fe.secure.*', 'fe.secure.read.users')).toBe(true);
    expect(permissionCovers('fe.secure.*', 'fe.secure.')).toBe(true);
    expect(permissionCovers('fe.secure.*', 'fe.secureXread')).toBe(false);
    expect(permissionCovers('fe.*.read', 'fe.users.read')).toBe(true);
    expect(permissionCovers('fe.*.read', 'fe.users.write')).toBe(false);
    expect(permissionCovers('*', 'anything')).toBe(true);
    expect(permissionCovers('a*b*a', 'aba')).toBe(true);
    expect(permissionCovers('a*b*a', 'ab')).toBe(false);
    expect(permissionCovers('ab*ba', 'aba')).toBe(false);
    expect(permissionCovers('fe.(read|write)', 'fe.read')).toBe(false);
    expect(permissionCovers('fe.[a]', 'fe.[a]')).toBe(true);
  });
  it('stays linear on many stars', () => {
    const started = performance.now();
    expect(permissionCovers(`${'a*'.repeat(200)}b`, 'a'.repeat(5000))).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('isEntitledToPermission', () => {
  it('is MISSING_PERMISSION without data, without a key, or when no held permission covers it', () => {
    expect(isEntitledToPermission('fe.secure.read.users', null)).toEqual({ isEntitled: false, justification: 'MISSING_PERMISSION' });
    expect(isEntitledToPermission('', base)).toEqual({ isEntitled: false, justification: 'MISSING_PERMISSION' });
    expect(isEntitledToPermission('fe.billing.read', base)).toEqual({ isEntitled: false, justification: 'MISSING_PERMISSION' });
    expect(isEntitledToPermission('fe.secure.read.users', { ...base, permissions: undefined as unknown as EntitlementsContext['permissions'] }).isEntitled).toBe(false);
  });
  it('a held permission that no feature links to is entitled', () => {
    expect(isEntitledToPermission('fe.secure.read.users', base, {}, at)).toEqual({ isEntitled: true });
    expect(isEntitledToPermission('fe.account.read', base, {}, at)).toEqual({ isEntitled: true });
  });
  it('linked features combine with OR: one entitled feature is enough', () => {
    expect(isEntitledToPermission('fe.secure.write.sso', base, {}, at)).toEqual({ isEntitled: true });
  });
  it('when no linked feature entitles, an expired one gives BUNDLE_EXPIRED, otherwise MISSING_FEATURE', () => {
    expect(isEntitledToPermission('fe.secure.read.audits', base, {}, at)).toEqual({ isEntitled: false, justification: 'BUNDLE_EXPIRED' });
    const noneExpired = { ...base, features: { auditPlus: base.features.auditPlus! } };
    expect(isEntitledToPermission('fe.secure.read.audits', noneExpired, {}, at)).toEqual({ isEntitled: false, justification: 'MISSING_FEATURE' });
  });
  it('links by the exact permission key, not by pattern', () => {
    const context = { ...base, features: { x: { planIds: [], expireTime: null, linkedPermissions: ['fe.secure.*'] } } };
    expect(isEntitledToPermission('fe.secure.read.users', context, {}, at)).toEqual({ isEntitled: true });
  });
  it('explains which held permission covered the key, or the features that did not entitle', () => {
    expect(isEntitledToPermission('fe.secure.read.users', base, {}, { ...at, explain: true }).explanation).toEqual([{ source: 'permission', reason: 'Held through "fe.secure.*", and no feature is linked to it.' }]);
    const refused = isEntitledToPermission('fe.secure.read.audits', base, {}, { ...at, explain: true });
    expect(refused.explanation?.map((entry) => [entry.source, entry.featureKey])).toEqual([['direct', 'audit'], ['none', 'auditPlus']]);
    expect(isEntitledToPermission('fe.billing.read', base, {}, { explain: true }).explanation?.[0]?.reason).toBe('The user holds no permission that covers "fe.billing.read".');
  });
});
