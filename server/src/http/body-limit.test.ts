import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { serve } from '@hono/node-server';
import { ApiPaths, ErrorCodes } from '@gatehouse/shared/wire';
import { afterEach, expect, it, vi } from 'vitest';
import type { GatehouseServer } from '../app';
import { describeDialects, PASSWORD, signUpAndActivate } from '../test/harness';

afterEach(() => {
  vi.restoreAllMocks();
});

/** One POST over a real socket through @hono/node-server; `chunked` sends the body without a Content-Length. */
async function post(server: GatehouseServer, path: string, body: string, chunked = false): Promise<{ status: number; body: any }> {
  const listener = serve({ fetch: server.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((r) => listener.once('listening', r));
  const { port } = listener.address() as AddressInfo;
  try {
    return await new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = { 'content-type': 'application/json', ...(chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': Buffer.byteLength(body) }) };
      const req = request({ host: '127.0.0.1', port, method: 'POST', path, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (part: string) => (text += part));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null }));
      });
      req.on('error', reject);
      if (chunked) for (let i = 0; i < body.length; i += 1000) req.write(body.slice(i, i + 1000));
      else req.write(body);
      req.end();
    });
  } finally {
    (listener as { closeAllConnections?: () => void }).closeAllConnections?.();
    await new Promise((r) => listener.close(r));
  }
}

describeDialects('request body limit over a socket', (h) => {
  it("refuses a body over MAX_BODY_BYTES with 413, by its Content-Length or, chunked, as it streams", async () => {
    const server = await h.start({ MAX_BODY_BYTES: '2048' });
    const big = JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(4000) });
    for (const chunked of [false, true]) {
      const res = await post(server, ApiPaths.login, big, chunked);
      expect(res.status, chunked ? 'chunked' : 'content-length').toBe(413);
      expect(res.body).toEqual({ errors: ['Error request is too large'], errorCode: ErrorCodes.payloadTooLarge });
    }
  });

  it('reads a body with a Content-Length straight from the socket: no web stream is made for it', async () => {
    const server = await h.start({ RATE_LIMIT_LOGIN_PER_IP: '1000/600' });
    const { email } = await signUpAndActivate(server);
    const toWeb = vi.spyOn(Readable, 'toWeb');
    const signedIn = await post(server, ApiPaths.login, JSON.stringify({ email, password: PASSWORD }));
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.accessToken).toBeTruthy();
    expect(toWeb).not.toHaveBeenCalled();
    const chunked = await post(server, ApiPaths.login, JSON.stringify({ email, password: 'not the password at all' }), true);
    expect(chunked.status).toBe(401);
    // The chunked body is counted as it streams (hono's bodyLimit), through a web stream.
    expect(toWeb).toHaveBeenCalled();
  });
});
