import { createHmac } from 'node:crypto';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { describe, expect, it } from 'vitest';
import { newWebhookSecret, signMessage, webhookHeaders } from './signing';

const body = JSON.stringify({ type: 'user.invited', timestamp: new Date().toISOString(), data: { userId: 'u1', tenantId: 't1', actor: null } });
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Both peers: the Standard Webhooks reference library and Svix's verifier. */
const peers = [
  ['standardwebhooks', (secret: string, payload: string, headers: Record<string, string>) => new StandardWebhook(secret).verify(payload, headers)],
  ['svix', (secret: string, payload: string, headers: Record<string, string>) => new SvixWebhook(secret).verify(payload, headers)],
] as const;

describe('webhook signatures (Standard Webhooks 1.0)', () => {
  it('makes whsec_ secrets of 32 random bytes, each different', () => {
    const a = newWebhookSecret();
    const b = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(a.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(a).not.toBe(b);
  });

  it('signs HMAC-SHA256 over id.timestamp.body with the decoded key, as v1,<base64>', () => {
    // A fixed secret and message: the expected MAC computed independently with openssl's definition.
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const sig = signMessage(secret, 'msg_1', 1700000000, '{"a":1}');
    expect(sig).toBe(`v1,${createHmac('sha256', Buffer.alloc(32, 7)).update('msg_1.1700000000.{"a":1}').digest('base64')}`);
  });

  for (const [name, verify] of peers) {
    it(`verifies with ${name}`, () => {
      const secret = newWebhookSecret();
      const headers = webhookHeaders([secret], 'evt_123', nowSeconds(), body);
      expect(verify(secret, body, headers)).toEqual(JSON.parse(body));
    });

    it(`during a rotation both signatures are sent and ${name} verifies with either secret`, () => {
      const current = newWebhookSecret();
      const previous = newWebhookSecret();
      const headers = webhookHeaders([current, previous], 'evt_rot', nowSeconds(), body);
      expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
      expect(verify(current, body, headers)).toEqual(JSON.parse(body));
      expect(verify(previous, body, headers)).toEqual(JSON.parse(body));
      expect(() => verify(newWebhookSecret(), body, headers)).toThrow();
    });

    it(`${name} refuses a tampered body, id or timestamp`, () => {
      const secret = newWebhookSecret();
      const ts = nowSeconds();
      const headers = webhookHeaders([secret], 'evt_t', ts, body);
      expect(() => verify(secret, body.replace('u1', 'u2'), headers)).toThrow();
      expect(() => verify(secret, body, { ...headers, 'webhook-id': 'evt_other' })).toThrow();
      expect(() => verify(secret, body, { ...headers, 'webhook-timestamp': String(ts - 1) })).toThrow();
    });
  }

  it('refuses a secret without the whsec_ prefix or with fewer than 24 bytes', () => {
    expect(() => signMessage(Buffer.alloc(32).toString('base64'), 'i', 1, 'b')).toThrow(/whsec_/);
    expect(() => signMessage(`whsec_${Buffer.alloc(16).toString('base64')}`, 'i', 1, 'b')).toThrow(/24 bytes/);
  });
});
