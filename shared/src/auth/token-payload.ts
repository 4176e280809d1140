/**
 * Reads a JWT's payload without verifying it (the browser only decides what to show; the server
 * verifies). Malformed input fails with the seed's messages (seed 000 section 5): 'Invalid token
 * specified' for anything that is not a token, 'Illegal base64url string!' for a part that is not
 * base64url.
 */
export const INVALID_TOKEN_MESSAGE = 'Invalid token specified';
export const ILLEGAL_BASE64URL_MESSAGE = 'Illegal base64url string!';

/** The error `decodeTokenPayload` throws; `kind` survives separately built bundles where `instanceof` does not. */
export class InvalidTokenError extends Error {
  readonly kind = 'InvalidTokenError';
  constructor(message: string) {
    super(message);
    this.name = 'InvalidTokenError';
  }
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** Decodes a base64url string (no padding needed) to UTF-8 text; throws 'Illegal base64url string!'. */
export function decodeBase64Url(input: string): string {
  // A length of 4n+1 can never come from encoding bytes.
  if (!BASE64URL.test(input) || input.length % 4 === 1) throw new InvalidTokenError(ILLEGAL_BASE64URL_MESSAGE);
  const base64 = input.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(input.length / 4) * 4, '=');
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new InvalidTokenError(ILLEGAL_BASE64URL_MESSAGE);
  }
}

/** The claims of a compact JWT (three dot-separated parts); throws InvalidTokenError with the seed's message. */
export function decodeTokenPayload(token: unknown): Record<string, unknown> {
  if (typeof token !== 'string') throw new InvalidTokenError(INVALID_TOKEN_MESSAGE);
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) throw new InvalidTokenError(INVALID_TOKEN_MESSAGE);
  const text = decodeBase64Url(parts[1]);
  let claims: unknown;
  try {
    claims = JSON.parse(text);
  } catch {
    throw new InvalidTokenError(INVALID_TOKEN_MESSAGE);
  }
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) throw new InvalidTokenError(INVALID_TOKEN_MESSAGE);
  return claims as Record<string, unknown>;
}
