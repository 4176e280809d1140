import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApiPaths, ErrorCodes, GENERIC_ERROR_MESSAGE } from '@gatehouse/shared/wire';
import { expect, it, vi } from 'vitest';
import { call, describeDialects, mailbox, movableClock, PASSWORD, uniqueEmail } from './test/harness';

describeDialects('HTTP surface', (h) => {
  it('puts a trace id on successes and errors', async () => {
    const server = await h.start();
    const ok = await call(server, 'GET', ApiPaths.flags);
    const missing = await call(server, 'GET', '/nope');
    expect(ok.headers.get('x-trace-id')).toMatch(/^[0-9a-f]{24}$/);
    expect(missing.headers.get('x-trace-id')).toMatch(/^[0-9a-f]{24}$/);
    expect(ok.headers.get('x-trace-id')).not.toBe(missing.headers.get('x-trace-id'));
  });

  it('answers unknown paths with a 404 JSON error body', async () => {
    const server = await h.start();
    const res = await call(server, 'GET', '/identity/resources/unknown');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ errors: ['Not found'], errorCode: ErrorCodes.notFound });
  });

  it('names the invalid field in a 400', async () => {
    const server = await h.start();
    const res = await call(server, 'POST', ApiPaths.signUp, { body: { email: 'not-an-email', password: PASSWORD } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(['email: Invalid email address']);
    expect(res.body.errorCode).toBe(ErrorCodes.validation);
    const missing = await call(server, 'POST', ApiPaths.login, { body: { email: 'a@b.co' } });
    expect(missing.body.errors).toEqual(['password: Required']);
    const malformed = await call(server, 'POST', ApiPaths.login, { rawBody: '{nope' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors[0]).toMatch(/JSON/);
  });

  it("refuses bodies over MAX_BODY_BYTES with 413 'Error request is too large'", async () => {
    const server = await h.start({ MAX_BODY_BYTES: '2048' });
    const res = await call(server, 'POST', ApiPaths.signUp, { body: { email: 'a@b.co', password: 'x'.repeat(4000) } });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ errors: ['Error request is too large'], errorCode: ErrorCodes.payloadTooLarge });
  });

  it('hides internals of unexpected failures behind the generic message', async () => {
    const server = await h.start();
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.app.get('/boom', () => {
      throw new Error('secret internals');
    });
    const res = await call(server, 'GET', '/boom');
    spy.mockRestore();
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ errors: [GENERIC_ERROR_MESSAGE], errorCode: 'ER-ADMIN-PORTAL-GENERIC-ERROR' });
  });

  it('sends CORS headers with credentials only to allowed origins', async () => {
    const server = await h.start();
    const allowed = await call(server, 'GET', ApiPaths.flags, { headers: { origin: 'http://app.test:3000' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://app.test:3000');
    expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
    expect(allowed.headers.get('access-control-expose-headers')).toContain('x-trace-id');
    const denied = await call(server, 'GET', ApiPaths.flags, { headers: { origin: 'https://evil.example' } });
    expect(denied.headers.get('access-control-allow-origin')).toBeNull();
    expect(denied.headers.get('access-control-allow-credentials')).toBeNull();
    const preflight = await call(server, 'OPTIONS', ApiPaths.me, { headers: { origin: 'http://app.test:3000', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('authorization');
    const badPreflight = await call(server, 'OPTIONS', ApiPaths.me, { headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' } });
    expect(badPreflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('lets the bundles send the seed 000 section 7.3 client headers from an allowed origin (preflight allows them)', async () => {
    const server = await h.start();
    const requested = 'authorization, content-type, x-gatehouse-source, x-gatehouse-sdk, x-gatehouse-client-id, x-gatehouse-tenant-id, x-gatehouse-login-alias, x-gatehouse-application-id, x-gatehouse-framework';
    const preflight = await call(server, 'OPTIONS', ApiPaths.me, { headers: { origin: 'http://app.test:3000', 'access-control-request-method': 'GET', 'access-control-request-headers': requested } });
    expect(preflight.status).toBe(204);
    const allowed = preflight.headers.get('access-control-allow-headers')!.split(',').map((h) => h.trim());
    for (const header of ['x-gatehouse-tenant-id', 'x-gatehouse-login-alias', 'x-gatehouse-application-id', 'x-gatehouse-framework', 'x-gatehouse-source', 'x-gatehouse-sdk']) expect(allowed).toContain(header);
    const sent = await call(server, 'GET', ApiPaths.flags, { headers: { origin: 'http://app.test:3000', 'x-gatehouse-tenant-id': 't', 'x-gatehouse-login-alias': 'acme', 'x-gatehouse-application-id': 'app', 'x-gatehouse-framework': '@gatehouse/react@1.0.0' } });
    expect(sent.status).toBe(200);
    expect(sent.headers.get('access-control-allow-origin')).toBe('http://app.test:3000');
  });

  // The request checks (body size, control characters) and the preflight answer inside the edge
  // (http/edge.ts): their answers still get the trace id, CORS and the security headers.
  it('gives the answers of the request checks and of a preflight the trace id, CORS and security headers', async () => {
    const server = await h.start({ MAX_BODY_BYTES: '2048' });
    const origin = 'http://app.test:3000';
    const tooLarge = await call(server, 'POST', ApiPaths.signUp, { headers: { origin }, body: { email: 'a@b.co', password: 'x'.repeat(4000) } });
    const control = await call(server, 'POST', ApiPaths.login, { headers: { origin }, body: { email: 'a\u0000@b.co', password: PASSWORD } });
    const preflight = await call(server, 'OPTIONS', ApiPaths.me, { headers: { origin, 'access-control-request-method': 'GET' } });
    expect([tooLarge.status, control.status, preflight.status]).toEqual([413, 400, 204]);
    expect(control.body).toEqual({ errors: ['email: must not contain control characters'], errorCode: ErrorCodes.validation });
    for (const res of [tooLarge, control, preflight]) {
      expect(res.headers.get('x-trace-id')).toMatch(/^[0-9a-f]{24}$/);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
    for (const res of [tooLarge, control]) {
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('vary')).toContain('Origin');
    }
  });

  it('sets security headers on API answers', async () => {
    const server = await h.start();
    const res = await call(server, 'GET', ApiPaths.flags);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('serves flags, metadata, ip and public settings', async () => {
    const server = await h.start({ GATEHOUSE_FLAGS: '{"passkeys":"on","x":"off"}', TRUST_PROXY: 'true' });
    expect((await call(server, 'GET', ApiPaths.flags)).body).toEqual({ passkeys: 'on', x: 'off' });
    const meta = await call(server, 'GET', `${ApiPaths.metadata}?entityName=adminBox`);
    expect(meta.body.rows[0].entityName).toBe('adminBox');
    expect(meta.body.rows[0].configuration.theme.name).toBe('modern');
    expect(meta.body.rows[0].configuration.navigation.users.visibility).toBe('always');
    const unknown = await call(server, 'GET', `${ApiPaths.metadata}?entityName=other`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors).toEqual(['metadata not found']);
    // Regression (security review L4): the left-most entry is whatever the client sent; the trusted
    // proxy appends the address it saw, so the right-most entry is the client.
    expect((await call(server, 'GET', ApiPaths.metadataIp, { headers: { 'x-forwarded-for': '10.6.6.6, 203.0.113.9' } })).body).toEqual({ ip: '203.0.113.9', country_code: null });
    expect((await call(server, 'GET', ApiPaths.accountSettingsPublic)).body).toEqual({ applicationUrl: null, hasCustomLogin: false, logo: null, companyName: null, loginTitle: null, loginColor: null });
  });

  it('publishes an OpenAPI document that lists the login path', async () => {
    const server = await h.start();
    const doc = await call(server, 'GET', ApiPaths.openapi);
    expect(doc.status).toBe(200);
    expect(doc.body.paths[ApiPaths.login].post).toBeTruthy();
    expect(doc.body.paths[ApiPaths.me].get).toBeTruthy();
  });

  it('lists the dev mailbox newest first, as JSON and as an escaped page', async () => {
    const clock = movableClock();
    const server = await h.start({}, { clock });
    const first = uniqueEmail('first');
    const second = uniqueEmail('<b>second</b>'.replace(/[<>/]/g, ''));
    await call(server, 'POST', ApiPaths.signUp, { body: { email: first, password: PASSWORD, name: '<script>alert(1)</script>' } });
    clock.advance(1000);
    await call(server, 'POST', ApiPaths.signUp, { body: { email: second, password: PASSWORD } });
    const list = (await mailbox(server)).filter((m) => m.to === first || m.to === second);
    expect(list.map((m) => m.to)).toEqual([second, first]);
    expect(new Date(list[0]!.createdAt).getTime()).toBeGreaterThan(new Date(list[1]!.createdAt).getTime());
    const page = await call(server, 'GET', '/dev/mailbox');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.body).not.toContain('<script>alert(1)</script>');
    expect(page.body).toContain('sandbox="allow-top-navigation-by-user-activation allow-popups"');
    expect(page.body).toMatch(/<a href="http:\/\/localhost:8787\/account\/activate\?userId=/);
  });

  it('hides the mailbox and the demo page in production mode', async () => {
    const server = await h.start({ GATEHOUSE_DEV: '0' });
    expect((await call(server, 'GET', '/dev/mailbox')).status).toBe(404);
    expect((await call(server, 'GET', '/dev/mailbox.json')).status).toBe(404);
    expect((await call(server, 'GET', '/')).status).toBe(404);
    expect((await call(server, 'GET', '/account/login')).status).toBe(404);
    const prod = await h.start({ GATEHOUSE_DEV: '1', NODE_ENV: 'production' });
    expect((await call(prod, 'GET', '/dev/mailbox.json')).status).toBe(404);
  });

  it('serves the demo page in dev mode with placeholders filled and a nonce CSP', async () => {
    const demoDir = mkdtempSync(path.join(tmpdir(), 'gatehouse-demo-'));
    writeFileSync(path.join(demoDir, 'index.html'), '<script src="%LOADER_SRC%" integrity="%LOADER_INTEGRITY%"></script><script nonce="%CSP_NONCE%">init("%GATEHOUSE_BASE_URL%","%GATEHOUSE_CLIENT_ID%")</script>');
    const cdnDir = mkdtempSync(path.join(tmpdir(), 'gatehouse-cdn-'));
    writeFileSync(path.join(cdnDir, 'cdn-manifest.json'), JSON.stringify({ version: '7.78.0', bundles: { loader: { entry: 'loader/7.78.0/gatehouse.js', integrity: 'sha384-abc' } } }));
    const server = await h.start({ GATEHOUSE_DEMO_DIR: demoDir, GATEHOUSE_CDN_DIR: cdnDir });
    const res = await call(server, 'GET', '/account/login');
    expect(res.status).toBe(200);
    // The page's own loader tag carries SRI from the live manifest.
    expect(res.body).toContain('<script src="http://localhost:8787/cdn/loader/7.78.0/gatehouse.js" integrity="sha384-abc"></script>');
    const nonce = /nonce="([^"]+)"/.exec(res.body)![1]!;
    expect(res.body).toContain('init("http://localhost:8787","demo-client")');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain(`script-src 'nonce-${nonce}' 'strict-dynamic'`);
    expect(csp).toContain("frame-ancestors 'none'");
    const again = await call(server, 'GET', '/oauth/callback');
    expect(/nonce="([^"]+)"/.exec(again.body)![1]).not.toBe(nonce);
    expect((await call(server, 'GET', '/')).status).toBe(200);
  });

  it('serves CDN files with cache headers and refuses path traversal', async () => {
    const cdnDir = mkdtempSync(path.join(tmpdir(), 'gatehouse-cdn-'));
    mkdirSync(path.join(cdnDir, 'loader', '7.78.0'), { recursive: true });
    writeFileSync(path.join(cdnDir, 'loader', '7.78.0', 'gatehouse.js'), 'console.log(1)');
    writeFileSync(path.join(cdnDir, 'cdn-manifest.json'), '{"version":"7.78.0"}');
    writeFileSync(path.join(path.dirname(cdnDir), 'secret.txt'), 'secret');
    const server = await h.start({ GATEHOUSE_CDN_DIR: cdnDir });
    const js = await call(server, 'GET', '/cdn/loader/7.78.0/gatehouse.js', { headers: { origin: 'https://anyone.example' } });
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toContain('text/javascript');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(js.headers.get('access-control-allow-origin')).toBe('*');
    // Regression (security review L6): nothing under /cdn may run as a document in this origin.
    expect(js.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(js.headers.get('x-content-type-options')).toBe('nosniff');
    writeFileSync(path.join(cdnDir, 'loader', '7.78.0', 'page.html'), '<script>fetch("/identity")</script>');
    const html = await call(server, 'GET', '/cdn/loader/7.78.0/page.html');
    expect(html.headers.get('content-type')).toBe('application/octet-stream');
    const manifest = await call(server, 'GET', '/cdn/cdn-manifest.json');
    // No version folder verifies here (no files.json): the file is served as the build wrote it.
    expect(manifest.headers.get('cache-control')).toBe('public, max-age=30');
    expect(manifest.body).toEqual({ version: '7.78.0' });
    for (const p of ['/cdn/../secret.txt', '/cdn/%2e%2e/secret.txt', '/cdn/loader/%2e%2e%2f%2e%2e%2fsecret.txt', '/cdn/..%5csecret.txt']) {
      const res = await call(server, 'GET', p);
      expect(res.status, p).toBe(404);
      expect(String(res.body)).not.toContain('secret');
    }
  });
});
