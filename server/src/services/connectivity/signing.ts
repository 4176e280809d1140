/**
 * Standard Webhooks 1.0 signatures (issue 16): every delivery carries `webhook-id` (the event id,
 * the same on every retry, so receivers can drop duplicates), `webhook-timestamp` (seconds) and
 * `webhook-signature`, a space-separated list of `v1,<base64 HMAC-SHA256(key, "id.timestamp.body")>`,
 * one per secret that signs: the current one, and for 24 hours after a rotation the previous one,
 * so a receiver still holding the old secret keeps verifying. A secret is `whsec_` + base64 of 32
 * random bytes; the HMAC key is those bytes.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '@gatehouse/shared/wire';

/** A new signing secret, `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** The HMAC key of a `whsec_` secret: its base64-decoded part. */
function keyOf(secret: string): Buffer {
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX)) throw new Error('A webhook secret must start with whsec_');
  const key = Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64');
  if (key.length < 24) throw new Error('A webhook secret must hold at least 24 bytes');
  return key;
}

/** One `v1,<base64>` signature of a message under one secret. */
export function signMessage(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`, 'utf8').digest('base64');
  return `v1,${mac}`;
}

/** The three Standard Webhooks headers of a message, signed by every given secret (current first). */
export function webhookHeaders(secrets: readonly string[], id: string, timestampSeconds: number, body: string): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  if (secrets.length === 0) throw new Error('A webhook is signed by at least one secret');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((s) => signMessage(s, id, timestampSeconds, body)).join(' '),
  };
}
