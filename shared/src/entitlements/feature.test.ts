import { describe, expect, it } from 'vitest';
import { isEntitledToFeature } from './feature';
import type { EntitlementsContext, FeatureEntitlement, Rule } from './types';

const NOW = Date.UTC(2025, 5, 1, 12);
const acme: Rule = { conditionLogic: 'and', treatment: 'true', conditions: [{ attribute: 'frontegg.email', op: 'ends_with', value: { list: ['@acme.io'] }, negate: false }] };
const context = (feature: Partial<FeatureEntitlement>, plans: EntitlementsContext['plans'] = {}): EntitlementsContext => ({
  features: { sso: { planIds: [], expireTime: null, linkedPermissions: [], ...feature } },
  plans,
  permissions: {},
});
const at = { now: NOW };

describe('direct entitlement', () => {
  it('-1 is entitled with no expiry; a future expiry is entitled', () => {
    expect(isEntitledToFeature('sso', context({ expireTime: -1 }), {}, at)).toEqual({ isEntitled: true });
    expect(isEntitledToFeature('sso', context({ expireTime: NOW + 1 }), {}, at)).toEqual({ isEntitled: true });
  });
  it('an expiry at exactly now is still entitled; one millisecond earlier has expired', () => {
    expect(isEntitledToFeature('sso', context({ expireTime: NOW }), {}, at).isEntitled).toBe(true);
    expect(isEntitledToFeature('sso', context({ expireTime: NOW - 1 }), {}, at)).toEqual({ isEntitled: false, justification: 'BUNDLE_EXPIRED' });
  });
  it('null is not entitled, and neither is a malformed expiry', () => {
    expect(isEntitledToFeature('sso', context({ expireTime: null }), {}, at)).toEqual({ isEntitled: false, justification: 'MISSING_FEATURE' });
    for (const expireTime of [undefined, NaN, '2999-01-01']) {
      expect(isEntitledToFeature('sso', context({ expireTime: expireTime as number }), {}, at).isEntitled).toBe(false);
    }
  });
  it('reads the clock when no now is given', () => {
    expect(isEntitledToFeature('sso', context({ expireTime: Date.now() + 60_000 })).isEntitled).toBe(true);
    expect(isEntitledToFeature('sso', context({ expireTime: Date.now() - 60_000 })).isEntitled).toBe(false);
  });
});

describe('missing features', () => {
  it('no data, no key or an absent feature is MISSING_FEATURE', () => {
    for (const result of [isEntitledToFeature('sso', null), isEntitledToFeature('sso', undefined), isEntitledToFeature('', context({ expireTime: -1 })), isEntitledToFeature('audit', context({ expireTime: -1 }))]) {
      expect(result).toEqual({ isEntitled: false, justification: 'MISSING_FEATURE' });
    }
  });
  it('does not read inherited names as features', () => {
    expect(isEntitledToFeature('constructor', context({ expireTime: -1 })).isEntitled).toBe(false);
  });
});

describe('feature flag and plan targeting', () => {
  const jwt = { email: 'ada@acme.io' };
  it('a flag whose rule matches entitles, even after an expiry', () => {
    const flag = { key: 'sso-beta', on: true, offTreatment: 'false' as const, defaultTreatment: 'false' as const, rules: [acme] };
    expect(isEntitledToFeature('sso', context({ expireTime: NOW - 1, featureFlag: flag }), { jwt }, at)).toEqual({ isEntitled: true });
    expect(isEntitledToFeature('sso', context({ expireTime: NOW - 1, featureFlag: flag }), { jwt: { email: 'x@y.io' } }, at)).toEqual({ isEntitled: false, justification: 'BUNDLE_EXPIRED' });
  });
  it("a plan's targeting entitles when one of the feature's plans says true", () => {
    const plans = { free: { defaultTreatment: 'false' as const }, pro: { defaultTreatment: 'false' as const, rules: [acme] } };
    expect(isEntitledToFeature('sso', context({ planIds: ['free', 'missing', 'pro'] }, plans), { jwt }, at)).toEqual({ isEntitled: true });
    expect(isEntitledToFeature('sso', context({ planIds: ['free'] }, plans), { jwt }, at)).toEqual({ isEntitled: false, justification: 'MISSING_FEATURE' });
  });
});

describe('explain', () => {
  it('names the direct source and its expiry', () => {
    const result = isEntitledToFeature('sso', context({ expireTime: NOW + 1000 }), {}, { ...at, explain: true });
    expect(result.explanation).toEqual([{ source: 'direct', featureKey: 'sso', reason: `Granted by a plan or a grant until ${new Date(NOW + 1000).toISOString()}.` }]);
  });
  it('names the flag and the rule that matched', () => {
    const flag = { key: 'sso-beta', on: true, offTreatment: 'false' as const, defaultTreatment: 'false' as const, rules: [{ ...acme, treatment: 'false' as const, conditions: [] , conditionLogic: 'or' as const }, acme] };
    const result = isEntitledToFeature('sso', context({ featureFlag: flag }), { jwt: { email: 'ada@acme.io' } }, { ...at, explain: true });
    expect(result.explanation).toEqual([{ source: 'feature-flag', featureKey: 'sso', flagKey: 'sso-beta', ruleIndex: 1, reason: 'Feature flag sso-beta answered true: rule 2 matched.' }]);
  });
  it('names the plan whose targeting decided', () => {
    const result = isEntitledToFeature('sso', context({ planIds: ['pro'] }, { pro: { defaultTreatment: 'true' } }), {}, { ...at, explain: true });
    expect(result.explanation).toEqual([{ source: 'plan-targeting', featureKey: 'sso', planId: 'pro', ruleIndex: undefined, reason: 'Plan pro targeting answered true: no rule matched, so its default applied.' }]);
  });
  it('when not entitled, says why each source did not entitle', () => {
    const flag = { key: 'sso-beta', on: false, offTreatment: 'false' as const, defaultTreatment: 'true' as const };
    const result = isEntitledToFeature('sso', context({ expireTime: NOW - 1, featureFlag: flag, planIds: ['pro'] }, { pro: { defaultTreatment: 'false' } }), {}, { ...at, explain: true });
    expect(result.justification).toBe('BUNDLE_EXPIRED');
    expect(result.explanation?.map((entry) => entry.source)).toEqual(['direct', 'feature-flag', 'plan-targeting']);
    expect(result.explanation?.[1]?.reason).toBe('Feature flag sso-beta answered false: it is off.');
    expect(isEntitledToFeature('audit', context({}), {}, { explain: true }).explanation).toEqual([{ source: 'none', featureKey: 'audit', reason: 'No plan, grant or flag gives the feature "audit".' }]);
  });
  it('adds no explanation unless asked', () => {
    expect(isEntitledToFeature('sso', context({ expireTime: -1 }), {}, at)).not.toHaveProperty('explanation');
  });
});
