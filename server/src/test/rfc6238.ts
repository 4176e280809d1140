/**
 * An independent TOTP (RFC 4226 HOTP + RFC 6238), written from the RFCs with node:crypto only. It
 * plays the authenticator app in tests, so the server's otpauth-based TOTP is checked against a
 * second implementation rather than against itself.
 */
import { createHmac } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 decoding (padding and case ignored). */
export function base32Decode(input: string): Buffer {
  const clean = input.toUpperCase().replace(/=+$/, '').replace(/\s/g, '');
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const index = BASE32.indexOf(ch);
    if (index < 0) throw new Error(`not base32: ${ch}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** RFC 4226 section 5.3: HMAC over the 8-byte counter, dynamic truncation, modulo 10^digits. */
export function hotp(key: Buffer, counter: number, digits = 6, algorithm: 'sha1' | 'sha256' | 'sha512' = 'sha1'): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, key).update(msg).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** RFC 6238: HOTP with T = floor((unix time - T0) / X), T0 = 0, X = 30 s. */
export function totp(key: Buffer, unixMs: number, digits = 6, algorithm: 'sha1' | 'sha256' | 'sha512' = 'sha1', periodSeconds = 30): string {
  return hotp(key, Math.floor(unixMs / 1000 / periodSeconds), digits, algorithm);
}

/** The code an authenticator app shows for a base32 secret at a time. */
export function appCode(secretBase32: string, unixMs: number): string {
  return totp(base32Decode(secretBase32), unixMs);
}
