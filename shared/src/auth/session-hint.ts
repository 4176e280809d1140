/**
 * "This browser may hold a Gatehouse session": a non-secret mark in the host page's localStorage,
 * one per base URL, so that a signed-out page load does not ask the refresh call (whose 401 the
 * browser logs as an error on every visit). The store sets it whenever a session is established
 * (password, MFA, SSO, social, magic link, activation, hosted login callback, tenant switch) and
 * clears it on sign-out and when the server answers that there is no session.
 *
 * It only ever saves a question: a page without the mark (cleared storage, a browser from before
 * the mark) shows the login box, and signing in there works as always and sets it again. It is
 * localStorage, not sessionStorage, so a sign-in in one tab counts in every other tab and window.
 * Without usable storage (sandboxed frame, storage blocked) every load asks, as before.
 */
import type { KeyValueStorage } from './store';

/** The localStorage key prefix; the base URL follows it. Holds '1' or nothing, never a token. */
export const SESSION_HINT_KEY = 'gatehouse-session';

export interface SessionHint {
  /** False only when this browser is known to hold no session here: then do not ask. */
  mayHaveSession(): boolean;
  /** A session was established. */
  set(): void;
  /** Signed out, or the server said there is no session. */
  clear(): void;
}

function hostStorage(): KeyValueStorage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    // Access throws in sandboxed frames with storage disabled.
    return null;
  }
}

/** The hint for the Gatehouse server at `baseUrl`, kept in `storage` (default: the page's localStorage). */
export function createSessionHint(baseUrl: string, storage: KeyValueStorage | null = hostStorage()): SessionHint {
  const key = `${SESSION_HINT_KEY}:${baseUrl.replace(/\/+$/, '')}`;
  const attempt = <T>(run: (s: KeyValueStorage) => T, fallback: T): T => {
    if (!storage) return fallback;
    try {
      return run(storage);
    } catch {
      // Quota exceeded or storage revoked meanwhile: behave as without storage.
      return fallback;
    }
  };
  return {
    mayHaveSession: () => attempt((s) => s.getItem(key) !== null, true),
    set: () => attempt((s) => s.setItem(key, '1'), undefined),
    clear: () => attempt((s) => s.removeItem(key), undefined),
  };
}

/** True when a failed session call means "no session" (the server said so), not "could not ask". */
export function isNoSessionAnswer(statusCode: number | undefined): boolean {
  return statusCode === 400 || statusCode === 401 || statusCode === 403;
}
