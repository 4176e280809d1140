import { ErrorCodes, GENERIC_ERROR_MESSAGE, type ErrorCode } from '@gatehouse/shared/wire';

/** The one application error: services throw it, the HTTP layer maps it to the error body once. */
export class AppError extends Error {
  override name = 'AppError';
  /** Compared instead of instanceof, which fails across separately bundled copies. */
  readonly kind = 'AppError';
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string,
    readonly context?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export function isAppError(err: unknown): err is AppError {
  return typeof err === 'object' && err !== null && (err as { kind?: unknown }).kind === 'AppError';
}

/** Shorthands for the errors services raise most; each keeps the code/status pairing in one place. */
export const Errors = {
  validation: (message: string, context?: Record<string, unknown>) => new AppError(ErrorCodes.validation, 400, message, context),
  unauthorized: (message = 'Unauthorized') => new AppError(ErrorCodes.unauthorized, 401, message),
  forbidden: (message = 'Forbidden') => new AppError(ErrorCodes.forbidden, 403, message),
  notFound: (message = 'Not found') => new AppError(ErrorCodes.notFound, 404, message),
  generic: () => new AppError(ErrorCodes.generic, 500, GENERIC_ERROR_MESSAGE),
};
