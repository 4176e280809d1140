import { describe, expect, it } from 'vitest';
import { AuthContextClasses } from '../auth/claims';
import { isSteppedUp } from './step-up';

const now = 1_700_000_000_000;
const fresh = { acr: AuthContextClasses.mfa, amr: ['pwd', 'mfa', 'otp'], auth_time: now / 1000 - 60 };

describe('isSteppedUp (seed 000 section 4.9)', () => {
  it('holds for the MFA acr with mfa and otp, sms or hwk in amr', () => {
    expect(isSteppedUp(fresh, { now })).toBe(true);
    expect(isSteppedUp({ ...fresh, amr: ['mfa', 'sms'] }, { now })).toBe(true);
    expect(isSteppedUp({ ...fresh, amr: ['mfa', 'hwk'] }, { now })).toBe(true);
  });

  it('fails for another acr, without mfa, or without a counted method', () => {
    expect(isSteppedUp({ ...fresh, acr: AuthContextClasses.password }, { now })).toBe(false);
    expect(isSteppedUp({ ...fresh, acr: undefined }, { now })).toBe(false);
    expect(isSteppedUp({ ...fresh, amr: ['pwd', 'otp'] }, { now })).toBe(false);
    expect(isSteppedUp({ ...fresh, amr: ['pwd', 'mfa', 'email'] }, { now })).toBe(false);
    expect(isSteppedUp({ ...fresh, amr: ['pwd', 'mfa', 'rc'] }, { now })).toBe(false);
    expect(isSteppedUp({ ...fresh, amr: undefined }, { now })).toBe(false);
    expect(isSteppedUp(null)).toBe(false);
  });

  it('checks maxAge against auth_time only when both are present', () => {
    expect(isSteppedUp(fresh, { maxAge: 60, now })).toBe(true);
    expect(isSteppedUp(fresh, { maxAge: 59, now })).toBe(false);
    expect(isSteppedUp({ ...fresh, auth_time: undefined }, { maxAge: 1, now })).toBe(true);
    expect(isSteppedUp({ ...fresh, auth_time: now / 1000 - 10_000 }, { now })).toBe(true);
  });
});
