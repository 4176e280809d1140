import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { AdminPaths, ApiPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../app';
import { describeDialects, signUpAndActivate } from '../test/harness';
import { COMPRESS_MIN_BYTES } from './compression';

async function get(server: GatehouseServer, path: string, headers: Record<string, string>, method = 'GET') {
  const res = await server.fetch(new Request(`${server.config.publicUrl}${path}`, { method, headers }));
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

function decoded(res: Response, bytes: Buffer): string {
  const coding = res.headers.get('content-encoding');
  if (coding === 'br') return brotliDecompressSync(bytes).toString('utf8');
  if (coding === 'gzip') return gunzipSync(bytes).toString('utf8');
  expect(coding).toBeNull();
  return bytes.toString('utf8');
}

describeDialects('JSON compression', (h) => {
  it('a JSON answer over 1 KB comes br (else gzip) when Accept-Encoding allows, and decodes to the identity body', async () => {
    const server = await h.start();
    const { accessToken } = await signUpAndActivate(server);
    const auth = { authorization: `Bearer ${accessToken}` };

    const plain = await get(server, AdminPaths.permissions, auth);
    expect(plain.res.status).toBe(200);
    expect(plain.res.headers.get('content-encoding')).toBeNull();
    expect(plain.res.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(plain.bytes.length).toBeGreaterThan(COMPRESS_MIN_BYTES);

    for (const [accept, coding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip, deflate', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ] as const) {
      const { res, bytes } = await get(server, AdminPaths.permissions, { ...auth, 'accept-encoding': accept });
      expect(res.headers.get('content-encoding'), accept).toBe(coding);
      expect(res.headers.get('content-length'), accept).toBe(String(bytes.length));
      expect(res.headers.get('vary'), accept).toMatch(/accept-encoding/i);
      expect(bytes.length, accept).toBeLessThan(plain.bytes.length);
      expect(JSON.parse(decoded(res, bytes)), accept).toEqual(JSON.parse(plain.bytes.toString('utf8')));
      // The shared layers still mark the answer.
      expect(res.headers.get('cache-control'), accept).toBe('no-store');
    }

    for (const accept of ['gzip;q=0, br;q=0', 'identity', 'deflate']) {
      const { res, bytes } = await get(server, AdminPaths.permissions, { ...auth, 'accept-encoding': accept });
      expect(res.headers.get('content-encoding'), accept).toBeNull();
      expect(bytes.toString('utf8'), accept).toBe(plain.bytes.toString('utf8'));
    }
  });

  it('leaves small JSON, HEAD requests and answers to requests with cookies as they are', async () => {
    const server = await h.start();
    const { accessToken } = await signUpAndActivate(server);
    const accept = { 'accept-encoding': 'gzip, br' };

    const small = await get(server, ApiPaths.me, accept); // 401 without a token: a short error body
    expect(small.res.status).toBe(401);
    expect(small.bytes.length).toBeLessThan(COMPRESS_MIN_BYTES);
    expect(small.res.headers.get('content-encoding')).toBeNull();
    expect(JSON.parse(small.bytes.toString('utf8')).errors).toBeDefined();

    const head = await get(server, AdminPaths.permissions, { ...accept, authorization: `Bearer ${accessToken}` }, 'HEAD');
    expect(head.res.headers.get('content-encoding')).toBeNull();
    expect(head.bytes.length).toBe(0);

    // Cookies ride along on their own: a compressed length could leak a secret beside attacker input (BREACH).
    const withCookie = await get(server, AdminPaths.permissions, { ...accept, authorization: `Bearer ${accessToken}`, cookie: 'theme=dark' });
    expect(withCookie.res.status).toBe(200);
    expect(withCookie.res.headers.get('content-encoding')).toBeNull();
    expect(withCookie.bytes.length).toBeGreaterThan(COMPRESS_MIN_BYTES);
  });

  it('serves /openapi.json compressed, the same document as identity, and the same bytes each time', async () => {
    const server = await h.start();
    const plain = await get(server, ApiPaths.openapi, {});
    expect(plain.res.headers.get('content-encoding')).toBeNull();
    expect(plain.res.headers.get('content-type')).toMatch(/^application\/json/);
    for (const coding of ['br', 'gzip'] as const) {
      const first = await get(server, ApiPaths.openapi, { 'accept-encoding': coding });
      const second = await get(server, ApiPaths.openapi, { 'accept-encoding': coding });
      expect(first.res.headers.get('content-encoding')).toBe(coding);
      expect(first.res.headers.get('content-length')).toBe(String(first.bytes.length));
      expect(first.res.headers.get('vary')).toMatch(/accept-encoding/i);
      expect(first.bytes.length).toBeLessThan(plain.bytes.length / 5);
      expect(decoded(first.res, first.bytes)).toBe(plain.bytes.toString('utf8'));
      expect(second.bytes.equals(first.bytes)).toBe(true);
    }
  });
});
