import type { Result, Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';
import { describe, expect, it } from 'vitest';
import { KeptMatchRouter, LONGEST_PATH_KEPT } from './router';

const ROUTES: Array<[string, string, string]> = [
  ['ALL', '*', 'every request'],
  ['POST', '/users/v1/mfa/sms/enroll', 'enroll'],
  ['POST', '/users/v1/mfa/sms/:deviceId/disable', 'disable'],
  ['GET', '/users/sessions/v1/me', 'sessions'],
  ['DELETE', '/users/sessions/v1/me/all', 'all'],
  ['DELETE', '/users/sessions/v1/me/:sessionId', 'one'],
  ['GET', '/cdn/*', 'cdn'],
];

/** What a router answers, as handler names with their parameters, comparable across routers. */
function answer(router: Router<string>, method: string, path: string) {
  const [handlers, stash] = router.match(method, path) as Result<string> & [Array<[string, Record<string, unknown>]>, string[]?];
  return handlers.map(([handler, params]) => ({ handler, params: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, stash ? stash[v as number] : v])) }));
}

function counting(inner: Router<string>) {
  const calls: string[] = [];
  return {
    calls,
    router: { name: 'counting', add: (m: string, p: string, h: string) => inner.add(m, p, h), match: (m: string, p: string) => (calls.push(`${m} ${p}`), inner.match(m, p)) } satisfies Router<string>,
  };
}

describe('KeptMatchRouter', () => {
  it("answers what Hono's router answers, a parameter beside a static segment included, and the same answer again from what it kept", () => {
    const hono = new SmartRouter<string>({ routers: [new RegExpRouter<string>(), new TrieRouter<string>()] });
    const { router: inner, calls } = counting(new SmartRouter<string>({ routers: [new RegExpRouter<string>(), new TrieRouter<string>()] }));
    const kept = new KeptMatchRouter<string>(inner);
    for (const [method, path, handler] of ROUTES) {
      hono.add(method, path, handler);
      kept.add(method, path, handler);
    }
    const asks: Array<[string, string]> = [
      ['POST', '/users/v1/mfa/sms/enroll'],
      ['POST', '/users/v1/mfa/sms/d-1/disable'],
      ['POST', '/users/v1/mfa/sms/d-2/disable'],
      ['DELETE', '/users/sessions/v1/me/all'],
      ['DELETE', '/users/sessions/v1/me/s-9'],
      ['GET', '/cdn/loader/1.2.3/loader.js'],
      ['GET', '/nowhere'],
    ];
    for (const [method, path] of asks) expect(answer(kept, method, path)).toEqual(answer(hono, method, path));
    expect(answer(kept, 'POST', '/users/v1/mfa/sms/d-2/disable')).toEqual([
      { handler: 'every request', params: {} },
      { handler: 'disable', params: { deviceId: 'd-2' } },
    ]);
    expect(kept.match('POST', '/users/v1/mfa/sms/d-1/disable')).toBe(kept.match('POST', '/users/v1/mfa/sms/d-1/disable'));
    // Each (method, path) asked of the inner router once.
    expect(calls).toEqual(asks.map(([m, p]) => `${m} ${p}`));
  });

  it('forgets what it kept when a route is added', () => {
    const kept = new KeptMatchRouter<string>(new TrieRouter<string>());
    kept.add('GET', '/a/:id', 'any');
    expect(answer(kept, 'GET', '/a/me').map((a) => a.handler)).toEqual(['any']);
    kept.add('GET', '/a/me', 'me');
    expect(answer(kept, 'GET', '/a/me').map((a) => a.handler)).toEqual(['any', 'me']);
  });

  it('keeps at most its size of answers, dropping the oldest, so made-up paths cannot grow it', () => {
    const { router: inner, calls } = counting(new TrieRouter<string>());
    const kept = new KeptMatchRouter<string>(inner, 3);
    kept.add('GET', '/x/:id', 'x');
    for (const id of ['1', '2', '3', '4']) kept.match('GET', `/x/${id}`);
    calls.length = 0;
    kept.match('GET', '/x/4'); // kept
    kept.match('GET', '/x/2'); // kept
    kept.match('GET', '/x/1'); // dropped when /x/4 came: asked again
    expect(calls).toEqual(['GET /x/1']);
  });

  it('never keeps the answer for a path longer than any of the API, so padding cannot fill it', () => {
    const { router: inner, calls } = counting(new TrieRouter<string>());
    const kept = new KeptMatchRouter<string>(inner);
    kept.add('GET', '/x/:id', 'x');
    const long = `/x/${'a'.repeat(LONGEST_PATH_KEPT)}`;
    expect(answer(kept, 'GET', long)).toEqual([{ handler: 'x', params: { id: 'a'.repeat(LONGEST_PATH_KEPT) } }]);
    expect(answer(kept, 'GET', long)).toHaveLength(1);
    kept.match('GET', '/x/short');
    kept.match('GET', '/x/short');
    expect(calls).toEqual([`GET ${long}`, `GET ${long}`, 'GET /x/short']);
  });
});
