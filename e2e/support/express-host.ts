/**
 * An Express host protected by @gatehouse/node (issue 14), the worked example of docs/node-sdk.md:
 * - its page embeds the login box through the loader, whose API calls go to the host's own origin
 *   (`/api/gatehouse`, the SDK's proxy), never to Gatehouse's;
 * - the page hands each new access token to `POST /session`, which verifies it and keeps it in the
 *   sealed session cookie; the proxy sends it to Gatehouse when the browser sends none;
 * - its own routes are guarded by requireAuth / requirePermissions / requireEntitlement, reading the
 *   token from the Authorization header or, failing that, from the session.
 * Built from sdk/node's source (the e2e config resolves the `dev-source` condition).
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { bearerToken, clearSessionCookies, createExpressProxy, createSessionCookies, readSession, sessionCookieName, type SessionCookieOptions } from '../../sdk/node/src/index';
import { requireAuth, requireEntitlement, requirePermissions } from '../../sdk/node/src/frameworks/express';
import type { AccessTokenClaims } from '../../sdk/node/src/verify/verify-access-token';
import { demoCsp } from '../../server/src/routes/platform/demo';

export interface ExpressHost {
  url: string;
  stop(): Promise<void>;
}

interface HostSession {
  accessToken: string;
}

type AuthedRequest = Request & { auth?: AccessTokenClaims };

/** The page: the loader with SRI (served by Gatehouse's CDN), its API calls through the host's proxy. */
function page(nonce: string, gatehouseUrl: string, hostUrl: string, loader: { entry: string; integrity: string }, clientId: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Express host · Gatehouse</title>
    <link rel="icon" href="data:," />
  </head>
  <body>
    <header>
      <strong>Express host</strong>
      <span>Host session: <span id="session" data-testid="host-session">none</span></span>
      <button id="signout" type="button" hidden>Sign out</button>
    </header>
    <main><gatehouse-login-box></gatehouse-login-box></main>
    <script nonce="${nonce}" src="${gatehouseUrl}/cdn/${loader.entry}" integrity="${loader.integrity}" crossorigin="anonymous"></script>
    <script nonce="${nonce}">
      const app = Gatehouse.initialize({ contextOptions: { baseUrl: '${hostUrl}/api/gatehouse', clientId: '${clientId}' }, nonce: '${nonce}' });
      const $ = (id) => document.getElementById(id);
      let sent = null;
      let kept = false;
      // The login box sends the user back with history.pushState (and a popstate event); a page this
      // one does not render (a server-rendered route such as /dashboard) is loaded for real once the
      // session is kept.
      function leaveIfServerRendered() {
        const ownRoute = location.pathname === '/' || location.pathname.startsWith('/account/');
        if (kept && !ownRoute) location.replace(location.href);
      }
      // Each new access token (sign-in, refresh, tenant switch) goes to the host's session.
      async function follow() {
        const token = app.getState()?.user?.accessToken ?? null;
        $('signout').hidden = !token;
        if (!token || token === sent) return;
        sent = token;
        const res = await fetch('/session', { method: 'POST', headers: { authorization: 'Bearer ' + token } });
        kept = res.ok;
        $('session').textContent = res.ok ? 'kept' : 'refused ' + res.status;
        leaveIfServerRendered();
      }
      window.addEventListener('popstate', leaveIfServerRendered);
      $('signout').addEventListener('click', async () => {
        await fetch('/session', { method: 'DELETE' });
        sent = null;
        kept = false;
        $('session').textContent = 'none';
        await app.logout();
      });
      app.addOnLoadedListener(() => {
        app.store?.subscribe(follow);
        follow();
      });
    </script>
  </body>
</html>`;
}

/**
 * Starts the host on a free loopback port, in front of the Gatehouse server at `gatehouseUrl`
 * (`loader`: the `loader` entry of its CDN manifest).
 */
export async function startExpressHost(gatehouseUrl: string, loader: { entry: string; integrity: string }, clientId = 'demo-client'): Promise<ExpressHost> {
  const app = express();
  const server: Server = createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const hostUrl = `http://localhost:${(server.address() as AddressInfo).port}`;

  // localhost is a secure context for Chromium, so the default Secure cookie works over plain HTTP here.
  const session: SessionCookieOptions = { clientId, password: randomBytes(32).toString('hex'), sameSite: 'lax' };
  const guard = { baseUrl: gatehouseUrl, clientId };

  // The proxy first, before any body parser: the browser's Gatehouse calls, with the session's token
  // when the browser sends none, and the session cookie kept from Gatehouse.
  app.use(
    '/api/gatehouse',
    createExpressProxy({
      baseUrl: gatehouseUrl,
      withheldCookies: [sessionCookieName(clientId)],
      accessToken: async (req) => (await readSession<HostSession>(req.headers.get('cookie'), session))?.accessToken,
    }),
  );

  // The host's own routes take the token from the session when the request carries no Authorization header.
  const fromSession = async (req: Request, _res: Response, next: NextFunction) => {
    if (!req.headers.authorization) {
      const kept = await readSession<HostSession>(req.headers.cookie, session).catch(() => null);
      if (kept?.accessToken) req.headers.authorization = `Bearer ${kept.accessToken}`;
    }
    next();
  };

  // A verified token becomes the session (sealed, HttpOnly); a bad one is refused 401 by requireAuth.
  app.post('/session', requireAuth(guard), async (req: AuthedRequest, res) => {
    const accessToken = bearerToken(req.headers.authorization);
    res.setHeader('set-cookie', await createSessionCookies({ accessToken } satisfies HostSession, session, req.headers.cookie));
    res.status(204).end();
  });
  app.delete('/session', (req, res) => {
    res.setHeader('set-cookie', clearSessionCookies(req.headers.cookie, session));
    res.status(204).end();
  });

  const claims = (req: AuthedRequest, res: Response) => void res.json({ sub: req.auth!.sub, email: req.auth!.email, tenantId: req.auth!.tenantId, roles: req.auth!.roles });
  app.get('/api/me', fromSession, requireAuth(guard), claims);
  app.get('/api/users', fromSession, requirePermissions(['fe.secure.read.users'], guard), claims);
  app.get('/api/notes/purge', fromSession, requirePermissions(['notes.purge'], guard), claims);
  app.get('/api/reports/export', fromSession, requireEntitlement({ featureKey: 'reports-export' }, guard), claims);

  // A server-rendered page: signed out, the browser is sent to the login box and back.
  app.get('/dashboard', fromSession, (req, res, next) => {
    if (!req.headers.authorization) return void res.redirect(302, `/account/login?redirectUrl=${encodeURIComponent('/dashboard')}`);
    next();
  }, requireAuth(guard), (req: AuthedRequest, res) => {
    res.type('html').send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dashboard</title><link rel="icon" href="data:,"></head><body><h1>Dashboard</h1><p data-testid="dashboard-user">${String(req.auth!.email ?? req.auth!.sub).replace(/[<>&"]/g, '')}</p></body></html>`);
  });

  const servePage = (_req: Request, res: Response) => {
    const nonce = randomBytes(16).toString('base64');
    // The demo's CSP; the loader's scripts come from Gatehouse's CDN under 'strict-dynamic'.
    res.setHeader('content-security-policy', demoCsp(nonce, gatehouseUrl));
    res.setHeader('cache-control', 'no-store');
    res.type('html').send(page(nonce, gatehouseUrl, hostUrl, loader, clientId));
  };
  app.get('/', servePage);
  app.get('/account/{*rest}', servePage);

  return { url: hostUrl, stop: () => new Promise((r) => server.close(() => r())) };
}
