/**
 * The error catalogue of seed 000 section 8 and the one error shape every failed call becomes.
 * `isGatehouseError` compares the `kind` field: `instanceof` fails across separately built bundles.
 */
import type { GatehouseError } from './core/types';
import { ErrorCodes, GENERIC_ERROR_MESSAGE } from './wire/error-codes';

export { GENERIC_ERROR_MESSAGE };
export const GENERIC_ERROR_CODE = ErrorCodes.generic;

export const ErrorMessages = {
  generic: GENERIC_ERROR_MESSAGE,
  requestTooLarge: 'Error request is too large',
  unknown: 'Unknown error occurred',
  recoveryEmail: 'An error occurred while sending recovery email',
  recoverySms: 'An error occurred while sending recovery sms',
  verifyPasswordSms: 'An error occurred while verifying password via sms',
  recoveryStrategy: 'An error occurred while determining recovery strategy',
  noRecoveryMethods: 'No active password recovery methods found.',
  sessionIdMissing: 'Session ID not found in state for verifying password via sms.',
  failedToAuthenticate: 'Failed to authenticate',
  invitationInvalid: "We couldn't verify your invitation",
  metadataNotFound: 'metadata not found',
  invalidRedirect: 'The redirect url param is not valid, the origin is a different site',
  invalidSmsResponse: 'Invalid response from server: missing userId or token',
} as const;

/** Builds a GatehouseError. */
export function createGatehouseError(
  message: string,
  statusCode: number,
  extra: { traceId?: string; errorCode?: string; errorContext?: Record<string, unknown> } = {},
): GatehouseError {
  const error: GatehouseError = { kind: 'GatehouseError', message, statusCode };
  if (extra.traceId) error.traceId = extra.traceId;
  if (extra.errorCode) error.errorCode = extra.errorCode;
  if (extra.errorContext) error.errorContext = extra.errorContext;
  return error;
}

/** True for any GatehouseError, from this bundle or another one. */
export function isGatehouseError(value: unknown): value is GatehouseError {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'GatehouseError';
}

/** Any thrown value as a GatehouseError; unknown errors become a generic 500 (seed 8). */
export function toGatehouseError(value: unknown): GatehouseError {
  if (isGatehouseError(value)) return value;
  return createGatehouseError(GENERIC_ERROR_MESSAGE, 500, { errorCode: GENERIC_ERROR_CODE });
}

/** The text to show a user for a failed call. */
export function errorMessageOf(value: unknown): string {
  return toGatehouseError(value).message;
}
