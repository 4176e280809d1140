import type { Result, Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';

/** How many (method, path) matches the router keeps: the API's static paths and the busiest of the rest. */
export const MATCHES_KEPT = 2048;
/** Longer paths are matched each time, never kept: the API's own are far shorter, so kept answers hold at most 2,048 short keys. */
export const LONGEST_PATH_KEPT = 256;

/**
 * Hono's own router (RegExpRouter, else TrieRouter) with its answers kept per method and path
 * (issue 17). Hono's RegExpRouter refuses a parameter beside a static segment in the same place
 * (`/mfa/sms/enroll` beside `/mfa/sms/:deviceId/disable`, paths the API keeps), so every request
 * walked the TrieRouter: 2.4% of a token grant's main thread. A match depends on nothing but the
 * method, the path and the routes, and Hono only reads it, so the same answer serves the same path
 * again. Adding a route forgets every kept answer; past MATCHES_KEPT the oldest kept is dropped,
 * and a path longer than LONGEST_PATH_KEPT is never kept, so paths made up by a client (ids,
 * probes, padding) cannot grow it.
 */
export class KeptMatchRouter<T> implements Router<T> {
  readonly name = 'KeptMatchRouter';
  readonly #inner: Router<T>;
  readonly #kept = new Map<string, Result<T>>();
  readonly #size: number;

  constructor(inner: Router<T> = new SmartRouter<T>({ routers: [new RegExpRouter<T>(), new TrieRouter<T>()] }), size = MATCHES_KEPT) {
    this.#inner = inner;
    this.#size = size;
  }

  add(method: string, path: string, handler: T): void {
    this.#kept.clear();
    this.#inner.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    const key = `${method} ${path}`;
    const kept = this.#kept.get(key);
    if (kept) return kept;
    const result = this.#inner.match(method, path);
    if (path.length > LONGEST_PATH_KEPT) return result;
    if (this.#kept.size >= this.#size) this.#kept.delete(this.#kept.keys().next().value!);
    this.#kept.set(key, result);
    return result;
  }
}
