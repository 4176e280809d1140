import { describe, expect, it } from 'vitest';
import { evaluateFlag, evaluatePlanTargeting } from './rules';
import type { FlagDefinition, Rule } from './types';

const rule = (treatment: 'true' | 'false', list: string[]): Rule => ({
  conditionLogic: 'and',
  treatment,
  conditions: [{ attribute: 'frontegg.email', op: 'ends_with', value: { list }, negate: false }],
});

describe('feature flags', () => {
  const flag: FlagDefinition = { on: true, offTreatment: 'false', defaultTreatment: 'false', rules: [rule('false', ['@blocked.io']), rule('true', ['.io'])] };

  it('the first matching rule decides, in order', () => {
    expect(evaluateFlag(flag, { 'frontegg.email': 'a@blocked.io' })).toEqual({ treatment: 'false', ruleIndex: 0 });
    expect(evaluateFlag(flag, { 'frontegg.email': 'a@acme.io' })).toEqual({ treatment: 'true', ruleIndex: 1 });
  });
  it('no matching rule gives the default treatment', () => {
    expect(evaluateFlag(flag, { 'frontegg.email': 'a@acme.com' })).toEqual({ treatment: 'false' });
    expect(evaluateFlag({ ...flag, defaultTreatment: 'true', rules: undefined }, {})).toEqual({ treatment: 'true' });
  });
  it('a flag that is off gives its off treatment whatever its rules say', () => {
    expect(evaluateFlag({ ...flag, on: false, offTreatment: 'true' }, { 'frontegg.email': 'a@blocked.io' })).toEqual({ treatment: 'true' });
    expect(evaluateFlag({ ...flag, on: false }, { 'frontegg.email': 'a@acme.io' })).toEqual({ treatment: 'false' });
  });
  it('only on: true turns a flag on, and an unknown treatment is false', () => {
    expect(evaluateFlag({ ...flag, on: 'yes' as unknown as boolean, offTreatment: 'false' }, { 'frontegg.email': 'a@acme.io' })).toEqual({ treatment: 'false' });
    expect(evaluateFlag({ ...flag, rules: [{ ...rule('true', ['.io']), treatment: 'TRUE' as 'true' }] }, { 'frontegg.email': 'a@acme.io' })).toEqual({ treatment: 'false', ruleIndex: 0 });
  });
});

describe('plan targeting', () => {
  it('the first matching rule decides, else the default treatment', () => {
    const plan = { defaultTreatment: 'false' as const, rules: [rule('true', ['@acme.io'])] };
    expect(evaluatePlanTargeting(plan, { 'frontegg.email': 'a@acme.io' })).toEqual({ treatment: 'true', ruleIndex: 0 });
    expect(evaluatePlanTargeting(plan, { 'frontegg.email': 'a@other.io' })).toEqual({ treatment: 'false' });
    expect(evaluatePlanTargeting({ defaultTreatment: 'true' }, {})).toEqual({ treatment: 'true' });
  });
});
