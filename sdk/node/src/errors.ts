/**
 * The one error type of @gatehouse/node. Guards compare `kind`, never `instanceof`, because a host
 * may load two copies of the package (a bundled one and a linked one).
 */

/** Error codes the middleware answers with; the same as the Gatehouse server's. */
export const NodeErrorCodes = {
  unauthorized: 'ER-01004',
  forbidden: 'ER-01005',
} as const;

export type NodeErrorCode = (typeof NodeErrorCodes)[keyof typeof NodeErrorCodes];

/** A refused request: `status` is 401 (no valid token) or 403 (a valid token without the right). */
export class GatehouseAuthError extends Error {
  readonly kind = 'gatehouse-auth-error' as const;
  readonly status: 401 | 403;
  readonly code: NodeErrorCode;

  constructor(status: 401 | 403, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'GatehouseAuthError';
    this.status = status;
    this.code = status === 401 ? NodeErrorCodes.unauthorized : NodeErrorCodes.forbidden;
  }
}

/** Whether `err` is a GatehouseAuthError (from any copy of the package). */
export function isGatehouseAuthError(err: unknown): err is GatehouseAuthError {
  return typeof err === 'object' && err !== null && (err as { kind?: unknown }).kind === 'gatehouse-auth-error';
}

/** The error body of the Gatehouse API (DESIGN.md): `{ errors: [message], errorCode }`. */
export function errorBody(err: GatehouseAuthError): { errors: string[]; errorCode: string } {
  return { errors: [err.message], errorCode: err.code };
}
