import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { ApiPaths } from '@gatehouse/shared/wire';
import { describeDialects } from '../../test/harness';
import type { GatehouseServer } from '../../app';
import { MIN_COMPRESSED_BYTES } from './compress';

/** The raw answer, as the bytes came: fetch() through the app does not decode a Content-Encoding. */
async function raw(server: GatehouseServer, path: string, acceptEncoding?: string) {
  const res = await server.fetch(new Request(`${server.config.publicUrl}${path}`, { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } }));
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

describeDialects('public boot calls, compressed', (h) => {
  const metadata = `${ApiPaths.metadata}?entityName=adminBox`;

  it('sends the metadata brotli- or gzip-compressed as the browser accepts, decoding to the same JSON, with Vary', async () => {
    const server = await h.start();
    const plain = await raw(server, metadata);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.bytes.length).toBeGreaterThanOrEqual(MIN_COMPRESSED_BYTES);
    expect(plain.headers.get('vary')).toMatch(/accept-encoding/i);

    const br = await raw(server, metadata, 'gzip, deflate, br, zstd');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(Number(br.headers.get('content-length'))).toBe(br.bytes.length);
    expect(br.bytes.length).toBeLessThan(plain.bytes.length);
    expect(JSON.parse(brotliDecompressSync(br.bytes).toString('utf8'))).toEqual(JSON.parse(plain.bytes.toString('utf8')));

    const gz = await raw(server, metadata, 'gzip');
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.bytes).toString('utf8'))).toEqual(JSON.parse(plain.bytes.toString('utf8')));

    // Refused codings are never sent.
    expect((await raw(server, metadata, 'br;q=0, gzip;q=0')).headers.get('content-encoding')).toBeNull();
  });

  it('compresses the vendor config too, but leaves error answers and other routes as they are', async () => {
    const server = await h.start();
    const vendor = await raw(server, ApiPaths.vendorPublic, 'br');
    expect(vendor.status).toBe(200);
    expect(vendor.headers.get('content-encoding')).toBe('br');
    const vendorPlain = await raw(server, ApiPaths.vendorPublic);
    expect(JSON.parse(brotliDecompressSync(vendor.bytes).toString('utf8'))).toEqual(JSON.parse(vendorPlain.bytes.toString('utf8')));

    const missing = await raw(server, `${ApiPaths.metadata}?entityName=no-such-entity`, 'br');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-encoding')).toBeNull();

    const flags = await raw(server, ApiPaths.flags, 'br');
    expect(flags.headers.get('content-encoding')).toBeNull();
  });
});
