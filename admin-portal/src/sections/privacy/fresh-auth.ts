/** The server's answers that mean "prove it is you again first" (server services/auth/recent-auth.ts). */
import { ErrorCodes } from '../../contract';

export type FreshAuth = { kind: 'signIn' } | { kind: 'stepUp'; maxAge: number | null };

/** What a refused security change asks for: a recent sign-in (ER-01306), a recent step-up (ER-01307), or nothing. */
export function freshAuthNeeded(error: unknown): FreshAuth | null {
  if (typeof error !== 'object' || error === null || !('errorCode' in error)) return null;
  if (error.errorCode === ErrorCodes.recentAuthRequired) return { kind: 'signIn' };
  if (error.errorCode !== ErrorCodes.stepUpRequired) return null;
  const context = 'errorContext' in error && typeof error.errorContext === 'object' && error.errorContext !== null ? (error.errorContext as Record<string, unknown>) : {};
  const maxAge = typeof context.maxAge === 'number' && Number.isFinite(context.maxAge) ? context.maxAge : null;
  return { kind: 'stepUp', maxAge };
}

/**
 * The login box's step-up route for `maxAge`, coming back to `returnTo` (the page the portal was
 * opened on) once the second factor is proven.
 */
export function stepUpHref(stepUpUrl: string, maxAge: number | null, returnTo: string): string {
  const query = new URLSearchParams();
  if (maxAge !== null) query.set('maxAge', String(maxAge));
  query.set('redirectUrl', returnTo);
  return `${stepUpUrl}${stepUpUrl.includes('?') ? '&' : '?'}${query.toString()}`;
}
