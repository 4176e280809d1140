/**
 * Errors of the sealed session (seed 000 sections 5 and 8). Guards compare `kind`, never
 * `instanceof`, because a host may load two copies of the package.
 */

/** The seed's session-library failures, each with its fixed message. */
export const SessionErrorMessages = {
  passwordTooShort: 'Password string too short (min 32 characters required)',
  cookieTooLong: 'Cookie length is over 4096 characters, browsers will refuse it',
  noSecureRandom: 'Missing secure random support: this runtime has no crypto.getRandomValues',
  partCount: 'Incorrect number of sealed components',
  wrongPrefix: 'Wrong mac prefix',
  invalidExpiration: 'Invalid expiration',
  expired: 'Expired seal',
  badHmac: 'Bad hmac value',
  invalidPasswordId: 'Invalid password id',
  unknownPasswordId: 'Cannot find password',
  invalidEncoding: 'Invalid base64url value in sealed components',
  badJson: 'Failed parsing sealed object JSON',
} as const;

export type SessionErrorReason = keyof typeof SessionErrorMessages;

/** A session that cannot be sealed or unsealed; `reason` says which rule refused it. */
export class GatehouseSessionError extends Error {
  readonly kind = 'gatehouse-session-error' as const;
  readonly reason: SessionErrorReason;

  constructor(reason: SessionErrorReason, detail?: string) {
    super(detail ? `${SessionErrorMessages[reason]}: ${detail}` : SessionErrorMessages[reason]);
    this.name = 'GatehouseSessionError';
    this.reason = reason;
  }
}

/** Whether `err` is a GatehouseSessionError (from any copy of the package). */
export function isGatehouseSessionError(err: unknown): err is GatehouseSessionError {
  return typeof err === 'object' && err !== null && (err as { kind?: unknown }).kind === 'gatehouse-session-error';
}
