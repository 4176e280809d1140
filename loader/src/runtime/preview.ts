/**
 * Preview mode (`previewMode: true`; seed 000 section 1, seed 001 section 1), its own chunk: loaded
 * only in that mode, so nothing of it weighs on a real login form.
 *
 * The line it draws: the identity API is never called. Every call the bundles make goes through the
 * API client, whose fetch is here the in-browser preview API over the sample data. The bundle files
 * themselves (loader, manifest, runtime, login box, portal) still come from the CDN with SRI, as
 * they are the thing being previewed.
 */
import type { AuthRoutes } from '@gatehouse/shared';
import { createPreviewFetch, previewSession } from '../../../shared/src/preview/preview-api';
import { PREVIEW_FORCED_FLAGS } from '../../../shared/src/preview/sample-data';
import type { BootContext } from '../types';

/** Seed 000 section 1: the login box preview is at this static route, whatever the host's routes say. */
export const PREVIEW_LOGIN_ROUTE = '/account/login';

/**
 * The default sign-up and forgotten-password routes (shared's defaultRoutes; preview.test.ts checks
 * they agree). Spelled here because importing defaultRoutes into this chunk would add an export to
 * runtime.js, a file of the before-login budget.
 */
export const SIGNED_OUT_DEFAULTS = { signUpUrl: '/account/sign-up', forgetPasswordUrl: '/account/forget-password' } as const;

/** What the runtime's API client and store take in preview mode (spread over their usual options). */
export interface PreviewClient {
  fetch: typeof globalThis.fetch;
  flags: Record<string, string>;
  routes: Partial<AuthRoutes>;
  sessionHint: undefined;
}

/**
 * The preview's API and starting state; it sets the boot context's flags and session (the runtime's
 * own object). The visitor starts signed in as the sample admin (so the portal opens at once),
 * except on the login route, where the login box shows and any address with a password of 6 to 128
 * characters signs in (the sign-up and forgotten-password pages start signed out too). No session mark is written to the host's storage.
 */
export function createPreview(ctx: BootContext, baseUrl: string, pathname: string = window.location.pathname, now: number = Date.now()): PreviewClient {
  // A custom login page is the host's own: the preview shows the login box instead.
  const { customLoginUrl: _custom, ...hostRoutes } = ctx.options.authOptions?.routes ?? {};
  // Signed out on the login box's signed-out pages (a sign-up or forgotten password opened directly too).
  const onLogin = [PREVIEW_LOGIN_ROUTE, hostRoutes.signUpUrl ?? SIGNED_OUT_DEFAULTS.signUpUrl, hostRoutes.forgetPasswordUrl ?? SIGNED_OUT_DEFAULTS.forgetPasswordUrl].includes(pathname);
  ctx.flags = { ...PREVIEW_FORCED_FLAGS };
  ctx.session = onLogin ? null : previewSession(now);
  return { fetch: createPreviewFetch({ baseUrl, signedIn: !onLogin }), flags: ctx.flags, routes: { ...hostRoutes, loginUrl: PREVIEW_LOGIN_ROUTE }, sessionHint: undefined };
}
