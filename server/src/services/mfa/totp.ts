/**
 * TOTP (RFC 6238) through the `otpauth` package: SHA-1, 6 digits, 30 s steps, the parameters every
 * authenticator app supports. The server accepts the current step and one on either side (clock
 * drift); replay of an accepted step is refused by the caller, which stores the step it accepted.
 */
import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
export const TOTP_ALGORITHM = 'SHA1';
/** Steps accepted either side of the current one. */
export const TOTP_WINDOW = 1;
/** The issuer when none is given (the authenticator entry is normally filed under the tenant's or the application's name). */
export const TOTP_ISSUER = 'Gatehouse';

/** A new 160-bit secret (RFC 4226 recommends 160 bits for HMAC-SHA-1), base32 encoded. */
export function newTotpSecret(): string {
  return new Secret({ buffer: randomBytes(20).buffer as ArrayBuffer }).base32;
}

function totp(secretBase32: string, label = 'user', issuer = TOTP_ISSUER): TOTP {
  return new TOTP({ issuer, label, algorithm: TOTP_ALGORITHM, digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(secretBase32) });
}

/**
 * The otpauth:// URI an authenticator app reads from the QR code; `issuer` is the name the app files
 * the entry under (the tenant's or the application's). A colon would split the label, so it is dropped.
 */
export function totpUri(secretBase32: string, accountName: string, issuer = TOTP_ISSUER): string {
  const clean = issuer.replace(/:/g, ' ').trim().slice(0, 100) || TOTP_ISSUER;
  return totp(secretBase32, accountName, clean).toString();
}

/** The QR code of a URI as a PNG data URL, for an <img>. */
export async function qrCodeDataUrl(uri: string): Promise<string> {
  // Loaded with the first enrolment, not at start (~45 ms of every server start).
  const { default: QRCode } = await import('qrcode');
  return QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 1, width: 240 });
}

/**
 * The time step a code belongs to, if it is valid at `nowMs` within the window; null otherwise.
 * otpauth compares the digits in constant time.
 */
export function matchTotp(secretBase32: string, code: string, nowMs: number): number | null {
  const t = totp(secretBase32);
  const delta = t.validate({ token: code, timestamp: nowMs, window: TOTP_WINDOW });
  if (delta === null) return null;
  return t.counter({ timestamp: nowMs }) + delta;
}

/** The code of the step containing `nowMs` (used by tests and nowhere in request handling). */
export function totpCodeAt(secretBase32: string, nowMs: number): string {
  return totp(secretBase32).generate({ timestamp: nowMs });
}
