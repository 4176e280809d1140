import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { isGatehouseAuthError } from '../errors.js';
import { listen } from '../test/gatehouse.js';
import { JWKS_FETCH_TIMEOUT_MS, rsaBits } from './key-set.js';
import { verifyAccessToken } from './verify-access-token.js';

describe('the key-set fetch', () => {
  const open: { close: () => Promise<void> }[] = [];
  const held: ServerResponse[] = [];
  afterEach(async () => {
    for (const res of held.splice(0)) res.destroy();
    await Promise.all(open.splice(0).map((s) => s.close()));
  });

  it('gives up on a key set that never answers when the 5000 ms fetch timeout aborts it (401), and tries again at the next token', async () => {
    let requests = 0;
    const jwks = await listen((_req, res) => {
      requests += 1;
      held.push(res); // never answered
    });
    open.push(jwks);
    const token = 'eyJhbGciOiJFUzI1NiIsImtpZCI6ImFiYyJ9.eyJzdWIiOiJ1In0.c2ln';
    const err = await verifyAccessToken(token, { baseUrl: jwks.url, clientId: 'demo-client' }).catch((e: unknown) => e);
    expect(isGatehouseAuthError(err) && err.status).toBe(401);
    const cause = (err as { cause?: { name?: string } }).cause;
    expect(cause?.name).toBe('TimeoutError');
    expect(requests).toBe(1);
    // A failed read is not cached as an empty set.
    await verifyAccessToken(token, { baseUrl: jwks.url, clientId: 'demo-client' }).catch(() => undefined);
    expect(requests).toBe(2);
  }, JWKS_FETCH_TIMEOUT_MS * 3);

  it('counts RSA modulus bits without leading zero bytes', () => {
    const n = (bytes: number[]) => ({ kty: 'RSA', n: Buffer.from(bytes).toString('base64url') });
    expect(rsaBits(n([0, 0x80, 0, 0]))).toBe(24);
    expect(rsaBits(n([0x01, 0xff]))).toBe(9);
    expect(rsaBits(n([0]))).toBe(0);
    expect(rsaBits({ kty: 'RSA' })).toBe(0);
  });
});
