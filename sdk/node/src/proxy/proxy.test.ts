import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { ApiPaths, ErrorCodes, SessionPaths } from '@gatehouse/shared/wire';
import express from 'express';
import { afterEach, expect, it } from 'vitest';
import { describeDialects, PASSWORD, signUpAndActivate } from '../../../../server/src/test/harness';
import { SDK_MARKER } from './headers.js';
import { createExpressProxy, createNodeProxy } from './node.js';
import { createGatehouseProxy, isCrossOriginRequest, rewriteCookiePath } from './proxy.js';
import { createSessionCookies, readSession, sessionCookieName } from '../session/cookie.js';

const SESSION_PASSWORD = 'a-session-password-of-at-least-32-characters';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

interface HostAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: any;
}

/** One HTTP call to a host, from `localAddress` (a loopback address other than Gatehouse's peer). */
function hostCall(port: number, method: string, path: string, headers: Record<string, string> = {}, body?: unknown, localAddress = '127.0.0.3'): Promise<HostAnswer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest({ host: '127.0.0.1', port, method, path, localAddress, headers: { ...headers, ...(payload ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode!, headers: res.headers, body: (res.headers['content-type'] ?? '').includes('json') && text ? JSON.parse(text) : text });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

async function listening(server: Server): Promise<number> {
  if (!server.listening) await new Promise((r) => server.once('listening', r));
  return (server.address() as AddressInfo).port;
}

const open: Server[] = [];
afterEach(async () => {
  // Idle keep-alive connections would hold close() for seconds.
  await Promise.all(open.splice(0).map((s) => new Promise((r) => { s.close(r); s.closeAllConnections(); })));
});

describeDialects('API proxy in front of a real Gatehouse server', (h) => {
  /** Gatehouse over real HTTP (behind the host, so it trusts X-Forwarded-For), and its base URL. */
  async function gatehouse() {
    const server = await h.start({ TRUST_PROXY: 'true', RATE_LIMIT_LOGIN_PER_IP: '1000/600', RATE_LIMIT_SIGNUP_PER_IP: '1000/3600' });
    const listener = serve({ fetch: server.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    open.push(listener);
    return { server, baseUrl: `http://127.0.0.1:${await listening(listener)}` };
  }

  async function expressHost(baseUrl: string) {
    const app = express();
    app.use('/api/gatehouse', createExpressProxy({ baseUrl }));
    const listener = app.listen(0, '127.0.0.1');
    open.push(listener);
    return listening(listener);
  }

  it('Express host: sign-in passes through with the user agent and client IP, and the session cookie refreshes', async () => {
    const { server, baseUrl } = await gatehouse();
    const user = await signUpAndActivate(server);
    const port = await expressHost(baseUrl);

    const login = await hostCall(port, 'POST', `/api/gatehouse${ApiPaths.login}`, { 'user-agent': FIREFOX, accept: 'application/json' }, { email: user.email, password: PASSWORD });
    expect(login.status).toBe(200);
    expect(typeof login.body.accessToken).toBe('string');
    expect(login.headers['x-trace-id']).toBeTruthy();
    const refreshCookie = (login.headers['set-cookie'] ?? []).find((c) => c.startsWith('gatehouse-refresh-'));
    expect(refreshCookie).toBeDefined();
    // Scoped under the mount path Express stripped, so the browser sends it back through the proxy.
    expect(refreshCookie).toMatch(new RegExp(`; Path=/api/gatehouse${ApiPaths.refresh.slice(0, ApiPaths.refresh.indexOf('/auth/') + 5)}(;|$)`, 'i'));

    // Gatehouse recorded the browser's user agent and its address (127.0.0.3), not the host's (127.0.0.1).
    const sessions = await hostCall(port, 'GET', `/api/gatehouse${SessionPaths.mySessions}`, { authorization: `Bearer ${login.body.accessToken}` });
    expect(sessions.status).toBe(200);
    expect(sessions.body.find((s: { current: boolean }) => s.current)).toMatchObject({ userAgent: FIREFOX, ipAddress: '127.0.0.3' });

    // The cookie header is forwarded: the refresh cookie renews the session through the proxy.
    const refreshed = await hostCall(port, 'POST', `/api/gatehouse${ApiPaths.refresh}`, { cookie: `host_session=abc; ${refreshCookie!.split(';')[0]}` }, {});
    expect(refreshed.status).toBe(200);
    expect(typeof refreshed.body.accessToken).toBe('string');

    // A bodyless DELETE passes through: the sign-up's session is signed out.
    const other = sessions.body.find((s: { current: boolean }) => !s.current) as { id: string };
    const revoked = await hostCall(port, 'DELETE', `/api/gatehouse${SessionPaths.mySession.replace('{sessionId}', encodeURIComponent(other.id))}`, { authorization: `Bearer ${login.body.accessToken}` });
    expect(revoked.status).toBeLessThan(300);
    const left = await hostCall(port, 'GET', `/api/gatehouse${SessionPaths.mySessions}`, { authorization: `Bearer ${login.body.accessToken}` });
    expect(left.body.map((s: { id: string }) => s.id)).not.toContain(other.id);
  });

  it('an invalid user agent value is dropped: Gatehouse records the SDK marker, never the value nor fetch\'s "node"', async () => {
    const { server, baseUrl } = await gatehouse();
    const user = await signUpAndActivate(server);
    const port = await expressHost(baseUrl);
    const login = await hostCall(port, 'POST', `/api/gatehouse${ApiPaths.login}`, { 'user-agent': 'Evil\u00e9Agent' }, { email: user.email, password: PASSWORD });
    expect(login.status).toBe(200);
    const sessions = await hostCall(port, 'GET', `/api/gatehouse${SessionPaths.mySessions}`, { authorization: `Bearer ${login.body.accessToken}` });
    expect(sessions.body.find((s: { current: boolean }) => s.current)).toMatchObject({ userAgent: SDK_MARKER, ipAddress: '127.0.0.3' });
  });

  it('node:http host: calls under the mount path reach Gatehouse with the bearer token; others are 404', async () => {
    const { server, baseUrl } = await gatehouse();
    const user = await signUpAndActivate(server);
    const host = createServer(createNodeProxy({ baseUrl, mountPath: '/api/gatehouse' })).listen(0, '127.0.0.1');
    open.push(host);
    const port = await listening(host);

    const me = await hostCall(port, 'GET', `/api/gatehouse${ApiPaths.me}`, { authorization: `Bearer ${user.accessToken}` });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(user.email);
    const anonymous = await hostCall(port, 'GET', `/api/gatehouse${ApiPaths.me}`);
    expect(anonymous.status).toBe(401);
    expect(Array.isArray(anonymous.body.errors)).toBe(true);
    expect(anonymous.headers['x-trace-id']).toBeTruthy();
    expect((await hostCall(port, 'GET', `/elsewhere${ApiPaths.me}`, { authorization: `Bearer ${user.accessToken}` })).status).toBe(404);
  });

  it('Web Request -> Response: the same call from a route handler, with the client IP it is given', async () => {
    const { server, baseUrl } = await gatehouse();
    const user = await signUpAndActivate(server);
    const proxy = createGatehouseProxy({ baseUrl, mountPath: '/api/gatehouse', framework: 'next' });
    const login = await proxy(new Request(`https://app.example/api/gatehouse${ApiPaths.login}`, { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': FIREFOX }, body: JSON.stringify({ email: user.email, password: PASSWORD }) }), { clientIp: '203.0.113.9' });
    expect(login.status).toBe(200);
    const { accessToken } = (await login.json()) as { accessToken: string };
    const refreshCookie = login.headers.getSetCookie().find((c) => c.startsWith('gatehouse-refresh-'));
    expect(refreshCookie).toMatch(/; Path=\/api\/gatehouse\/identity\/resources\/auth(;|$)/i);
    const sessions = await proxy(new Request(`https://app.example/api/gatehouse${SessionPaths.mySessions}`, { headers: { authorization: `Bearer ${accessToken}` } }));
    expect(((await sessions.json()) as Array<{ current: boolean }>).find((s) => s.current)).toMatchObject({ userAgent: FIREFOX, ipAddress: '203.0.113.9' });
  });

  it('a host keeping tokens in its sealed session: the proxy sends the session\'s access token, and never the session cookie', async () => {
    const { server, baseUrl } = await gatehouse();
    const user = await signUpAndActivate(server);
    const sessionOptions = { clientId: server.config.clientId, password: SESSION_PASSWORD };
    const name = sessionCookieName(server.config.clientId);
    const app = express();
    app.use(
      '/api/gatehouse',
      createExpressProxy({
        baseUrl,
        withheldCookies: [name],
        accessToken: async (req) => (await readSession<{ accessToken: string }>(req.headers.get('cookie'), sessionOptions))?.accessToken,
      }),
    );
    const listener = app.listen(0, '127.0.0.1');
    open.push(listener);
    const port = await listening(listener);
    // A large session (split over several cookies) holding the access token.
    const cookies = await createSessionCookies({ accessToken: user.accessToken, profile: 'x'.repeat(6000) }, sessionOptions);
    expect(cookies.length).toBeGreaterThan(1);
    const cookie = ['theme=dark', ...cookies.map((c) => c.split(';')[0])].join('; ');
    const me = await hostCall(port, 'GET', `/api/gatehouse${ApiPaths.me}`, { cookie });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(user.email);
    // No session: no token, so Gatehouse answers 401.
    expect((await hostCall(port, 'GET', `/api/gatehouse${ApiPaths.me}`, { cookie: 'theme=dark' })).status).toBe(401);
  });

  it("another site's page gets no session token and meets Gatehouse's origin check (CSRF through the proxy)", async () => {
    const { server, baseUrl } = await gatehouse();
    const user = await signUpAndActivate(server);
    const sessionOptions = { clientId: server.config.clientId, password: SESSION_PASSWORD };
    const app = express();
    app.use(
      '/api/gatehouse',
      createExpressProxy({
        baseUrl,
        withheldCookies: [sessionCookieName(server.config.clientId)],
        accessToken: async (req) => (await readSession<{ accessToken: string }>(req.headers.get('cookie'), sessionOptions))?.accessToken,
      }),
    );
    const listener = app.listen(0, '127.0.0.1');
    open.push(listener);
    const port = await listening(listener);
    // The host's session cookie is SameSite=None by default: the browser sends it with another site's form or no-cors fetch too.
    const cookie = (await createSessionCookies({ accessToken: user.accessToken }, sessionOptions)).map((c) => c.split(';')[0]).join('; ');
    const fromEvil = { cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };

    // The host's own page: the session's token is sent.
    expect((await hostCall(port, 'GET', `/api/gatehouse${ApiPaths.me}`, { cookie, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    // Another site's page: no token (so no bodyless POST acting as the user, e.g. new recovery codes).
    expect((await hostCall(port, 'GET', `/api/gatehouse${ApiPaths.me}`, fromEvil)).status).toBe(401);
    // Gatehouse sees that page's Origin and refuses it where it guards (logout, refresh), as it would a direct call.
    const logout = await hostCall(port, 'POST', `/api/gatehouse${ApiPaths.logout}`, fromEvil);
    expect(logout.status).toBe(403);
    expect(logout.body.errorCode).toBe(ErrorCodes.originNotAllowed);
    // Without Sec-Fetch-Site (an older browser), an Origin other than the host's counts the same.
    expect((await hostCall(port, 'POST', `/api/gatehouse${ApiPaths.logout}`, { cookie, origin: 'https://evil.example' })).body.errorCode).toBe(ErrorCodes.originNotAllowed);
    // The host's own origin without Sec-Fetch-Site: its session token is sent as before.
    expect((await hostCall(port, 'GET', `/api/gatehouse${ApiPaths.me}`, { cookie, origin: `http://127.0.0.1:${port}` })).status).toBe(200);
  });
});

it('withheld cookies and their numbered pieces never leave the host; the browser\'s own Authorization wins over the session', async () => {
  let seen: IncomingHttpHeaders = {};
  const echo = createServer((req, res) => {
    seen = req.headers;
    res.writeHead(204).end();
  }).listen(0, '127.0.0.1');
  open.push(echo);
  const proxy = createGatehouseProxy({ baseUrl: `http://127.0.0.1:${await listening(echo)}`, withheldCookies: ['gh_session_abc'], accessToken: () => 'from-session' });
  await proxy(new Request('https://app.example/x', { headers: { cookie: 'gh_session_abc=1; gh_session_abc.0=2; gh_session_abc.1=3; gh_session_abcd=4; gatehouse-refresh-abc=r' } }));
  expect(seen.cookie).toBe('gh_session_abcd=4; gatehouse-refresh-abc=r');
  expect(seen.authorization).toBe('Bearer from-session');
  await proxy(new Request('https://app.example/x', { headers: { cookie: 'gh_session_abc.0=2', authorization: 'Bearer from-browser' } }));
  expect(seen.cookie).toBeUndefined();
  expect(seen.authorization).toBe('Bearer from-browser');
});

it('answers 502 with the error body when Gatehouse cannot be reached', async () => {
  const closed = createServer().listen(0, '127.0.0.1');
  const port = await listening(closed);
  await new Promise((r) => closed.close(r));
  const proxy = createGatehouseProxy({ baseUrl: `http://127.0.0.1:${port}` });
  const res = await proxy(new Request(`https://app.example${ApiPaths.me}`));
  expect(res.status).toBe(502);
  expect(await res.json()).toEqual({ errors: ['Gatehouse could not be reached'], errorCode: 'ER-PROXY-UNREACHABLE' });
});

it('answers 504 with the error body when Gatehouse does not answer within timeoutMs, and passes a redirect back unfollowed', async () => {
  const held: Array<() => void> = [];
  const slow = createServer((req, res) => {
    if (req.url === '/redirect') return void res.writeHead(302, { location: 'https://elsewhere.example/' }).end();
    held.push(() => res.end());
  }).listen(0, '127.0.0.1');
  open.push(slow);
  const proxy = createGatehouseProxy({ baseUrl: `http://127.0.0.1:${await listening(slow)}`, timeoutMs: 200 });
  const started = Date.now();
  const res = await proxy(new Request('https://app.example/slow'));
  expect(res.status).toBe(504);
  expect(Date.now() - started).toBeLessThan(5000);
  expect(await res.json()).toEqual({ errors: ['Gatehouse did not answer in time'], errorCode: 'ER-PROXY-TIMEOUT' });
  held.forEach((end) => end());
  const redirect = await proxy(new Request('https://app.example/redirect'));
  expect(redirect.status).toBe(302);
  expect(redirect.headers.get('location')).toBe('https://elsewhere.example/');
});

it('refuses a base URL that is not an absolute http(s) URL, naming the option', () => {
  expect(() => createGatehouseProxy({ baseUrl: '/relative' })).toThrow('baseUrl must be an absolute URL');
  expect(() => createGatehouseProxy({ baseUrl: 'ftp://auth.example' })).toThrow('baseUrl must be an http or https URL');
  expect(() => createGatehouseProxy({ baseUrl: 'https://auth.example', mountPath: 'api' })).toThrow('mountPath "api" must start with /');
});

it('gives Gatehouse\'s cookie paths back under the mount path (a reload through the proxy keeps the refresh cookie)', () => {
  const refresh = 'gatehouse-refresh-demo=abc; Max-Age=2592000; Path=/identity/resources/auth; HttpOnly; Secure; SameSite=Lax';
  expect(rewriteCookiePath(refresh, '', '/api/gatehouse')).toBe('gatehouse-refresh-demo=abc; Max-Age=2592000; Path=/api/gatehouse/identity/resources/auth; HttpOnly; Secure; SameSite=Lax');
  // Gatehouse under a path prefix: the prefix is replaced by the mount path.
  expect(rewriteCookiePath('a=1; path=/auth/identity/resources/auth', '/auth', '/gh')).toBe('a=1; path=/gh/identity/resources/auth');
  expect(rewriteCookiePath('a=1; Path=/', '', '/gh')).toBe('a=1; Path=/gh');
  // Mounted at the root, or a path outside Gatehouse's base path, or no Path at all: unchanged.
  expect(rewriteCookiePath(refresh, '', '')).toBe(refresh);
  expect(rewriteCookiePath('a=1; Path=/elsewhere', '/auth', '/gh')).toBe('a=1; Path=/elsewhere');
  expect(rewriteCookiePath('a=1; HttpOnly', '', '/gh')).toBe('a=1; HttpOnly');
});

it('tells the host\'s own pages from other sites\' by Sec-Fetch-Site, else by Origin against Host', () => {
  const req = (headers: Record<string, string>) => new Request('http://host.invalid/x', { headers });
  expect(isCrossOriginRequest(req({ 'sec-fetch-site': 'same-origin', origin: 'https://evil.example' }))).toBe(false);
  expect(isCrossOriginRequest(req({ 'sec-fetch-site': 'none' }))).toBe(false);
  expect(isCrossOriginRequest(req({ 'sec-fetch-site': 'same-site' }))).toBe(true);
  expect(isCrossOriginRequest(req({ 'sec-fetch-site': 'cross-site' }))).toBe(true);
  expect(isCrossOriginRequest(req({}))).toBe(false);
  expect(isCrossOriginRequest(req({ host: 'app.example', origin: 'https://app.example' }))).toBe(false);
  expect(isCrossOriginRequest(req({ host: 'app.example', origin: 'https://app.example.evil.example' }))).toBe(true);
  expect(isCrossOriginRequest(req({ host: 'app.example', origin: 'null' }))).toBe(true);
});

it('writes no attribute into a cookie from the browser\'s path: a stripped prefix with ; (an Express mount with a parameter) is not used', async () => {
  const upstream = createServer((_req, res) => {
    res.writeHead(200, { 'set-cookie': 'gatehouse-refresh-c=r; Path=/identity/resources/auth; HttpOnly; SameSite=Lax', 'content-type': 'application/json' }).end('{}');
  }).listen(0, '127.0.0.1');
  open.push(upstream);
  const app = express();
  app.use('/:space/api/gatehouse', createExpressProxy({ baseUrl: `http://127.0.0.1:${await listening(upstream)}` }));
  const host = app.listen(0, '127.0.0.1');
  open.push(host);
  const port = await listening(host);
  const injected = await hostCall(port, 'GET', '/t;Domain=127.0.0.1;x=/api/gatehouse/identity/resources/auth/v1/user/token/refresh');
  expect(injected.headers['set-cookie']).toEqual(['gatehouse-refresh-c=r; Path=/identity/resources/auth; HttpOnly; SameSite=Lax']);
  const plain = await hostCall(port, 'GET', '/team-1/api/gatehouse/identity/resources/auth/v1/user/token/refresh');
  expect(plain.headers['set-cookie']).toEqual(['gatehouse-refresh-c=r; Path=/team-1/api/gatehouse/identity/resources/auth; HttpOnly; SameSite=Lax']);
  expect(() => createGatehouseProxy({ baseUrl: 'https://auth.example', mountPath: '/a;Domain=x' })).toThrow('mountPath "/a;Domain=x" must hold no ;');
});
