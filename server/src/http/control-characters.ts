import { ErrorCodes } from '@gatehouse/shared/wire';
import type { Context } from 'hono';
import { AppError } from '../errors';
import { limitsItsOwnBody } from './body-limit';

/**
 * Refuses, once for every route, input holding characters that no field of the API means: a NUL
 * or another control character anywhere in the path or the query, and in JSON or form bodies any
 * control character but tab, line feed and carriage return (descriptions may span lines). Without
 * it each database would decide for itself: PostgreSQL fails on a NUL in text (a 500), SQLite
 * stores it, and a log line could be forged with one.
 */

/** C0 controls, DEL and C1 controls: nothing in a URL means them. */
const IN_URL = /[\u0000-\u001f\u007f-\u009f]/;
/** The same, except tab, line feed and carriage return, which text fields may hold. */
const IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/** Bodies nest little; a deeper one is refused rather than walked. */
const MAX_DEPTH = 64;

function refuse(field: string): never {
  throw new AppError(ErrorCodes.validation, 400, `${field}: must not contain control characters`);
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // malformed percent-encoding: the route's own validation answers it
  }
}

/** The first field (dotted path) of a parsed JSON value whose key or string holds a control character. */
export function controlCharacterField(value: unknown): string | null {
  const pending: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: '', depth: 0 }];
  while (pending.length > 0) {
    const { value: current, path, depth } = pending.pop()!;
    if (typeof current === 'string') {
      if (IN_TEXT.test(current)) return path || 'body';
    } else if (current !== null && typeof current === 'object') {
      if (depth >= MAX_DEPTH) return path || 'body';
      const entries = Array.isArray(current) ? current.map((item, i) => [String(i), item] as const) : Object.entries(current);
      for (const [key, item] of entries) {
        const itemPath = path ? `${path}.${key}` : key;
        if (IN_TEXT.test(key)) return itemPath;
        pending.push({ value: item, path: itemPath, depth: depth + 1 });
      }
    }
  }
  return null;
}

/** The first field of a form whose name or value holds a control character, named as parseBody() would nest it. */
export function formControlCharacterField(form: URLSearchParams): string | null {
  const seen = new Map<string, number>();
  for (const [key, value] of form) {
    if (IN_TEXT.test(key)) return key;
    // parseBody() gathers `name[]` fields into an array, so their values are named `name[].0`, `name[].1`, ...
    const index = key.endsWith('[]') ? (seen.get(key) ?? 0) : -1;
    if (index >= 0) seen.set(key, index + 1);
    if (IN_TEXT.test(value)) return index >= 0 ? `${key}.${index}` : key;
  }
  return null;
}

/**
 * Refuses (400) a request whose path, query or body holds a control character (http/edge.ts runs it
 * on every request). A promise only when a body is read for it.
 */
export function checkControlCharacters(c: Context): Promise<void> | undefined {
  const raw = c.req.url;
  // Without a percent sign nothing decodes to a control character, so a URL with neither (almost
  // every request) needs no parse: its path and query are checked as they are.
  if (raw.includes('%') || IN_URL.test(raw)) {
    const url = new URL(raw);
    if (IN_URL.test(decoded(url.pathname))) refuse('path');
    for (const [key, value] of url.searchParams) {
      if (IN_URL.test(key) || IN_URL.test(value)) refuse(IN_URL.test(key) ? 'query' : key);
    }
  }
  const method = c.req.method;
  // A route that limits its own body (after its guard) checks every string of it by its schema.
  if (method === 'GET' || method === 'HEAD' || limitsItsOwnBody(method, c.req.path)) return undefined;
  const type = c.req.header('content-type') ?? '';
  // Parsed once here; the route's validator reads the same cached result.
  if (/\bjson\b/i.test(type)) {
    return c.req.json().then(
      (body: unknown) => {
        const field = controlCharacterField(body);
        if (field) refuse(field);
      },
      () => undefined,
    );
  }
  if (/^application\/x-www-form-urlencoded\b/i.test(type)) {
    // Read as text, which the route reads again from the cache: parseBody() would build a web
    // Response to parse the form, and the route's text() another one (13% of a token grant).
    return c.req.text().then(
      (form) => {
        const field = formControlCharacterField(new URLSearchParams(form));
        if (field) refuse(field);
      },
      () => undefined,
    );
  }
  return undefined;
}
