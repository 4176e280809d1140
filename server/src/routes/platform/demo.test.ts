import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoCsp, demoRoutes, STRIPE_CONNECT_SOURCES, STRIPE_FRAME_SOURCES } from './demo';

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
    const app = demoRoutes({ ...demoDirs(), publicUrl: 'http://127.0.0.1:3000', clientId: 'c', captcha: { scriptUrl: 'https://captcha.example.com/api.js' } as never });
    const res = await app.request('/');
    expect(res.status).toBe(200);
    expect(directive(res.headers.get('content-security-policy')!, 'frame-src')).toEqual(['https://captcha.example.com', ...STRIPE_FRAME_SOURCES]);
    const plain = await demoRoutes({ ...demoDirs(), publicUrl: 'http://127.0.0.1:3000', clientId: 'c', captcha: null }).request('/');
    expect(directive(plain.headers.get('content-security-policy')!, 'frame-src')).toEqual(STRIPE_FRAME_SOURCES);
  });
});
