import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiClient, type ApiClientOptions } from './client';
import { createFetchStub, json } from '../testing/fetch-stub';
import { isGatehouseError } from '../errors';
import { ApiPaths } from '../wire/paths';

const BASE = 'http://api.test';

function client(stub: ReturnType<typeof createFetchStub>, extra: Partial<ApiClientOptions> = {}) {
  return createApiClient({
    baseUrl: BASE,
    clientId: 'client-1',
    getAccessToken: () => null,
    fetch: stub.fetch,
    getLocationSearch: () => '',
    retry: { delayMs: 1 },
    ...extra,
  });
}

async function caught(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('createApiClient requests', () => {
  it('sends JSON bodies with credentials, SDK/source/client headers and no Authorization without a token', async () => {
    const stub = createFetchStub({ 'POST /identity/resources/auth/v1/user': () => json({ accessToken: 't', expiresIn: 60, expires: '', mfaRequired: false }) });
    const api = client(stub, { source: 'login-box' });
    const result = await api.login({ email: 'a@b.co', password: 'pw' });
    expect(result.accessToken).toBe('t');
    const [call] = stub.calls;
    expect(call!.url.href).toBe(`${BASE}${ApiPaths.login}`);
    expect(call!.body).toEqual({ email: 'a@b.co', password: 'pw' });
    expect(call!.credentials).toBe('include');
    expect(call!.headers.get('content-type')).toBe('application/json');
    expect(call!.headers.get('x-gatehouse-sdk')).toBe('gatehouse-js@7.78.0');
    expect(call!.headers.get('x-gatehouse-source')).toBe('login-box');
    expect(call!.headers.get('x-gatehouse-client-id')).toBe('client-1');
    expect(call!.headers.get('authorization')).toBeNull();
  });

  it("sends the host's locale option as X-Gatehouse-Locale, and no such header for a value that is not a language tag", async () => {
    const stub = createFetchStub({ 'GET /identity/resources/users/v2/me': () => json({ id: 'u' }) });
    await client(stub, { locale: 'de-AT' }).me();
    await client(stub, { locale: 'he' }).me();
    await client(stub, { locale: 'de\r\nx-evil: 1' }).me();
    await client(stub).me();
    expect(stub.calls.map((call) => call.headers.get('x-gatehouse-locale'))).toEqual(['de-AT', 'he', null, null]);
  });

  it('sends the seed 7.3 client headers: scoped tenant, login alias, requested application id and framework marker', async () => {
    const stub = createFetchStub({ 'GET /identity/resources/users/v2/me': () => json({ id: 'u' }) });
    await client(stub, { loginAlias: 'acme', applicationId: 'app-7', framework: '@gatehouse/react@1.0.0', getLocationSearch: () => '?tenantId=t-42' }).me();
    await client(stub).me();
    const [first, second] = stub.calls;
    expect(Object.fromEntries([...first!.headers].filter(([name]) => name.startsWith('x-gatehouse-')))).toEqual({
      'x-gatehouse-sdk': 'gatehouse-js@7.78.0',
      'x-gatehouse-client-id': 'client-1',
      'x-gatehouse-tenant-id': 't-42',
      'x-gatehouse-login-alias': 'acme',
      'x-gatehouse-application-id': 'app-7',
      'x-gatehouse-framework': '@gatehouse/react@1.0.0',
    });
    expect(first!.url.searchParams.get('tenantId')).toBe('t-42');
    for (const name of ['x-gatehouse-tenant-id', 'x-gatehouse-login-alias', 'x-gatehouse-application-id', 'x-gatehouse-framework']) expect(second!.headers.get(name)).toBeNull();
  });

  it('drops a client header value fetch would refuse instead of failing the call', async () => {
    const stub = createFetchStub({ 'GET /identity/resources/users/v2/me': () => json({ id: 'u' }) });
    const me = await client(stub, { loginAlias: 'acme\r\nx-evil: 1', applicationId: 'é', framework: 'x'.repeat(300), getLocationSearch: () => '?tenantId=%0d%0a' }).me();
    expect(me).toEqual({ id: 'u' });
    const [call] = stub.calls;
    for (const name of ['x-gatehouse-tenant-id', 'x-gatehouse-login-alias', 'x-gatehouse-application-id', 'x-gatehouse-framework', 'x-evil']) expect(call!.headers.get(name)).toBeNull();
  });

  it('adds a Bearer token read at call time', async () => {
    let token: string | null = null;
    const stub = createFetchStub({ 'GET /identity/resources/users/v2/me': () => json({ id: 'u' }) });
    const api = client(stub, { getAccessToken: () => token });
    await api.me();
    token = 'abc';
    await api.me();
    expect(stub.calls[0]!.headers.get('authorization')).toBeNull();
    expect(stub.calls[1]!.headers.get('authorization')).toBe('Bearer abc');
  });

  it('appends query parameters, JSON-stringifying objects and skipping undefined', async () => {
    const stub = createFetchStub({ 'GET /things': () => json([]) });
    await client(stub).request('GET', '/things', { query: { a: 1, b: 'x y', filter: { role: ['Admin'] }, skip: undefined } });
    const url = stub.calls[0]!.url;
    expect(url.searchParams.get('a')).toBe('1');
    expect(url.searchParams.get('b')).toBe('x y');
    expect(url.searchParams.get('filter')).toBe('{"role":["Admin"]}');
    expect(url.searchParams.has('skip')).toBe(false);
  });

  it('scopes calls to the tenantId query parameter of the page', async () => {
    const stub = createFetchStub({ 'GET /identity/resources/users/v2/me': () => json({}) });
    await client(stub, { getLocationSearch: () => '?foo=1&tenantId=t-42' }).me();
    expect(stub.calls[0]!.url.searchParams.get('tenantId')).toBe('t-42');
  });

  it('keeps the base URL path prefix', async () => {
    const stub = createFetchStub({ 'GET /api/flags': () => json({ a: 'on' }) });
    const api = client(stub, { baseUrl: `${BASE}/api/` });
    expect(await api.flags()).toEqual({ a: 'on' });
  });

  it('reads text, blob and stream responses, and an empty JSON body as undefined', async () => {
    const stub = createFetchStub({ 'GET /t': () => new Response('hello'), 'POST /identity/resources/auth/v1/logout': () => new Response(null, { status: 204 }) });
    const api = client(stub);
    expect(await api.request('GET', '/t', { responseType: 'text' })).toBe('hello');
    expect(await (await api.request<Blob>('GET', '/t', { responseType: 'blob' })).text()).toBe('hello');
    const stream = await api.request<ReadableStream>('GET', '/t', { responseType: 'stream' });
    expect(await new Response(stream).text()).toBe('hello');
    await expect(api.logout()).resolves.toBeUndefined();
  });

  it('asks for server-sent events with a stream response, and for JSON or anything otherwise', async () => {
    const stub = createFetchStub({ 'GET /t': () => new Response('data: 1\n\n') });
    const api = client(stub);
    await api.request<ReadableStream>('GET', '/t', { responseType: 'stream' });
    await api.request('GET', '/t', { responseType: 'text' });
    await api.request('GET', '/t', { responseType: 'json' }).catch(() => undefined);
    expect(stub.calls.map((c) => c.headers.get('accept'))).toEqual(['text/event-stream', '*/*', 'application/json']);
  });

  it('sends the refresh body empty or with the tenant, and reads metadata rows[0].configuration', async () => {
    const stub = createFetchStub({
      'POST /identity/resources/auth/v1/user/token/refresh': () => json({ accessToken: 'r' }),
      'GET /metadata': () => json({ rows: [{ entityName: 'adminBox', configuration: { theme: { primaryColor: '#f00' } } }] }),
    });
    const api = client(stub);
    await api.refresh();
    await api.refresh('t1');
    expect(stub.calls[0]!.body).toEqual({});
    expect(stub.calls[1]!.body).toEqual({ tenantId: 't1' });
    expect(await api.metadata('adminBox')).toEqual({ theme: { primaryColor: '#f00' } });
    expect(stub.calls[2]!.url.searchParams.get('entityName')).toBe('adminBox');
  });

  it('navigates to the response text on 302', async () => {
    const navigate = vi.fn();
    const stub = createFetchStub({ 'GET /go': () => new Response('https://idp.example/authorize', { status: 302 }) });
    await caught(client(stub, { navigate }).request('GET', '/go'));
    expect(navigate).toHaveBeenCalledWith('https://idp.example/authorize');
  });

  it.each(['javascript:alert(document.domain)', 'data:text/html,<script>1</script>', ' JavaScript:alert(1)'])('never navigates to a non-web 302 target %j', async (target) => {
    const navigate = vi.fn();
    const stub = createFetchStub({ 'GET /go': () => new Response(target, { status: 302 }) });
    const error = await caught(client(stub, { navigate }).request('GET', '/go'));
    expect(navigate).not.toHaveBeenCalled();
    expect(error.statusCode).toBe(302);
  });
});

describe('createApiClient errors', () => {
  it('joins the errors array, and carries status, trace id, errorCode and errorContext', async () => {
    const stub = createFetchStub({
      'POST /identity/resources/auth/v1/user': () =>
        json({ errors: ['Invalid email or password', 'second'], errorCode: 'ER-01006', errorContext: { attempts: 2 } }, { status: 401, headers: { 'x-trace-id': 'trace-1' } }),
    });
    const error = await caught(client(stub).login({ email: 'a@b.co', password: 'x' }));
    expect(isGatehouseError(error)).toBe(true);
    expect(error).toEqual({ kind: 'GatehouseError', message: 'Invalid email or password, second', statusCode: 401, traceId: 'trace-1', errorCode: 'ER-01006', errorContext: { attempts: 2 } });
    expect(stub.calls).toHaveLength(1);
  });

  it('gives "Error request is too large" on 413', async () => {
    const stub = createFetchStub({ 'PUT /team/resources/profile/me/image/v1': () => json({ errors: ['body too big'] }, { status: 413 }) });
    const error = await caught(client(stub).uploadProfileImage('data:image/png;base64,AAAA'));
    expect(error.message).toBe('Error request is too large');
    expect(error.statusCode).toBe(413);
  });

  it('falls back to "Error {status} - {statusText}" for a JSON body without errors', async () => {
    const stub = createFetchStub({ 'GET /x': () => json({ message: 'nope' }, { status: 409, statusText: 'Conflict' }) });
    const error = await caught(client(stub).request('GET', '/x'));
    expect(error.message).toBe('Error 409 - Conflict');
    expect(error.statusCode).toBe(409);
  });

  it('uses the generic message when the body cannot be parsed', async () => {
    const stub = createFetchStub({ 'GET /x': () => new Response('<html>oops</html>', { status: 400, statusText: 'Bad Request', headers: { 'x-trace-id': 't9' } }) });
    const error = await caught(client(stub).request('GET', '/x'));
    expect(error).toMatchObject({ message: "We're facing some difficulties, Please try again", statusCode: 400, traceId: 't9' });
  });

  it('turns unknown failures into a generic 500 GatehouseError', async () => {
    const api = client({ fetch: (async () => { throw new Error('boom'); }) as typeof fetch } as never);
    const error = await caught(api.me());
    expect(error).toMatchObject({ kind: 'GatehouseError', statusCode: 500, message: "We're facing some difficulties, Please try again" });
  });

  it('calls onUnauthorized for a 401 on a call that carried a token', async () => {
    const onUnauthorized = vi.fn();
    const stub = createFetchStub({ 'GET /identity/resources/users/v2/me': () => json({ errors: ['Unauthorized'] }, { status: 401 }) });
    await caught(client(stub, { getAccessToken: () => 'tok', onUnauthorized }).me());
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });
});

describe('createApiClient retries', () => {
  it('retries 502/503/504 on idempotent methods, 3 attempts in all', async () => {
    const stub = createFetchStub({ 'GET /identity/resources/users/v2/me': [() => json({}, { status: 503 }), () => json({}, { status: 502 }), () => json({ id: 'u1' })] });
    expect(await client(stub).me()).toEqual({ id: 'u1' });
    expect(stub.calls).toHaveLength(3);
  });

  it('gives up after 3 attempts', async () => {
    const stub = createFetchStub({ 'GET /identity/resources/users/v2/me': () => json({ errors: ['down'] }, { status: 504 }) });
    const error = await caught(client(stub).me());
    expect(error.message).toBe('down');
    expect(stub.calls).toHaveLength(3);
  });

  it('does not retry a 5xx on POST, nor any 4xx', async () => {
    const stub = createFetchStub({
      'POST /identity/resources/auth/v1/user': () => json({ errors: ['x'] }, { status: 503 }),
      'GET /identity/resources/users/v2/me': () => json({ errors: ['Unauthorized'] }, { status: 401 }),
      'PUT /identity/resources/users/v2/me': () => json({ errors: ['bad'] }, { status: 400 }),
    });
    const api = client(stub);
    await caught(api.login({ email: 'a@b.co', password: 'p' }));
    await caught(api.me());
    await caught(api.updateMe({ name: 'x' }));
    expect(stub.calls).toHaveLength(3);
  });

  it('retries network failures with the default 500 ms delay', async () => {
    let n = 0;
    const fetchFail = (async (input: RequestInfo | URL, init?: RequestInit) => {
      n += 1;
      if (n < 3) throw new TypeError('fetch failed');
      return json({ ok: true });
    }) as typeof fetch;
    const api = createApiClient({ baseUrl: BASE, clientId: 'c', getAccessToken: () => null, fetch: fetchFail, getLocationSearch: () => '' });
    const started = Date.now();
    expect(await api.request('POST', '/x', { body: {} })).toEqual({ ok: true });
    expect(n).toBe(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });
});

describe('createApiClient refresh', () => {
  // A retried refresh would replay a token the first attempt may already have rotated, and the
  // server revokes the whole session on replay.
  it('never retries the refresh call, even after a network failure', async () => {
    let n = 0;
    const fetchFail = (async () => {
      n += 1;
      throw new TypeError('fetch failed');
    }) as typeof fetch;
    const api = createApiClient({ baseUrl: BASE, clientId: 'c', getAccessToken: () => null, fetch: fetchFail, getLocationSearch: () => '', retry: { delayMs: 1 } });
    await caught(api.refresh());
    expect(n).toBe(1);
  });
});

describe('createApiClient against a real HTTP server', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it('round-trips JSON and reads the trace id of an error', async () => {
    let hits = 0;
    server = createServer((req, res) => {
      hits += 1;
      if (req.url?.startsWith('/identity/resources/users/v2/me')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'u1', auth: req.headers.authorization }));
        return;
      }
      res.writeHead(400, { 'content-type': 'application/json', 'x-trace-id': 'srv-trace' }).end(JSON.stringify({ errors: ['User is not verified'], errorCode: 'ER-01007' }));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const api = createApiClient({ baseUrl: `http://127.0.0.1:${port}`, clientId: 'c', getAccessToken: () => 'tok', getLocationSearch: () => '' });
    expect(await api.me()).toEqual({ id: 'u1', auth: 'Bearer tok' });
    const error = await caught(api.login({ email: 'a@b.co', password: 'p' }));
    expect(error).toMatchObject({ statusCode: 400, message: 'User is not verified', traceId: 'srv-trace', errorCode: 'ER-01007' });
    expect(hits).toBe(2);
  });
});
