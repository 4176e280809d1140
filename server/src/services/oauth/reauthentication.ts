/**
 * Re-authentication for prompt=login and max_age (OIDC Core 3.1.2.1), split out of provider.ts.
 */
import { createLocalJWKSet, jwtVerify } from 'jose';
import type { Clock } from '../../clock';
import type { SessionRow } from '../../db/queries/sessions';
import { sha256 } from '../../crypto';
import type { KeyService } from '../platform/keys';
import type { AuthorizationRequest } from './provider';

/**
 * Gatehouse's own parameter on the way back from the login page: when (epoch seconds) the login page
 * was shown for this request, so a sign-in at or after it counts as the re-authentication asked for.
 * It is a JWT signed with the server's keys (audience LOGIN_AFTER_AUDIENCE, so never an access or ID
 * token), bound to this request's client, redirect URI, PKCE challenge, state, nonce, prompt and
 * max_age, and valid LOGIN_AFTER_TTL_MS: a client cannot forge or move it to skip prompt=login or max_age.
 */
export const LOGIN_AFTER = 'login_after';
const LOGIN_AFTER_AUDIENCE_PATH = '/oauth/login_after';
const LOGIN_AFTER_TTL_MS = 15 * 60_000;

/** Signs and checks LOGIN_AFTER markers, and says whether a browser sign-in is recent enough for a request. */
export function createLoginAfterMarkers(deps: { keys: KeyService; clock: Clock; issuer: string }) {
  const { keys, clock, issuer } = deps;
  /**
   * Whether the browser's sign-in is recent enough for the request (OIDC Core 3.1.2.1): prompt=login
   * wants a sign-in made for this request, max_age one at most that old. A sign-in at or after
   * `loginAfter` (the login page was shown for this request) satisfies both.
   */
  function recentEnough(req: AuthorizationRequest, session: SessionRow, loginAfter: number | undefined): boolean {
    const authTime = Math.floor(session.auth_time / 1000);
    if (loginAfter !== undefined && authTime >= loginAfter) return true;
    if (req.prompt.includes('login')) return false;
    return req.maxAge === undefined || Math.floor(clock.now() / 1000) - authTime <= req.maxAge;
  }

  const loginAfterAudience = `${issuer}${LOGIN_AFTER_AUDIENCE_PATH}`;
  /** What a LOGIN_AFTER marker is bound to: this very request of this client. */
  const requestBinding = (req: AuthorizationRequest) =>
    sha256(JSON.stringify([req.client.clientId, req.redirectUri, req.codeChallenge, req.state ?? null, req.nonce ?? null, req.prompt, req.maxAge ?? null, req.tenantId ?? null]));

  /** A signed marker: the login page was shown for `req` now. */
  const signLoginAfter = (req: AuthorizationRequest) =>
    keys.sign({ la: Math.floor(clock.now() / 1000), req: requestBinding(req) }, clock.now() + LOGIN_AFTER_TTL_MS, loginAfterAudience);

  /** The time of a LOGIN_AFTER marker signed by this server for this very request; undefined for anything else. */
  async function loginAfterOf(req: AuthorizationRequest): Promise<number | undefined> {
    if (!req.loginAfter) return undefined;
    try {
      const { payload } = await jwtVerify(req.loginAfter, createLocalJWKSet(await keys.jwks()), {
        issuer,
        audience: loginAfterAudience,
        algorithms: ['ES256', 'RS256'],
        currentDate: new Date(clock.now()),
      });
      return payload.req === requestBinding(req) && typeof payload.la === 'number' ? payload.la : undefined;
    } catch {
      return undefined;
    }
  }

  return { recentEnough, signLoginAfter, loginAfterOf };
}
