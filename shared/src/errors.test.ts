import { describe, expect, it } from 'vitest';
import { createGatehouseError, ErrorMessages, isGatehouseError, toGatehouseError } from './errors';
import { isFlagOn } from './flags';
import * as constants from './constants';

describe('errors', () => {
  it('recognises GatehouseErrors by kind, across bundles', () => {
    expect(isGatehouseError({ kind: 'GatehouseError', message: 'x', statusCode: 400 })).toBe(true);
    expect(isGatehouseError(new Error('x'))).toBe(false);
    expect(isGatehouseError(null)).toBe(false);
  });

  it('turns unknown errors into a generic 500', () => {
    expect(toGatehouseError(new Error('boom'))).toEqual({ kind: 'GatehouseError', message: "We're facing some difficulties, Please try again", statusCode: 500, errorCode: 'ER-ADMIN-PORTAL-GENERIC-ERROR' });
    const known = createGatehouseError('Invalid email or password', 401);
    expect(toGatehouseError(known)).toBe(known);
  });

  it('keeps the seed messages', () => {
    expect(ErrorMessages.requestTooLarge).toBe('Error request is too large');
    expect(ErrorMessages.themeSetterTimeout).toBe('Failed to load Renderer with themeSetter');
    expect(ErrorMessages.invalidRedirect).toBe('The redirect url param is not valid, the origin is a different site');
  });
});

describe('flags and constants', () => {
  it('counts a flag as on only for the string on', () => {
    expect(isFlagOn({ a: 'on', b: 'true', c: 'ON' }, 'a')).toBe(true);
    expect(isFlagOn({ a: 'on', b: 'true', c: 'ON' }, 'b')).toBe(false);
    expect(isFlagOn({ c: 'ON' }, 'c')).toBe(false);
    expect(isFlagOn(undefined, 'a')).toBe(false);
  });

  it('has the seed section 9 values', () => {
    expect([constants.SSO_REDIRECT_DELAY_MS, constants.SSO_FAILURE_REDIRECT_DELAY_MS, constants.MAGIC_LINK_SUCCESS_DELAY_MS, constants.ACTIVATION_REDIRECT_DELAY_MS, constants.MFA_REDIRECT_DELAY_MS, constants.UNLOCK_REDIRECT_DELAY_MS, constants.NAVIGATION_DELAY_MS, constants.SILENT_LOGOUT_CALLBACK_MS]).toEqual([2000, 1000, 5000, 5000, 1000, 5000, 200, 500]);
    expect([constants.PROFILE_LOAD_RETRIES, constants.PROFILE_LOAD_RETRY_DELAY_MS]).toEqual([3, 2000]);
    expect(constants.DEFAULT_OAUTH_EXPIRES_IN_S).toBe(300);
    expect(constants.SESSION_COOKIE_LIFETIME_S).toBe(1296000);
    expect([constants.THEME_SETTER_POLL_MS, constants.THEME_SETTER_TIMEOUT_MS, constants.ASSET_LOAD_TIMEOUT_MS]).toEqual([50, 4000, 3800]);
    expect(constants.ASSET_VERSION).toBe('7.78.0');
    expect([constants.DEFAULT_THEME_NAME, constants.DEFAULT_APP_NAME]).toEqual(['modern', 'default']);
    expect(constants.SEPARATE_TABS_BY_TENANT_KEY).toBe('FRONTEGG_SEPARATE_TABS_BY_TENANT');
    expect(constants.AFTER_AUTH_REDIRECT_KEY).toBe('GATEHOUSE_AFTER_AUTH_REDIRECT_URL');
    expect([constants.RANDOM_STRING_DEFAULT_LENGTH, constants.BLOOM_FILTER_DEFAULT_ERROR_RATE, constants.MIN_RSA_KEY_BITS]).toEqual([16, 1e-4, 2048]);
    expect([constants.JWKS_FETCH_TIMEOUT_MS, constants.JWKS_COOLDOWN_MS, constants.JWKS_CACHE_MS]).toEqual([5000, 30000, 600000]);
  });
});
