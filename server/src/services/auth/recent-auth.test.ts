import { describe, expect, it } from 'vitest';
import { isRecentlyAuthenticated, isRecentlySteppedUp } from './recent-auth';

const now = 1_800_000_000_000;
const at = (secondsAgo: number) => Math.floor(now / 1000) - secondsAgo;
const ctx = (claims: Record<string, unknown>) => ({ claims: claims as never });

describe('fresh authentication for security changes', () => {
  it('counts a sign-in within 10 minutes as recent, an older one not', () => {
    expect(isRecentlyAuthenticated(ctx({ amr: ['pwd'], auth_time: at(599) }), now)).toBe(true);
    expect(isRecentlyAuthenticated(ctx({ amr: ['pwd'], auth_time: at(601) }), now)).toBe(false);
  });

  it('counts a recent TOTP step-up as a proven second factor', () => {
    expect(isRecentlySteppedUp(ctx({ amr: ['pwd', 'mfa', 'otp'], acr: 'urn:gatehouse:acr:mfa', auth_time: at(60) }), now)).toBe(true);
  });

  // Regression: email-code users could never add a stronger factor, because seed 4.9's step-up
  // counts only otp, sms and hwk.
  it('counts a recent emailed-code verification too, so email-only users can add a stronger factor', () => {
    expect(isRecentlySteppedUp(ctx({ amr: ['pwd', 'mfa', 'email'], acr: 'urn:gatehouse:acr:mfa', auth_time: at(60) }), now)).toBe(true);
  });

  it('refuses a password-only or stale second factor', () => {
    expect(isRecentlySteppedUp(ctx({ amr: ['pwd'], auth_time: at(60) }), now)).toBe(false);
    expect(isRecentlySteppedUp(ctx({ amr: ['pwd', 'mfa', 'otp'], acr: 'urn:gatehouse:acr:mfa', auth_time: at(700) }), now)).toBe(false);
    expect(isRecentlySteppedUp(ctx({ amr: ['pwd', 'mfa', 'email'] }), now)).toBe(false);
  });
});
