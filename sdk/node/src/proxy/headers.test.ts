import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { forwardedRequestHeaders, isValidHeaderValue, returnedResponseHeaders, SDK_MARKER, SDK_VERSION } from './headers.js';

const asObject = (h: Headers) => Object.fromEntries([...h]);

describe('proxy request headers (seed 000 sections 5 and 7.3)', () => {
  it('forwards authorization, cookie, accept, language, user agent, application id, login alias, framework and SDK version', () => {
    const sent = {
      authorization: 'Bearer eyJ.a.b',
      cookie: 'gatehouse-refresh-abc=r1; other=2',
      accept: 'application/json',
      'accept-language': 'de-DE,de;q=0.9',
      'user-agent': 'Mozilla/5.0 (X11) Test/1.0',
      'x-gatehouse-application-id': 'app-1',
      'x-gatehouse-login-alias': 'acme',
      'x-gatehouse-tenant-id': 't-1',
      'x-gatehouse-framework': 'react',
      'x-gatehouse-sdk': 'gatehouse-js@7.78.0',
      'content-type': 'application/json',
    };
    expect(asObject(forwardedRequestHeaders(new Headers(sent)))).toEqual(sent);
  });

  it('sends nothing else: host headers, hop-by-hop headers and connection stay behind', () => {
    const out = forwardedRequestHeaders(
      new Headers({ accept: '*/*', connection: 'keep-alive', 'keep-alive': 'timeout=5', te: 'trailers', upgrade: 'websocket', host: 'app.example', 'x-internal-secret': 's3cret', 'proxy-authorization': 'Basic x' }),
    );
    expect(asObject(out)).toEqual({ accept: '*/*', 'x-gatehouse-sdk': SDK_MARKER, 'user-agent': SDK_MARKER });
  });

  it('drops a header that the connection header names, even one it would forward', () => {
    const out = forwardedRequestHeaders(new Headers({ connection: 'close, Cookie', cookie: 'a=1', accept: '*/*' }));
    expect(out.has('cookie')).toBe(false);
    expect(out.get('accept')).toBe('*/*');
  });

  it('drops invalid header values (control characters, bytes past ASCII, empty)', () => {
    for (const bad of ['a\u0000b', 'a\u007fb', 'caf\u00e9', 'x\u0001', '']) expect(isValidHeaderValue(bad)).toBe(false);
    for (const good of ['Bearer abc', 'a=1; b=2', 'text/html, */*;q=0.8', 'x\ty']) expect(isValidHeaderValue(good)).toBe(true);
    // Headers refuses CR/LF/NUL itself; a value from a raw socket can still carry obs-text.
    const incoming = new Headers();
    incoming.set('user-agent', String.fromCharCode(0xe9) + 'vil');
    incoming.set('accept-language', 'en');
    expect(asObject(forwardedRequestHeaders(incoming))).toEqual({ 'accept-language': 'en', 'x-gatehouse-sdk': SDK_MARKER, 'user-agent': SDK_MARKER });
  });

  it('sends the client IP as X-Forwarded-For; an incoming chain is kept only when trusted', () => {
    const incoming = new Headers({ 'x-forwarded-for': '6.6.6.6' });
    expect(forwardedRequestHeaders(incoming, { clientIp: '::ffff:203.0.113.7' }).get('x-forwarded-for')).toBe('203.0.113.7');
    expect(forwardedRequestHeaders(incoming, { clientIp: '10.0.0.2', trustForwardedFor: true }).get('x-forwarded-for')).toBe('6.6.6.6, 10.0.0.2');
    expect(forwardedRequestHeaders(new Headers({ 'x-forwarded-for': 'evil, 1.2.3.4' }), { clientIp: '10.0.0.2', trustForwardedFor: true }).get('x-forwarded-for')).toBe('1.2.3.4, 10.0.0.2');
    expect(forwardedRequestHeaders(incoming).has('x-forwarded-for')).toBe(false);
  });

  it('marks the SDK and framework when the browser did not, keeping what it sent', () => {
    expect(SDK_MARKER).toBe(`gatehouse-node@${JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version}`);
    expect(SDK_VERSION).toBe(SDK_MARKER.split('@')[1]);
    const own = forwardedRequestHeaders(new Headers(), { framework: 'express', applicationId: 'app-9' });
    expect(asObject(own)).toEqual({ 'x-gatehouse-sdk': SDK_MARKER, 'user-agent': SDK_MARKER, 'x-gatehouse-framework': 'express', 'x-gatehouse-application-id': 'app-9' });
    const theirs = forwardedRequestHeaders(new Headers({ 'x-gatehouse-framework': 'react', 'x-gatehouse-application-id': 'app-1' }), { framework: 'express', applicationId: 'app-9' });
    expect(theirs.get('x-gatehouse-framework')).toBe('react');
    expect(theirs.get('x-gatehouse-application-id')).toBe('app-1');
  });
});

describe('proxy response headers', () => {
  it('passes every set-cookie and the trace id back, but no hop-by-hop or encoding headers', () => {
    const upstream = new Headers({ 'content-type': 'application/json', 'x-trace-id': 't-1', connection: 'keep-alive', 'keep-alive': 'timeout=5', 'transfer-encoding': 'chunked', 'content-encoding': 'gzip', 'content-length': '10' });
    upstream.append('set-cookie', 'a=1; Path=/');
    upstream.append('set-cookie', 'b=2; Path=/');
    const out = returnedResponseHeaders(upstream);
    expect(out.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect([...out.keys()].sort()).toEqual(['content-type', 'set-cookie', 'set-cookie', 'x-trace-id']);
  });

  it('passes no CORS grant back: the proxy answers the host\'s own pages only', () => {
    const upstream = new Headers({ 'content-type': 'application/json', 'access-control-allow-origin': 'https://evil.example', 'access-control-allow-credentials': 'true', vary: 'Origin' });
    expect([...returnedResponseHeaders(upstream).keys()].sort()).toEqual(['content-type', 'vary']);
  });
});
