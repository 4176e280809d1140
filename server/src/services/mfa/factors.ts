/**
 * Building blocks of the MFA service that need no database: recovery codes, emailed codes,
 * the devices view and the email message. Secrets are compared as SHA-256 hashes in constant time.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { MfaStrategies, type MfaDevices, type MfaStrategy, type MfaStrategyState } from '@gatehouse/shared/wire';
import { safeEqual, sha256 } from '../../crypto';
import type { MfaDeviceRow } from '../../db/queries/mfa-devices';
import { ALL_MFA_STRATEGIES, strategyOfDevice } from './strategies';
import { maskPhoneNumber } from '../platform/phone';

/** How many recovery codes an enrolment produces. */
export const RECOVERY_CODE_COUNT = 10;
/** An mfaToken lives this long (seed: short-lived); the login or step-up must be finished in it. */
export const MFA_TOKEN_TTL_MS = 5 * 60_000;
/**
 * Code checks per mfaToken (or emailed code), reserved before each comparison; then it is spent.
 * The per-user brake across tokens is the rate-limit bucket mfaAttemptsPerUser.
 */
export const MFA_MAX_ATTEMPTS = 5;
/** An emailed code lives this long. */
export const EMAIL_CODE_TTL_MS = 10 * 60_000;

// Crockford base32 without I, L, O, U: nothing to misread when copying a code from paper.
const RECOVERY_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** One recovery code: 10 characters (50 bits) as XXXXX-XXXXX. */
export function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  let out = '';
  for (const b of bytes) out += RECOVERY_ALPHABET[b & 31];
  return `${out.slice(0, 5)}-${out.slice(5)}`;
}

/** The form a recovery code is hashed in: case, spaces and dashes do not matter. */
export function normalizeRecoveryCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '');
}

export function hashRecoveryCode(code: string): string {
  return sha256(normalizeRecoveryCode(code));
}

/** The id of the row whose hash matches, checking every row so timing does not tell which one did. */
export function findMatchingHash<T extends { id: string; code_hash: string }>(rows: T[], code: string): T | undefined {
  const hash = hashRecoveryCode(code);
  let found: T | undefined;
  for (const row of rows) if (safeEqual(row.code_hash, hash) && !found) found = row;
  return found;
}

/** A 6-digit code from a CSPRNG. */
export function newEmailCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** a***@example.com: enough for the user to recognise the address, not to learn it. */
export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}

/** Active devices grouped by kind (seed 000 section 3). */
export function devicesView(rows: MfaDeviceRow[]): MfaDevices {
  const active = rows.filter((d) => d.status === 'active');
  const createdAt = (d: MfaDeviceRow) => new Date(d.verified_at ?? d.created_at).toISOString();
  return {
    webauthn: active.filter((d) => d.type === 'webauthn').map((d) => ({ id: d.id, deviceType: d.device_type ?? 'usb-key', ...(d.name ? { name: d.name } : {}), createdAt: createdAt(d) })),
    phones: active.filter((d) => d.type === 'sms').map((d) => ({ id: d.id, phoneNumber: maskPhoneNumber(d.phone_number ?? ''), createdAt: createdAt(d) })),
    authenticators: active.filter((d) => d.type === 'authenticator').map((d) => ({ id: d.id, createdAt: createdAt(d) })),
    emails: active.filter((d) => d.type === 'email').map((d) => ({ id: d.id, email: maskEmail(d.email ?? ''), createdAt: createdAt(d) })),
  };
}

/**
 * Every MFA method and whether this user can use it now: on in the config and a device of it
 * enrolled. With `enrolling` (forceTwoFactor) it says which methods may be enrolled at sign-in
 * instead: on in the config (EmailCode has no sign-in enrolment).
 */
export function strategiesView(rows: MfaDeviceRow[], active: ReadonlySet<MfaStrategy>, enrolling = false): MfaStrategyState[] {
  const enrolled = new Set(rows.filter((d) => d.status === 'active').map(strategyOfDevice));
  return ALL_MFA_STRATEGIES.map((strategy) => ({
    strategy,
    isActive: active.has(strategy) && (enrolling ? strategy !== MfaStrategies.emailCode : enrolled.has(strategy)),
  }));
}
