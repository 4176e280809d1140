import { describe, expect, it } from 'vitest';
import { isSteppedUp as coreIsSteppedUp } from '../../../shared/src/wire/mfa/step-up';
import { AuthContextClasses } from '../../../shared/src/wire/auth/claims';
import { isSteppedUp, MULTI_FACTOR_ACR, stepUpExpiresAt, tokenClaims } from './step-up.js';
import { jwt } from './test/loader-app.js';

const NOW = Date.UTC(2026, 10, 27, 6, 0, 0);
const nowSec = NOW / 1000;

describe('isSteppedUp (seed 000 section 4.9)', () => {
  const cases: Array<[string, Record<string, unknown>, number | undefined, boolean]> = [
    ['multi-factor acr, mfa and otp', { acr: MULTI_FACTOR_ACR, amr: ['pwd', 'mfa', 'otp'] }, undefined, true],
    ['sms counts', { acr: MULTI_FACTOR_ACR, amr: ['mfa', 'sms'] }, undefined, true],
    ['a hardware key counts', { acr: MULTI_FACTOR_ACR, amr: ['mfa', 'hwk'] }, undefined, true],
    ['password only', { acr: 'urn:gatehouse:acr:pwd', amr: ['pwd'] }, undefined, false],
    ['mfa without a counted method', { acr: MULTI_FACTOR_ACR, amr: ['mfa', 'email'] }, undefined, false],
    ['a counted method without mfa', { acr: MULTI_FACTOR_ACR, amr: ['otp'] }, undefined, false],
    ['the right amr with another acr', { acr: 'urn:other', amr: ['mfa', 'otp'] }, undefined, false],
    ['no acr', { amr: ['mfa', 'otp'] }, undefined, false],
    ['within maxAge', { acr: MULTI_FACTOR_ACR, amr: ['mfa', 'otp'], auth_time: nowSec - 300 }, 300, true],
    ['older than maxAge', { acr: MULTI_FACTOR_ACR, amr: ['mfa', 'otp'], auth_time: nowSec - 301 }, 300, false],
    ['maxAge without auth_time: not judged by age', { acr: MULTI_FACTOR_ACR, amr: ['mfa', 'otp'] }, 60, true],
  ];

  it.each(cases)('%s', (_name, claims, maxAge, expected) => {
    expect(isSteppedUp(claims, { maxAge, now: NOW })).toBe(expected);
    // The same answer as the browser core's rule (the login box's step-up screen).
    expect(coreIsSteppedUp(claims as never, { maxAge, now: NOW })).toBe(expected);
  });

  it("uses the server's multi-factor identifier", () => {
    expect(MULTI_FACTOR_ACR).toBe(AuthContextClasses.mfa);
  });

  it('reads the claims of a token (base64url, UTF-8), null for anything that is not one', () => {
    expect(tokenClaims(jwt({ acr: MULTI_FACTOR_ACR, amr: ['mfa', 'otp'] }))).toMatchObject({ acr: MULTI_FACTOR_ACR, amr: ['mfa', 'otp'] });
    const utf8 = `e30.${Buffer.from(JSON.stringify({ name: 'Zoë Ünal' }), 'utf8').toString('base64url')}.sig`;
    expect(tokenClaims(utf8)).toEqual({ name: 'Zoë Ünal' });
    expect(tokenClaims('not-a-token')).toBeNull();
    expect(tokenClaims('a.!!!.c')).toBeNull();
    expect(tokenClaims(null)).toBeNull();
    expect(isSteppedUp(tokenClaims('a.W10.c'))).toBe(false); // a payload that is an array
  });

  it('says when a step-up gets too old for maxAge', () => {
    expect(stepUpExpiresAt({ auth_time: nowSec }, 300)).toBe(NOW + 301_000);
    expect(stepUpExpiresAt({ auth_time: nowSec }, undefined)).toBeNull();
    expect(stepUpExpiresAt({}, 300)).toBeNull();
  });
});
