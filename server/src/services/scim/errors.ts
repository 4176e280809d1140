/**
 * SCIM protocol errors (RFC 7644 section 3.12). The SCIM routes answer these in the SCIM error schema,
 * never in Gatehouse's own error body, because identity providers parse `scimType` and `status`.
 * One class, one constructor per scimType, so a status is paired with its type in one place.
 */

export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** The scimType values of RFC 7644 table 9 this service raises. */
export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers'
  | 'sensitive';

/** The body of a SCIM error: `status` is a string, as the RFC's examples and the IdPs expect. */
export interface ScimErrorBody {
  schemas: [typeof SCIM_ERROR_SCHEMA];
  status: string;
  scimType?: ScimType;
  detail?: string;
}

/** A SCIM error a service throws; the route answers `toBody()` with `status`. */
export class ScimError extends Error {
  override name = 'ScimError';
  /** Compared instead of instanceof, which fails across separately bundled copies. */
  readonly kind = 'ScimError';
  constructor(
    readonly status: number,
    readonly scimType: ScimType | undefined,
    readonly detail: string,
  ) {
    super(detail);
  }

  toBody(): ScimErrorBody {
    return scimErrorBody(this.status, this.detail, this.scimType);
  }
}

export function isScimError(err: unknown): err is ScimError {
  return typeof err === 'object' && err !== null && (err as { kind?: unknown }).kind === 'ScimError';
}

/** The SCIM error body for a status, detail and optional scimType. */
export function scimErrorBody(status: number, detail?: string, scimType?: ScimType): ScimErrorBody {
  const body: ScimErrorBody = { schemas: [SCIM_ERROR_SCHEMA], status: String(status) };
  if (scimType) body.scimType = scimType;
  if (detail !== undefined) body.detail = detail;
  return body;
}

/** Shorthands, one per protocol error. */
export const ScimErrors = {
  invalidFilter: (detail: string) => new ScimError(400, 'invalidFilter', detail),
  invalidPath: (detail: string) => new ScimError(400, 'invalidPath', detail),
  noTarget: (detail: string) => new ScimError(400, 'noTarget', detail),
  invalidValue: (detail: string) => new ScimError(400, 'invalidValue', detail),
  invalidSyntax: (detail: string) => new ScimError(400, 'invalidSyntax', detail),
  mutability: (detail: string) => new ScimError(400, 'mutability', detail),
  tooMany: (detail: string) => new ScimError(400, 'tooMany', detail),
  uniqueness: (detail: string) => new ScimError(409, 'uniqueness', detail),
  notFound: (detail: string) => new ScimError(404, undefined, detail),
  /** If-Match did not match the resource's current ETag (RFC 7644 section 3.14). */
  preconditionFailed: (detail = 'The resource has changed since the version given in If-Match') => new ScimError(412, undefined, detail),
  unauthorized: (detail = 'Authorization failure: the bearer token is missing, invalid or revoked') => new ScimError(401, undefined, detail),
  forbidden: (detail = 'The bearer token may not perform this operation') => new ScimError(403, undefined, detail),
  notImplemented: (detail: string) => new ScimError(501, undefined, detail),
  payloadTooLarge: (detail: string) => new ScimError(413, undefined, detail),
};
