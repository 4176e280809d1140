import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Hono, type Context } from 'hono';
import type { Config } from '../../config';
import { Errors } from '../../errors';
import type { AppEnv } from '../../http/env';
import type { CdnService } from '../../services/cdn';
import { captchaFrameSources } from './captcha-policy';

/**
 * What Stripe.js needs (Stripe's published CSP) for the checkout's card Element: its frames and its
 * API. Its script itself comes in under 'strict-dynamic', added by the trusted checkout bundle.
 */
export const STRIPE_FRAME_SOURCES = ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'];
export const STRIPE_CONNECT_SOURCES = ['https://api.stripe.com', 'https://js.stripe.com'];

/** The CSP the demo page runs under; the bundles must work with it (DESIGN.md security baseline). */
export function demoCsp(nonce: string, publicUrl: string): string {
  const origin = new URL(publicUrl).origin;
  return [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic'`,
    `style-src 'self' 'nonce-${nonce}'`,
    `img-src 'self' data: ${origin}`,
    `connect-src 'self' ${origin} ${STRIPE_CONNECT_SOURCES.join(' ')}`,
    `frame-src ${STRIPE_FRAME_SOURCES.join(' ')}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The loader's entry and integrity named by a manifest, so the page's script tag carries SRI. */
export type LoaderScript = { entry: string; integrity: string };

function loaderIn(manifest: { bundles?: Record<string, { entry?: string; integrity?: string }> } | null): LoaderScript {
  const loader = manifest?.bundles?.loader;
  if (!loader?.entry || !loader.integrity) throw Errors.notFound('The CDN manifest lists no loader; run npm run build');
  return { entry: loader.entry, integrity: loader.integrity };
}

/** The loader of a CDN folder's cdn-manifest.json on disk (a page served beside a built dist/cdn). */
export async function loaderFromManifest(cdnDir: string): Promise<LoaderScript> {
  return loaderIn(JSON.parse(await readFile(path.join(cdnDir, 'cdn-manifest.json'), 'utf8')));
}

/**
 * The loader of the live manifest, the one /cdn/cdn-manifest.json serves: after an operator promotes
 * or rolls back a loader version (issue 18), the server's own pages load that version with its SRI.
 */
export async function liveLoader(cdn: Pick<CdnService, 'live'>): Promise<LoaderScript> {
  const served = await cdn.live.current().catch(() => null);
  if (!served) throw Errors.notFound('The CDN manifest lists no loader; run npm run build');
  return loaderIn(served.manifest ?? (JSON.parse(served.identity.toString('utf8')) as Parameters<typeof loaderIn>[0]));
}

/**
 * Fills the demo page template for a server at `publicUrl`, with a fresh CSP nonce. With
 * `hostedLogin` the page signs in through hosted login as that OAuth client (e.g. demo-spa).
 */
export function renderDemoPage(
  template: string,
  config: Pick<Config, 'publicUrl' | 'clientId'>,
  loader: LoaderScript,
  hostedLogin?: { clientId: string },
): { html: string; csp: string } {
  const nonce = randomBytes(16).toString('base64');
  const html = template
    .replaceAll('%GATEHOUSE_HOSTED_LOGIN%', hostedLogin ? 'true' : 'false')
    .replaceAll('%LOADER_SRC%', `${config.publicUrl}/cdn/${loader.entry}`)
    .replaceAll('%LOADER_INTEGRITY%', loader.integrity)
    .replaceAll('%GATEHOUSE_BASE_URL%', config.publicUrl)
    .replaceAll('%GATEHOUSE_CLIENT_ID%', hostedLogin?.clientId ?? config.clientId)
    .replaceAll('%CSP_NONCE%', nonce);
  return { html, csp: demoCsp(nonce, config.publicUrl) };
}

/** Files of the React demo's build that `/react/assets/*` may send: Vite's hashed names, nothing else. */
const REACT_DEMO_ASSET = /^[A-Za-z0-9_-]+\.(js|css)$/;
const REACT_DEMO_TYPES: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };

/**
 * Dev mode only: the demo host page at `/`, the auth routes and the hosted-login callback; and the
 * React demo (demo/react, built to demo/react/dist) at `/react/` with its auth routes under it.
 */
export function demoRoutes(config: Pick<Config, 'demoDir' | 'publicUrl' | 'clientId' | 'captcha'>, loader: () => Promise<LoaderScript>): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const page = (file: string, missing: string) => async (c: Context<AppEnv>) => {
    // Read per request so edits to the demo page show up without a restart.
    const template = await readFile(path.join(config.demoDir, file), 'utf8').catch(() => null);
    if (template === null) throw Errors.notFound(missing);
    const { html, csp } = renderDemoPage(template, config, await loader());
    // With a captcha policy, reCAPTCHA runs its checks in frames from the script's site.
    const frames = captchaFrameSources(config.captcha);
    return c.html(html, 200, {
      // One frame-src directive (a second one would be ignored): the captcha's frames join Stripe's.
      'Content-Security-Policy': frames.length ? csp.replace('frame-src ', `frame-src ${frames.join(' ')} `) : csp,
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
    });
  };
  const serve = page('index.html', 'Demo page not found; set GATEHOUSE_DEMO_DIR');
  app.get('/', serve);
  app.get('/account/*', serve);
  app.get('/oauth/callback', serve);

  const serveReact = page('react/dist/index.html', 'React demo not built; run npm run build');
  app.get('/react/assets/:file', async (c) => {
    const name = c.req.param('file');
    const match = REACT_DEMO_ASSET.exec(name);
    if (!match) throw Errors.notFound();
    const body = await readFile(path.join(config.demoDir, 'react/dist/assets', name)).catch(() => null);
    if (body === null) throw Errors.notFound();
    return c.body(body, 200, { 'Content-Type': REACT_DEMO_TYPES[match[1]!]!, 'Cache-Control': 'public, max-age=31536000, immutable', 'X-Content-Type-Options': 'nosniff' });
  });
  app.get('/react', (c) => c.redirect('/react/', 302));
  app.get('/react/', serveReact);
  app.get('/react/*', serveReact);
  return app;
}
