import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { ApiPaths } from '@gatehouse/shared/wire';
import { afterEach, expect, it, vi } from 'vitest';
import { tenantWithAdmin } from '../test/admin-helpers';
import { describeDialects } from '../test/harness';

afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * Regression: a client that closed its connection in the middle of an upload was logged as a
 * server error with a full stack ("PUT /team/resources/profile/me/image/v1 failed: Error: aborted").
 * It is one informational line now, and no error.
 */
describeDialects('a client closing its connection mid-upload', (h) => {
  it('is logged as one informational line, not as a server error', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const errors: string[] = [];
    const infos: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...parts: unknown[]) => void errors.push(parts.map(String).join(' ')));
    vi.spyOn(console, 'info').mockImplementation((...parts: unknown[]) => void infos.push(parts.map(String).join(' ')));
    const listener = serve({ fetch: server.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((r) => listener.once('listening', r));
    const { port } = listener.address() as AddressInfo;
    try {
      // A chunked body (no Content-Length), cut off after 400 kB of a 1 MB picture.
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => undefined);
      await new Promise((r) => socket.once('connect', r));
      socket.write(`PUT ${ApiPaths.profileImage} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nAuthorization: Bearer ${admin.accessToken}\r\n\r\n`);
      const chunk = `{"profileImage":"data:image/png;base64,${'A'.repeat(50_000)}`;
      for (let i = 0; i < 8; i++) {
        socket.write(`${Buffer.byteLength(chunk).toString(16)}\r\n${chunk}\r\n`);
        await new Promise((r) => setTimeout(r, 10));
      }
      socket.destroy();
      for (let waited = 0; waited < 5000 && infos.length === 0 && errors.length === 0; waited += 20) await new Promise((r) => setTimeout(r, 20));
      expect(errors).toEqual([]);
      expect(infos).toHaveLength(1);
      expect(infos[0]).toMatch(/PUT \/team\/resources\/profile\/me\/image\/v1: the client closed the connection before its request was read$/);
    } finally {
      await new Promise((r) => listener.close(r));
    }
  });
});
