import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants as zlib, gunzipSync, gzipSync } from 'node:zlib';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeDialects } from '../../test/harness';
import { negotiateEncoding } from './cdn';

const VERSIONED = 'login-box/7.78.0';
const sri = (bytes: Buffer) => 'sha384-' + createHash('sha384').update(bytes).digest('base64');
const br = (bytes: Buffer) => brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } });
const gz = (bytes: Buffer) => gzipSync(bytes, { level: 9 });

/** A CDN folder as scripts/build-cdn.mjs leaves it: files, their .br and .gz, and the manifest. */
function cdnFixture() {
  const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-cdn-'));
  mkdirSync(path.join(dir, VERSIONED, 'assets'), { recursive: true });
  const entry = Buffer.from(Array.from({ length: 200 }, (_, i) => `export const screen${i} = () => render("Sign in", ${i});`).join('\n'));
  const chunk = Buffer.from(Array.from({ length: 80 }, (_, i) => `const field${i} = input("email-${i}");`).join('\n'));
  const write = (rel: string, bytes: Buffer, codings: Array<'br' | 'gz'>) => {
    writeFileSync(path.join(dir, rel), bytes);
    if (codings.includes('br')) writeFileSync(path.join(dir, rel + '.br'), br(bytes));
    if (codings.includes('gz')) writeFileSync(path.join(dir, rel + '.gz'), gz(bytes));
  };
  write(`${VERSIONED}/remoteEntry.js`, entry, ['br', 'gz']);
  // A file the build left without a brotli sibling: gzip is the best it has.
  write(`${VERSIONED}/assets/gzip-only.js`, chunk, ['gz']);
  write(`${VERSIONED}/assets/plain.js`, chunk, []);
  // Every file of the version with its sha384 (the build's files.json, issue 18).
  const files = { [`${VERSIONED}/assets/gzip-only.js`]: sri(chunk), [`${VERSIONED}/assets/plain.js`]: sri(chunk), [`${VERSIONED}/remoteEntry.js`]: sri(entry) };
  write(`${VERSIONED}/files.json`, Buffer.from(JSON.stringify(files)), ['br', 'gz']);
  const manifest = Buffer.from(JSON.stringify({ version: '7.78.0', bundles: { 'login-box': { version: '7.78.0', entry: `${VERSIONED}/remoteEntry.js`, integrity: sri(entry) } } }));
  write('cdn-manifest.json', manifest, ['br', 'gz']);
  return { dir, entry, chunk, manifest };
}

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as they came over the connection (never decoded). */
  body: Buffer;
}

/** One request over a real connection; Node's http client leaves Content-Encoding to us. */
function fetchRaw(port: number, pathname: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: pathname, method, headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function decode(res: RawResponse): Buffer {
  const coding = res.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(res.body);
  if (coding === 'gzip') return gunzipSync(res.body);
  expect(coding).toBeUndefined();
  return res.body;
}

describe('negotiateEncoding', () => {
  it('prefers br, then gzip, then identity when the browser accepts them equally', () => {
    expect(negotiateEncoding('gzip, deflate, br, zstd')).toEqual(['br', 'gzip', 'identity']);
    expect(negotiateEncoding('gzip, deflate')).toEqual(['gzip', 'identity']);
  });

  it('sends identity only when there is no Accept-Encoding, or it names nothing we have', () => {
    expect(negotiateEncoding(undefined)).toEqual(['identity']);
    expect(negotiateEncoding('')).toEqual(['identity']);
    expect(negotiateEncoding('deflate, zstd')).toEqual(['identity']);
    expect(negotiateEncoding('identity')).toEqual(['identity']);
  });

  it('follows q-values: the higher wins, q=0 refuses, and case and spacing do not matter', () => {
    expect(negotiateEncoding('br;q=0.5, gzip;q=0.8')).toEqual(['gzip', 'br', 'identity']);
    expect(negotiateEncoding('BR ; Q=0, GZip')).toEqual(['gzip', 'identity']);
    expect(negotiateEncoding('br;q=0.4, identity;q=0.9')).toEqual(['identity', 'br']);
    expect(negotiateEncoding('x-gzip')).toEqual(['gzip', 'identity']);
  });

  it('lets * stand for every coding not named, identity included', () => {
    expect(negotiateEncoding('*')).toEqual(['br', 'gzip', 'identity']);
    expect(negotiateEncoding('gzip;q=1, *;q=0.2')).toEqual(['gzip', 'br', 'identity']);
    expect(negotiateEncoding('br;q=0, *')).toEqual(['gzip', 'identity']);
  });

  it('still sends the file itself when the header refuses every coding (no 406 for a script)', () => {
    expect(negotiateEncoding('*;q=0')).toEqual(['identity']);
    expect(negotiateEncoding('identity;q=0, br;q=0, gzip;q=0')).toEqual(['identity']);
  });
});

describeDialects('CDN files as served', (h) => {
  let fixture: ReturnType<typeof cdnFixture>;
  let listener: ServerType | null = null;
  let port = 0;

  beforeAll(() => {
    fixture = cdnFixture();
  });
  afterAll(() => {
    rmSync(fixture.dir, { recursive: true, force: true });
  });
  // The harness closes its servers after each test; each test gets a listener in front of its own.
  beforeEach(async () => {
    const server = await h.start({ GATEHOUSE_CDN_DIR: fixture.dir });
    listener = serve({ fetch: server.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((r) => listener!.once('listening', r));
    port = (listener.address() as AddressInfo).port;
  });
  afterEach(async () => {
    await new Promise((r) => listener?.close(r));
    listener = null;
  });

  it('sends the brotli file to a browser that accepts br, with its own length, Vary and the unchanged headers', async () => {
    const res = await fetchRaw(port, `/cdn/${VERSIONED}/remoteEntry.js`, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-length']).toBe(String(br(fixture.entry).length));
    expect(res.body.length).toBe(br(fixture.entry).length);
    expect(res.body.length).toBeLessThan(fixture.entry.length / 4);
    expect(res.headers['vary']).toBe('Accept-Encoding');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(decode(res).equals(fixture.entry)).toBe(true);
  });

  it('sends gzip when br is not accepted or refused by q=0, and the file itself to identity or no Accept-Encoding', async () => {
    const url = `/cdn/${VERSIONED}/remoteEntry.js`;
    for (const accept of ['gzip, deflate', 'br;q=0, gzip', 'br;q=0.5, gzip;q=0.9']) {
      const res = await fetchRaw(port, url, { 'accept-encoding': accept });
      expect(res.headers['content-encoding'], accept).toBe('gzip');
      expect(res.headers['content-length'], accept).toBe(String(gz(fixture.entry).length));
      expect(res.headers['vary'], accept).toBe('Accept-Encoding');
    }
    for (const headers of [{ 'accept-encoding': 'identity' }, { 'accept-encoding': 'br;q=0.2, identity' }, { 'accept-encoding': '*;q=0' }, {}] as Array<Record<string, string>>) {
      const res = await fetchRaw(port, url, headers);
      expect(res.headers['content-encoding'], JSON.stringify(headers)).toBeUndefined();
      expect(res.headers['content-length']).toBe(String(fixture.entry.length));
      expect(res.headers['vary']).toBe('Accept-Encoding');
      expect(res.body.equals(fixture.entry)).toBe(true);
    }
    expect((await fetchRaw(port, url, { 'accept-encoding': '*' })).headers['content-encoding']).toBe('br');
  });

  it('falls back to gzip when a file has no .br, and to the file itself when it has no sibling at all', async () => {
    const gzipOnly = await fetchRaw(port, `/cdn/${VERSIONED}/assets/gzip-only.js`, { 'accept-encoding': 'br, gzip' });
    expect(gzipOnly.headers['content-encoding']).toBe('gzip');
    expect(decode(gzipOnly).equals(fixture.chunk)).toBe(true);
    const plain = await fetchRaw(port, `/cdn/${VERSIONED}/assets/plain.js`, { 'accept-encoding': 'br, gzip' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-length']).toBe(String(fixture.chunk.length));
    expect(plain.body.equals(fixture.chunk)).toBe(true);
  });

  it('answers HEAD with the headers GET would send for that coding, and no body', async () => {
    const url = `/cdn/${VERSIONED}/remoteEntry.js`;
    for (const accept of ['br', 'gzip', 'identity']) {
      const get = await fetchRaw(port, url, { 'accept-encoding': accept });
      const head = await fetchRaw(port, url, { 'accept-encoding': accept }, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      for (const name of ['content-encoding', 'content-length', 'content-type', 'vary', 'cache-control']) expect(head.headers[name], `${accept} ${name}`).toEqual(get.headers[name]);
    }
  });

  it('gives every coding a decoded body whose sha384 is the integrity in the manifest', async () => {
    const manifest = JSON.parse(decode(await fetchRaw(port, '/cdn/cdn-manifest.json', { 'accept-encoding': 'br' })).toString('utf8'));
    const { entry, integrity } = manifest.bundles['login-box'];
    for (const accept of ['br', 'gzip', 'identity']) {
      const res = await fetchRaw(port, `/cdn/${entry}`, { 'accept-encoding': accept });
      expect(sri(decode(res)), accept).toBe(integrity);
    }
  });

  it('serves the manifest rendered from the verified version folders, in the coding asked, kept 30 s', async () => {
    const expected = {
      version: '7.78.0',
      bundles: { 'login-box': { version: '7.78.0', entry: `${VERSIONED}/remoteEntry.js`, integrity: sri(fixture.entry), files: { [`${VERSIONED}/assets/gzip-only.js`]: sri(fixture.chunk), [`${VERSIONED}/assets/plain.js`]: sri(fixture.chunk) } } },
    };
    for (const accept of ['br', 'gzip', 'identity']) {
      const res = await fetchRaw(port, '/cdn/cdn-manifest.json', { 'accept-encoding': accept });
      expect(res.status, accept).toBe(200);
      expect(res.headers['content-encoding'], accept).toBe(accept === 'identity' ? undefined : accept);
      expect(res.headers['cache-control'], accept).toBe('public, max-age=30');
      expect(res.headers['access-control-allow-origin'], accept).toBe('*');
      expect(res.headers['content-type'], accept).toBe('application/json; charset=utf-8');
      expect(res.headers['content-length'], accept).toBe(String(res.body.length));
      expect(JSON.parse(decode(res).toString('utf8')), accept).toEqual(expected);
    }
  });

  it('keeps the manifest as long as GATEHOUSE_CDN_MANIFEST_MAX_AGE says, 0 included (revalidated on every load)', async () => {
    for (const seconds of ['5', '0', '60']) {
      const server = await h.start({ GATEHOUSE_CDN_DIR: fixture.dir, GATEHOUSE_CDN_MANIFEST_MAX_AGE: seconds });
      const res = await server.fetch(new Request('http://localhost:8787/cdn/cdn-manifest.json'));
      expect(res.status, seconds).toBe(200);
      expect(res.headers.get('cache-control'), seconds).toBe(`public, max-age=${seconds}`);
      await res.arrayBuffer();
    }
  });

  it('revalidates with the ETag of the coding sent: a match is a 304 without a body, another coding is not', async () => {
    const first = await fetchRaw(port, '/cdn/cdn-manifest.json', { 'accept-encoding': 'br' });
    const etag = String(first.headers['etag']);
    expect(etag).toMatch(/^"br-/);
    const again = await fetchRaw(port, '/cdn/cdn-manifest.json', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers['etag']).toBe(etag);
    expect(again.headers['cache-control']).toBe('public, max-age=30');
    expect(again.headers['vary']).toBe('Accept-Encoding');
    expect((await fetchRaw(port, '/cdn/cdn-manifest.json', { 'accept-encoding': 'br', 'if-none-match': `W/${etag}, "other"` })).status).toBe(304);
    // The gzip copy is another representation: its own tag.
    const gzip = await fetchRaw(port, '/cdn/cdn-manifest.json', { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(gzip.status).toBe(200);
    expect(gzip.headers['content-encoding']).toBe('gzip');
  });

  it('keeps refusing paths outside the CDN folder, whatever the coding', async () => {
    writeFileSync(path.join(path.dirname(fixture.dir), 'secret.txt'), 'secret');
    writeFileSync(path.join(path.dirname(fixture.dir), 'secret.txt.br'), br(Buffer.from('secret')));
    for (const p of ['/cdn/../secret.txt', '/cdn/%2e%2e/secret.txt', `/cdn/${VERSIONED}/%2e%2e%2f%2e%2e%2f%2e%2e%2fsecret.txt`, '/cdn/..%5csecret.txt']) {
      const res = await fetchRaw(port, p, { 'accept-encoding': 'br, gzip' });
      expect(res.status, p).toBe(404);
      expect(res.headers['content-encoding'], p).toBeUndefined();
      expect(res.body.toString('utf8'), p).not.toContain('secret');
    }
  });
});
