/**
 * Redirect URL validation (seed 000 section 5) and the after-login target (seed 4.2).
 * A redirect target taken from a query string is attacker-controlled: it is accepted only when it
 * parses to an http(s) URL on the current origin or on an explicitly allowed origin.
 */
import type { AuthRoutes } from './core/types';
import { ErrorMessages } from './errors';
import { normalizePath, type RouteName } from './routes';

export interface RedirectValidationOptions {
  /** The page URL the redirect is resolved against (`window.location.href`). */
  currentUrl: string;
  /** Extra origins a redirect may go to, e.g. `https://app.example.com`. */
  allowedOrigins?: readonly string[];
  /**
   * The seed's "same-site redirects are enforced" setting. Gatehouse never open-redirects: with or
   * without it only the current origin and `allowedOrigins` are accepted.
   */
  enforceSameSite?: boolean;
}

// Whitespace and control characters are stripped or reinterpreted by URL parsers ("/\t/evil.com").
const UNSAFE_CHARACTERS = /[\s\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\ufeff\\]/;

function originOf(value: string): string | null {
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

/**
 * The redirect target if it is safe to navigate to, else null with the seed's warning.
 * Same-origin targets come back as path + query + hash; allowed other origins as a full URL.
 */
export function getValidRedirectUrl(raw: string | null | undefined, options: RedirectValidationOptions): string | null {
  if (raw === null || raw === undefined || raw === '') return null;
  const result = validate(raw, options);
  if (result === null) console.warn(ErrorMessages.invalidRedirect);
  return result;
}

function validate(raw: string, { currentUrl, allowedOrigins = [] }: RedirectValidationOptions): string | null {
  if (typeof raw !== 'string' || raw.length > 2048) return null;
  if (UNSAFE_CHARACTERS.test(raw)) return null;
  if (raw.startsWith('//')) return null;
  // A scheme must be a full http(s) URL: 'https:evil.com' resolves differently across parsers.
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw) && !/^https?:\/\/[^/]/i.test(raw)) return null;
  let current: URL;
  let target: URL;
  try {
    current = new URL(currentUrl);
    target = new URL(raw, current);
  } catch {
    return null;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return null;
  if (target.username || target.password) return null;
  if (target.origin === current.origin) {
    // Dot-segments are resolved before this point ('/.//evil.com' -> '//evil.com'): a path that now
    // starts with '//' would be read as another host when navigated to, so it is refused.
    if (target.pathname.startsWith('//')) return null;
    return `${target.pathname}${target.search}${target.hash}`;
  }
  const allowed = allowedOrigins.map(originOf).filter((o): o is string => o !== null && o !== 'null');
  return allowed.includes(target.origin) ? target.href : null;
}

/** Routes a user must never be sent back to after signing in (seed 4.2). */
const NEVER_AFTER_AUTH: readonly RouteName[] = ['loginUrl', 'customLoginUrl', 'logoutUrl', 'activateUrl', 'activateWithOTCUrl'];

/** Where to go after authentication: the stored target, unless it is a login, logout or activate route. */
export function getAfterAuthTarget(stored: string | null | undefined, routes: AuthRoutes): string {
  if (typeof stored !== 'string' || stored === '') return routes.authenticatedUrl;
  const path = normalizePath(stored);
  for (const name of NEVER_AFTER_AUTH) {
    const route = routes[name];
    if (route && normalizePath(route) === path) return routes.authenticatedUrl;
  }
  return stored;
}
