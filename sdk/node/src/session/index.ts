export { seal, unseal, IRON_PREFIX, MIN_PASSWORD_LENGTH, TIMESTAMP_SKEW_SEC, type IronPassword, type SealOptions, type UnsealOptions } from './iron.js';
export {
  createSessionCookies,
  splitSealedSession,
  readSession,
  clearSessionCookies,
  sessionCookieName,
  sealedSessionFrom,
  SESSION_COOKIE_PREFIX,
  SESSION_LIFETIME_SEC,
  COOKIE_SIZE_CAP,
  type SessionCookieOptions,
  type SameSite,
} from './cookie.js';
export { GatehouseSessionError, isGatehouseSessionError, SessionErrorMessages, type SessionErrorReason } from './errors.js';
