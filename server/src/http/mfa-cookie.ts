import { REFRESH_COOKIE_PATH } from '@gatehouse/shared/wire';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { Config } from '../config';
import { sameSite } from './cookies';

type CookieConfig = Pick<Config, 'clientId' | 'cookieSameSite' | 'cookieSecure'>;

/** Name of the httpOnly remember-this-device cookie (MFA) for a client id. */
export function mfaRememberCookieName(clientId: string): string {
  return `gatehouse-mfa-device-${clientId.replace(/-/g, '')}`;
}

export function readMfaRememberCookie(c: Context, config: CookieConfig): string | undefined {
  return getCookie(c, mfaRememberCookieName(config.clientId)) || undefined;
}

/** Same scope as the refresh cookie: only the sign-in calls ever see it. */
export function setMfaRememberCookie(c: Context, config: CookieConfig, token: string, maxAgeSeconds: number): void {
  setCookie(c, mfaRememberCookieName(config.clientId), token, {
    httpOnly: true,
    secure: config.cookieSecure,
    sameSite: sameSite(config.cookieSameSite),
    path: REFRESH_COOKIE_PATH,
    maxAge: maxAgeSeconds,
  });
}
