/**
 * Paths of the Privacy section's login sessions (seed 001 section 7 "Sessions: GET, DELETE by id or
 * all"), without zod: the admin portal's privacy section and the server's routes share them. Every
 * path acts on the signed-in user's own sessions only. `{sessionId}` is a path parameter.
 */
const mySessions = '/identity/resources/users/sessions/v1/me';

export const SessionPaths = {
  /** GET: the caller's live sessions, `current` marking the one of this access token. */
  mySessions,
  /** DELETE: signs one of the caller's sessions out (its refresh token stops working). */
  mySession: `${mySessions}/{sessionId}`,
  /** DELETE: signs out every session of the caller except the current one; `{ revoked }`. */
  myOtherSessions: `${mySessions}/all`,
} as const;
