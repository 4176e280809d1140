import { REFRESH_COOKIE_PATH, refreshCookieName } from '@gatehouse/shared/wire';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Config } from '../config';

type CookieConfig = Pick<Config, 'clientId' | 'cookieSameSite' | 'cookieSecure' | 'refreshTokenTtl'>;

/** The configured SameSite value as cookies spell it; every cookie of ours follows the same rule. */
export const sameSite = (s: Config['cookieSameSite']) => (s === 'none' ? 'None' : s === 'strict' ? 'Strict' : 'Lax');

export function readRefreshCookie(c: Context, config: CookieConfig): string | undefined {
  return getCookie(c, refreshCookieName(config.clientId)) || undefined;
}

/** httpOnly and scoped to the auth path, so scripts and other API calls never see it. */
export function setRefreshCookie(c: Context, config: CookieConfig, token: string): void {
  setCookie(c, refreshCookieName(config.clientId), token, {
    httpOnly: true,
    secure: config.cookieSecure,
    sameSite: sameSite(config.cookieSameSite),
    path: REFRESH_COOKIE_PATH,
    maxAge: config.refreshTokenTtl,
  });
}

export function clearRefreshCookie(c: Context, config: CookieConfig): void {
  deleteCookie(c, refreshCookieName(config.clientId), { path: REFRESH_COOKIE_PATH, secure: config.cookieSecure, httpOnly: true, sameSite: sameSite(config.cookieSameSite) });
}
