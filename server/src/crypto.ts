import { createCipheriv, createDecipheriv, createHash, randomBytes, randomFillSync, timingSafeEqual } from 'node:crypto';

/**
 * Ids and secrets are cut from a buffer of the CSPRNG's output, filled 4 KiB at a time, as Node's
 * own randomUUID does: a call into OpenSSL per id cost more than the bytes (randomBytes(32) was
 * 1.7% of a refresh's main thread). Each byte is handed out once: a cut is zeroed in the buffer as
 * it is taken, so the buffer never holds a secret already given out.
 */
const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafeSlow(POOL_BYTES);
let taken = POOL_BYTES;

function fromPool(size: number, encoding: 'hex' | 'base64url'): string {
  if (taken + size > POOL_BYTES) {
    randomFillSync(pool);
    taken = 0;
  }
  const text = pool.toString(encoding, taken, taken + size);
  pool.fill(0, taken, taken + size);
  taken += size;
  return text;
}

/** `bytes` random bytes as hex (ids, trace ids). */
export function randomHex(bytes: number): string {
  return fromPool(bytes, 'hex');
}

/** Opaque random id (128 bits, hex) for rows. */
export function newId(): string {
  return randomHex(16);
}

/** A 256-bit secret for links and cookies, base64url. */
export function newSecret(): string {
  return fromPool(32, 'base64url');
}

/** Secrets are stored only as their SHA-256, so a database leak does not leak usable tokens. */
export function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

const ENC_PREFIX = 'enc:v1:';

/** AES-256-GCM with a random 96-bit IV; output is self-describing so plain rows stay readable. */
export function encrypt(plain: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `${ENC_PREFIX}${iv.toString('base64url')}:${cipher.getAuthTag().toString('base64url')}:${ct.toString('base64url')}`;
}

export function decrypt(stored: string, key: Buffer | null): string {
  if (!stored.startsWith(ENC_PREFIX)) return stored;
  if (!key) throw new Error('A signing key in the database is encrypted but GATEHOUSE_KEY_ENCRYPTION_KEY is not set.');
  const [iv, tag, ct] = stored.slice(ENC_PREFIX.length).split(':');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv ?? '', 'base64url'));
  decipher.setAuthTag(Buffer.from(tag ?? '', 'base64url'));
  try {
    return Buffer.concat([decipher.update(Buffer.from(ct ?? '', 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('A signing key could not be decrypted: GATEHOUSE_KEY_ENCRYPTION_KEY differs from the one it was stored with.');
  }
}
