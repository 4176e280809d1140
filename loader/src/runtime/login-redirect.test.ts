import { describe, expect, it } from 'vitest';
import { defaultRoutes, mergeRoutes } from '@gatehouse/shared';
import { loginRedirectUrl } from './index';

describe('redirect to login when a page needs a user', () => {
  const page = 'https://app.example.com/reports?year=2026#top';

  it('goes to the login route with redirectUrl set to the page the user wanted', () => {
    const url = new URL(loginRedirectUrl({}, defaultRoutes, page));
    expect(url.origin + url.pathname).toBe('https://app.example.com/account/login');
    expect(url.searchParams.get('redirectUrl')).toBe(page);
  });

  it('uses a custom login URL when one is configured, as an option or as a route', () => {
    expect(new URL(loginRedirectUrl({ customLoginUrl: '/signin' }, defaultRoutes, page)).pathname).toBe('/signin');
    const routes = mergeRoutes({ customLoginUrl: 'https://login.example.com/start' });
    const url = new URL(loginRedirectUrl({}, routes, page));
    expect(url.origin + url.pathname).toBe('https://login.example.com/start');
    expect(url.searchParams.get('redirectUrl')).toBe(page);
  });

  it('honours a configured login route', () => {
    expect(new URL(loginRedirectUrl({}, mergeRoutes({ loginUrl: '/auth/in' }), page)).pathname).toBe('/auth/in');
  });
});
