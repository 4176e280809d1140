import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Hono } from 'hono';
import type { AppEnv } from '../../http/env';
import { onError } from '../../http/errors';
import { demoCsp, demoRoutes, loaderFromManifest, STRIPE_CONNECT_SOURCES, STRIPE_FRAME_SOURCES } from './demo';

/** A directive's sources in a CSP string, or null when absent; fails on a repeated directive (the browser would ignore all but the first). */
function directive(csp: string, name: string): string[] | null {
  const found = csp.split(';').map((d) => d.trim().split(/\s+/)).filter(([n]) => n === name);
  expect(found.length, `${name} appears once at most`).toBeLessThanOrEqual(1);
  return found[0]?.slice(1) ?? null;
}

function demoDirs() {
  const root = mkdtempSync(join(tmpdir(), 'gh-demo-'));
  mkdirSync(join(root, 'demo'));
  mkdirSync(join(root, 'cdn'));
  writeFileSync(join(root, 'demo/index.html'), '<script nonce="%CSP_NONCE%" src="%LOADER_SRC%"></script>');
  writeFileSync(join(root, 'cdn/cdn-manifest.json'), JSON.stringify({ bundles: { loader: { entry: 'loader/1/gatehouse.js', integrity: 'sha384-x' } } }));
  return { demoDir: join(root, 'demo'), cdnDir: join(root, 'cdn') };
}

describe('demo page CSP', () => {
  it("lets the checkout's Stripe card Element frame from Stripe and call its API, and nothing else new", () => {
    const csp = demoCsp('n', 'http://127.0.0.1:3000');
    expect(directive(csp, 'frame-src')).toEqual(STRIPE_FRAME_SOURCES);
    expect(directive(csp, 'connect-src')).toEqual(["'self'", 'http://127.0.0.1:3000', ...STRIPE_CONNECT_SOURCES]);
    expect(directive(csp, 'script-src')).toEqual(["'nonce-n'", "'strict-dynamic'"]);
  });

  it("joins a captcha's frames to Stripe's in the one frame-src directive", async () => {
    const dirs = demoDirs();
    const app = demoRoutes({ ...dirs, publicUrl: 'http://127.0.0.1:3000', clientId: 'c', captcha: { scriptUrl: 'https://captcha.example.com/api.js' } as never }, () => loaderFromManifest(dirs.cdnDir));
    const res = await app.request('/');
    expect(res.status).toBe(200);
    expect(directive(res.headers.get('content-security-policy')!, 'frame-src')).toEqual(['https://captcha.example.com', ...STRIPE_FRAME_SOURCES]);
    const plainDirs = demoDirs();
    const plain = await demoRoutes({ ...plainDirs, publicUrl: 'http://127.0.0.1:3000', clientId: 'c', captcha: null }, () => loaderFromManifest(plainDirs.cdnDir)).request('/');
    expect(directive(plain.headers.get('content-security-policy')!, 'frame-src')).toEqual(STRIPE_FRAME_SOURCES);
  });
});

describe('React demo (demo/react, issue 14)', () => {
  function reactDirs() {
    const dirs = demoDirs();
    mkdirSync(join(dirs.demoDir, 'react/dist/assets'), { recursive: true });
    writeFileSync(join(dirs.demoDir, 'react/dist/index.html'), '<script type="application/json">{"loaderSrc":"%LOADER_SRC%","loaderIntegrity":"%LOADER_INTEGRITY%","baseUrl":"%GATEHOUSE_BASE_URL%"}</script><script type="module" src="/react/assets/index-abc.js" nonce="%CSP_NONCE%"></script>');
    writeFileSync(join(dirs.demoDir, 'react/dist/assets/index-abc.js'), 'console.log("react demo");');
    writeFileSync(join(dirs.demoDir, 'react/dist/secret.txt'), 'not an asset');
    return dirs;
  }
  /** The routes with the app's error handler, as app.ts mounts them. */
  const mounted = (dirs: { demoDir: string; cdnDir: string }) => new Hono<AppEnv>().onError(onError).route('/', demoRoutes({ ...dirs, publicUrl: 'http://127.0.0.1:3000', clientId: 'c', captcha: null }, () => loaderFromManifest(dirs.cdnDir)));
  const routes = () => mounted(reactDirs());

  it('serves its page at /react/ and under it (its auth routes), filled with the loader and its SRI, under the demo CSP with a fresh nonce', async () => {
    const app = routes();
    for (const path of ['/react/', '/react/account/login', '/react/settings']) {
      const res = await app.request(path);
      expect(res.status, path).toBe(200);
      const html = await res.text();
      expect(html).toContain('"loaderSrc":"http://127.0.0.1:3000/cdn/loader/1/gatehouse.js","loaderIntegrity":"sha384-x","baseUrl":"http://127.0.0.1:3000"');
      const nonce = /nonce="([^"]+)"/.exec(html)![1]!;
      expect(nonce).not.toBe('%CSP_NONCE%');
      expect(directive(res.headers.get('content-security-policy')!, 'script-src')).toEqual([`'nonce-${nonce}'`, "'strict-dynamic'"]);
    }
    expect((await app.request('/react')).headers.get('location')).toBe('/react/');
  });

  it('serves its built assets by name only: no other file, no path out of the assets folder', async () => {
    const app = routes();
    const ok = await app.request('/react/assets/index-abc.js');
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await ok.text()).toBe('console.log("react demo");');
    for (const path of ['/react/assets/..%2Fsecret.txt', '/react/assets/..%2Findex.html', '/react/assets/missing-1.js', '/react/assets/index.html']) {
      expect((await app.request(path)).status, path).toBe(404);
    }
  });

  it('answers 404 with a sentence when the React demo is not built', async () => {
    const res = await mounted(demoDirs()).request('/react/');
    expect(res.status).toBe(404);
    expect(JSON.stringify(await res.json())).toContain('React demo not built; run npm run build');
  });
});
