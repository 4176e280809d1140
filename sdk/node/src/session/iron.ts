/**
 * Iron format version 2 ("Fe26.2"), the sealed-object format of @hapi/iron, written on WebCrypto so
 * it runs in Node and in edge runtimes alike (seed 000 section 5: 8 parts, prefix, expiration,
 * signature, 60 s skew). Settings are iron's defaults: AES-256-CBC and HMAC-SHA256, each keyed by
 * PBKDF2-SHA1 (1 iteration) over the password and a 256-bit random salt.
 *
 *   Fe26.2*passwordId*encryptionSalt*encryptionIv*encrypted*expiration*hmacSalt*hmac
 */
import { GatehouseSessionError } from './errors.js';

export const IRON_PREFIX = 'Fe26.2';
/** Seed 000 section 9: sealed cookie minimum password. */
export const MIN_PASSWORD_LENGTH = 32;
/** Seed 000 section 5: timestamp skew tolerated on incoming expirations. */
export const TIMESTAMP_SKEW_SEC = 60;

/**
 * A password, or passwords by id for rotation (`{ '1': old, '2': new }`): sealing uses the last
 * entry (for numeric ids, the highest: JavaScript orders integer keys ascending), unsealing the
 * entry the sealed value names (`default` when it names none).
 */
export type IronPassword = string | Readonly<Record<string, string>>;

export interface SealOptions {
  /** Lifetime in milliseconds; 0 (the default) seals with no expiration. */
  ttlMs?: number;
  /** Clock, for tests. */
  now?: () => number;
}

export interface UnsealOptions {
  now?: () => number;
  /** Seconds of clock skew tolerated on the expiration; 60 by default. */
  timestampSkewSec?: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });
const BASE64URL = /^[A-Za-z0-9_-]*$/;
const PASSWORD_ID = /^\w+$/;

function subtle() {
  const c = globalThis.crypto;
  if (!c?.subtle || typeof c.getRandomValues !== 'function') throw new GatehouseSessionError('noSecureRandom');
  return c.subtle;
}

function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  if (typeof globalThis.crypto?.getRandomValues !== 'function') throw new GatehouseSessionError('noSecureRandom');
  return globalThis.crypto.getRandomValues(new Uint8Array(length));
}

function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

export function base64urlEncode(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function base64urlDecode(value: string): Uint8Array<ArrayBuffer> {
  if (!BASE64URL.test(value) || value.length % 4 === 1) throw new GatehouseSessionError('invalidEncoding');
  const binary = atob(value.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** Compares two strings in time that depends only on their lengths, never on where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i % (b.length || 1));
  return diff === 0;
}

function checkPassword(secret: string): void {
  if (typeof secret !== 'string' || secret.length < MIN_PASSWORD_LENGTH) throw new GatehouseSessionError('passwordTooShort');
}

/** Checks a password (or every password of a rotation set) at configuration time. */
export function assertPassword(password: IronPassword): void {
  if (typeof password === 'string') return checkPassword(password);
  const entries = Object.entries(password ?? {});
  if (entries.length === 0) throw new GatehouseSessionError('passwordTooShort');
  for (const [id, secret] of entries) {
    if (!PASSWORD_ID.test(id)) throw new GatehouseSessionError('invalidPasswordId', id);
    checkPassword(secret);
  }
}

function sealingPassword(password: IronPassword): { id: string; secret: string } {
  assertPassword(password);
  if (typeof password === 'string') return { id: '', secret: password };
  const [id, secret] = Object.entries(password).at(-1)!;
  // iron leaves the id part empty for its `default` password, and looks `default` up for it.
  return { id: id === 'default' ? '' : id, secret };
}

function unsealingPassword(password: IronPassword, id: string): string {
  if (typeof password === 'string') {
    checkPassword(password);
    return password;
  }
  const secret = Object.hasOwn(password, id || 'default') ? password[id || 'default'] : undefined;
  if (secret === undefined) throw new GatehouseSessionError('unknownPasswordId', id);
  checkPassword(secret);
  return secret;
}

/** The password as a PBKDF2 key, imported once per password (a few passwords per process). */
const passwordKeys = new Map<string, ReturnType<ReturnType<typeof subtle>['importKey']>>();

function passwordKey(secret: string) {
  let key = passwordKeys.get(secret);
  if (!key) {
    key = subtle().importKey('raw', encoder.encode(secret), 'PBKDF2', false, ['deriveBits']);
    key.catch(() => passwordKeys.delete(secret));
    if (passwordKeys.size >= 16) passwordKeys.clear();
    passwordKeys.set(secret, key);
  }
  return key;
}

async function deriveKey(secret: string, salt: string, usage: 'AES-CBC' | 'HMAC') {
  const s = subtle();
  const base = await passwordKey(secret);
  const bits = await s.deriveBits({ name: 'PBKDF2', hash: 'SHA-1', salt: encoder.encode(salt), iterations: 1 }, base, 256);
  return usage === 'AES-CBC'
    ? s.importKey('raw', bits, 'AES-CBC', false, ['encrypt', 'decrypt'])
    : s.importKey('raw', bits, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

async function hmac(secret: string, salt: string, data: string): Promise<string> {
  const key = await deriveKey(secret, salt, 'HMAC');
  return base64urlEncode(new Uint8Array(await subtle().sign('HMAC', key, encoder.encode(data))));
}

/** Seals `value` (any JSON value) into an iron string. */
export async function seal(value: unknown, password: IronPassword, options: SealOptions = {}): Promise<string> {
  const now = (options.now ?? Date.now)();
  const { id, secret } = sealingPassword(password);
  const json = JSON.stringify(value);
  if (json === undefined) throw new TypeError('seal: the value is not serialisable to JSON');
  const encryptionSalt = toHex(randomBytes(32));
  const iv = randomBytes(16);
  const key = await deriveKey(secret, encryptionSalt, 'AES-CBC');
  const encrypted = new Uint8Array(await subtle().encrypt({ name: 'AES-CBC', iv }, key, encoder.encode(json)));
  const expiration = options.ttlMs ? String(now + options.ttlMs) : '';
  const base = `${IRON_PREFIX}*${id}*${encryptionSalt}*${base64urlEncode(iv)}*${base64urlEncode(encrypted)}*${expiration}`;
  const hmacSalt = toHex(randomBytes(32));
  return `${base}*${hmacSalt}*${await hmac(secret, hmacSalt, base)}`;
}

/**
 * Unseals an iron string: refused (GatehouseSessionError) unless it has 8 parts, the Fe26.2 prefix,
 * a well-formed expiration not passed (beyond the skew) and a valid signature, compared in constant
 * time before anything is decrypted.
 */
export async function unseal<T = unknown>(sealed: string, password: IronPassword, options: UnsealOptions = {}): Promise<T> {
  const now = (options.now ?? Date.now)();
  const parts = typeof sealed === 'string' ? sealed.split('*') : [];
  if (parts.length !== 8) throw new GatehouseSessionError('partCount');
  const [prefix, id, encryptionSalt, ivB64, encryptedB64, expiration, hmacSalt, mac] = parts as [string, string, string, string, string, string, string, string];
  if (prefix !== IRON_PREFIX) throw new GatehouseSessionError('wrongPrefix');
  if (expiration) {
    if (!/^\d{1,16}$/.test(expiration)) throw new GatehouseSessionError('invalidExpiration');
    if (Number(expiration) <= now - (options.timestampSkewSec ?? TIMESTAMP_SKEW_SEC) * 1000) throw new GatehouseSessionError('expired');
  }
  if (id && !PASSWORD_ID.test(id)) throw new GatehouseSessionError('invalidPasswordId');
  const secret = unsealingPassword(password, id);
  const base = parts.slice(0, 6).join('*');
  // The decryption key is derived alongside the signature check, but used only once it passes.
  const decryptionKey = deriveKey(secret, encryptionSalt, 'AES-CBC');
  decryptionKey.catch(() => undefined);
  if (!constantTimeEqual(await hmac(secret, hmacSalt, base), mac)) throw new GatehouseSessionError('badHmac');
  const key = await decryptionKey;
  let json: string;
  try {
    json = decoder.decode(await subtle().decrypt({ name: 'AES-CBC', iv: base64urlDecode(ivB64) }, key, base64urlDecode(encryptedB64)));
  } catch (err) {
    if (err instanceof GatehouseSessionError) throw err;
    throw new GatehouseSessionError('badJson', 'cannot decrypt');
  }
  try {
    // A `__proto__` key stays out of the result, so merging it later cannot reach a prototype.
    return JSON.parse(json, (k, v) => (k === '__proto__' ? undefined : v)) as T;
  } catch (err) {
    throw new GatehouseSessionError('badJson', (err as Error).message);
  }
}
