import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getAfterAuthTarget, getValidRedirectUrl } from './redirect';
import { defaultRoutes, mergeRoutes } from './routes';

const currentUrl = 'https://app.example.com/account/login?redirectUrl=x';
const WARNING = 'The redirect url param is not valid, the origin is a different site';

describe('getValidRedirectUrl', () => {
  let warn: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  it.each([
    ['/dashboard', '/dashboard'],
    ['/dashboard?tab=1#top', '/dashboard?tab=1#top'],
    ['dashboard', '/account/dashboard'],
    ['https://app.example.com/settings', '/settings'],
    ['/%2F%2Fevil.com', '/%2F%2Fevil.com'],
  ])('accepts same-origin %s', (raw, expected) => {
    expect(getValidRedirectUrl(raw, { currentUrl })).toBe(expected);
    expect(warn).not.toHaveBeenCalled();
  });

  it('accepts an origin from the allowed list, as a full URL', () => {
    expect(getValidRedirectUrl('https://docs.example.com/a?b=1', { currentUrl, allowedOrigins: ['https://docs.example.com'], enforceSameSite: true })).toBe('https://docs.example.com/a?b=1');
    expect(getValidRedirectUrl('https://docs.example.com/a', { currentUrl, allowedOrigins: ['https://docs.example.com/'] })).toBe('https://docs.example.com/a');
  });

  it.each([
    'https://evil.com',
    'https://evil.com/account/login',
    'http://app.example.com/x',
    'https://app.example.com:8443/x',
    'https://app.example.com.evil.com/',
    '//evil.com',
    '//evil.com/path',
    '///evil.com',
    '/\\evil.com',
    '\\\\evil.com',
    '/\\/evil.com',
    'https:evil.com',
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'https://user:pass@app.example.com/',
    'https://app.example.com@evil.com/',
    '/\t/evil.com',
    '/\n/evil.com',
    '\x00//evil.com',
    ' //evil.com',
    '/ /evil.com',
    '\u2028//evil.com',
    'https://evil.com#https://app.example.com',
    // Regression: dot-segments resolved to a protocol-relative path ('//evil.com') were accepted.
    '/.//evil.com',
    '/a/..//evil.com',
    '/%2e//evil.com',
    '/././/evil.com/x',
    'https://app.example.com/.//evil.com',
  ])('rejects %j with the seed warning', (raw) => {
    expect(getValidRedirectUrl(raw, { currentUrl, allowedOrigins: ['https://docs.example.com'], enforceSameSite: true })).toBeNull();
    expect(warn).toHaveBeenCalledWith(WARNING);
  });

  it('rejects other origins even when same-site enforcement is off', () => {
    expect(getValidRedirectUrl('https://evil.com', { currentUrl, enforceSameSite: false })).toBeNull();
  });

  it('ignores a malformed allowed origin and an empty value without warning', () => {
    expect(getValidRedirectUrl('https://evil.com', { currentUrl, allowedOrigins: ['not a url', 'null'] })).toBeNull();
    warn.mockClear();
    expect(getValidRedirectUrl('', { currentUrl })).toBeNull();
    expect(getValidRedirectUrl(null, { currentUrl })).toBeNull();
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('getAfterAuthTarget', () => {
  it('returns the stored target', () => {
    expect(getAfterAuthTarget('/reports?x=1', defaultRoutes)).toBe('/reports?x=1');
  });

  it.each([null, undefined, '', '/account/login', '/account/login/', '/account/login?redirectUrl=/a', '/account/logout', '/account/activate', '/account/activate?userId=1&token=2', '/account/activate/code'])(
    'never goes back to login/logout/activate: %j -> authenticatedUrl',
    (stored) => {
      expect(getAfterAuthTarget(stored, mergeRoutes({ authenticatedUrl: '/home' }))).toBe('/home');
    },
  );

  it('respects configured routes', () => {
    const routes = mergeRoutes({ loginUrl: '/signin', customLoginUrl: '/custom' });
    expect(getAfterAuthTarget('/signin', routes)).toBe('/');
    expect(getAfterAuthTarget('/custom', routes)).toBe('/');
    expect(getAfterAuthTarget('/account/login', routes)).toBe('/account/login');
  });
});
