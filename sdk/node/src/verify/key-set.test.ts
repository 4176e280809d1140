import type { Server, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isGatehouseAuthError } from '../errors.js';
import { listen } from '../test/gatehouse.js';
import { JWKS_FETCH_TIMEOUT_MS, rsaBits } from './key-set.js';
import { verifyAccessToken } from './verify-access-token.js';

describe('the key-set fetch', () => {
  const open: { close: () => Promise<void> }[] = [];
  const held: ServerResponse[] = [];
  afterEach(async () => {
    vi.restoreAllMocks();
    // The aborted fetches leave idle connections open (the server's close would wait the ~4 s until
    // fetch drops them): closed with the held ones.
    for (const res of held.splice(0)) (res.socket as { server?: Server } | null)?.server?.closeAllConnections();
    await Promise.all(open.splice(0).map((s) => s.close()));
  });

  it('gives up on a key set that never answers when the 5000 ms fetch timeout aborts it (401), and tries again at the next token', async () => {
    // The fetch is given AbortSignal.timeout(5000) (checked below). The signal it gets here fires as
    // that one does at 5 s (a TimeoutError DOMException) once the key set holds the request, so the
    // test does not wait the 5 s out, and the request has always arrived before the abort.
    const fireTimeouts: (() => void)[] = [];
    const timeout = vi.spyOn(AbortSignal, 'timeout').mockImplementation(() => {
      const controller = new AbortController();
      fireTimeouts.push(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')));
      return controller.signal;
    });
    let requests = 0;
    const jwks = await listen((_req, res) => {
      requests += 1;
      held.push(res); // never answered
      for (const fire of fireTimeouts.splice(0)) fire();
    });
    open.push(jwks);
    const token = 'eyJhbGciOiJFUzI1NiIsImtpZCI6ImFiYyJ9.eyJzdWIiOiJ1In0.c2ln';
    const err = await verifyAccessToken(token, { baseUrl: jwks.url, clientId: 'demo-client' }).catch((e: unknown) => e);
    expect(isGatehouseAuthError(err) && err.status).toBe(401);
    const cause = (err as { cause?: { name?: string } }).cause;
    expect(cause?.name).toBe('TimeoutError');
    expect(requests).toBe(1);
    expect(timeout.mock.calls).toEqual([[JWKS_FETCH_TIMEOUT_MS]]);
    expect(JWKS_FETCH_TIMEOUT_MS).toBe(5000);
    // A failed read is not cached as an empty set.
    await verifyAccessToken(token, { baseUrl: jwks.url, clientId: 'demo-client' }).catch(() => undefined);
    expect(requests).toBe(2);
    expect(timeout.mock.calls).toEqual([[JWKS_FETCH_TIMEOUT_MS], [JWKS_FETCH_TIMEOUT_MS]]);
  });

  it('counts RSA modulus bits without leading zero bytes', () => {
    const n = (bytes: number[]) => ({ kty: 'RSA', n: Buffer.from(bytes).toString('base64url') });
    expect(rsaBits(n([0, 0x80, 0, 0]))).toBe(24);
    expect(rsaBits(n([0x01, 0xff]))).toBe(9);
    expect(rsaBits(n([0]))).toBe(0);
    expect(rsaBits({ kty: 'RSA' })).toBe(0);
  });
});
