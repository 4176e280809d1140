/**
 * The sealed session cookie for server-rendered hosts (seed 000 sections 5, 8 and 9): the session
 * is sealed with iron (./iron.ts) into a cookie named the session prefix plus the client id without
 * dashes, for 15 days (the cookie's Max-Age 60 s less, so the browser drops it before the seal
 * expires), SameSite=None by default.
 *
 * Beyond the 4,096-character cap a session is split instead of refused: the cookies `<name>.0`,
 * `<name>.1`, … hold consecutive pieces of the sealed value, and no cookie `<name>` is set. Reading
 * takes `<name>` if present, else joins `<name>.0`, `<name>.1`, … up to the first one missing. Each
 * write clears every cookie of the session the request still carries and the new value does not
 * use (the single cookie, or stale chunks beyond the new count), so a shrunken session never
 * rejoins with an old tail; a joined value with a stale tail would fail its signature anyway.
 */
import { GatehouseSessionError } from './errors.js';
import { assertPassword, seal, unseal, type IronPassword } from './iron.js';

/** Prefix of the session cookie's name; the client id without dashes follows. */
export const SESSION_COOKIE_PREFIX = 'gh_session_';
/** Seed 000 section 9: session cookie default lifetime, 15 days. */
export const SESSION_LIFETIME_SEC = 1_296_000;
/** The cookie's Max-Age is this much shorter than the seal's lifetime. */
export const SESSION_MAX_AGE_MARGIN_SEC = 60;
/** Seed 000 section 9: size cap of one cookie (its whole Set-Cookie value). */
export const COOKIE_SIZE_CAP = 4096;
/** A request never makes the reader join more pieces than this (about 200 KB). */
export const MAX_SESSION_CHUNKS = 50;

export type SameSite = 'none' | 'lax' | 'strict';

export interface SessionCookieOptions {
  /** The application's client id; dashes are removed for the cookie name. */
  clientId: string;
  /** At least 32 characters; `{ id: secret }` for rotation (see IronPassword). */
  password: IronPassword;
  /** Overrides the whole cookie name (default: `gh_session_` + client id without dashes). */
  cookieName?: string;
  /** Lifetime of the seal in seconds; 15 days by default. */
  lifetimeSec?: number;
  /** SameSite attribute: `none` (default), `lax` or `strict`. */
  sameSite?: SameSite;
  /** Secure attribute; true by default (browsers refuse SameSite=None without it). */
  secure?: boolean;
  domain?: string;
  path?: string;
  /** Split a session over the cap into numbered cookies (default true); false refuses it instead. */
  chunking?: boolean;
  /** Clock, for tests. */
  now?: () => number;
}

const SAME_SITE: Record<SameSite, string> = { none: 'None', lax: 'Lax', strict: 'Strict' };
const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const DOMAIN = /^\.?[A-Za-z0-9.-]+$/;
const PATH = /^\/[\x21-\x3a\x3c-\x7e]*$/;

/** The session cookie's name: the session prefix plus the client id with its dashes removed. */
export function sessionCookieName(clientId: string, prefix = SESSION_COOKIE_PREFIX): string {
  return prefix + clientId.replace(/-/g, '');
}

interface Resolved {
  name: string;
  password: IronPassword;
  lifetimeSec: number;
  attributes: string;
  chunking: boolean;
  now: () => number;
}

/** Checks the options once (misconfiguration fails here, with a sentence naming the option). */
function resolve(options: SessionCookieOptions): Resolved {
  if (!options || typeof options.clientId !== 'string' || !options.clientId) throw new TypeError('Session cookie: clientId is required');
  assertPassword(options.password);
  const name = options.cookieName ?? sessionCookieName(options.clientId);
  if (!COOKIE_NAME.test(name)) throw new TypeError(`Session cookie: cookieName "${name}" is not a valid cookie name`);
  const sameSite = options.sameSite ?? 'none';
  if (!(sameSite in SAME_SITE)) throw new TypeError('Session cookie: sameSite must be none, lax or strict');
  const lifetimeSec = options.lifetimeSec ?? SESSION_LIFETIME_SEC;
  if (!Number.isInteger(lifetimeSec) || lifetimeSec <= SESSION_MAX_AGE_MARGIN_SEC) throw new TypeError('Session cookie: lifetimeSec must be a whole number of seconds over 60');
  const path = options.path ?? '/';
  if (!PATH.test(path)) throw new TypeError('Session cookie: path must start with / and hold no ; or control characters');
  if (options.domain !== undefined && !DOMAIN.test(options.domain)) throw new TypeError('Session cookie: domain is not a host name');
  const secure = options.secure ?? true;
  const attributes = `; Path=${path}${options.domain ? `; Domain=${options.domain}` : ''}; HttpOnly${secure ? '; Secure' : ''}; SameSite=${SAME_SITE[sameSite]}`;
  return { name, password: options.password, lifetimeSec, attributes, chunking: options.chunking ?? true, now: options.now ?? Date.now };
}

/** Cookies of a Cookie request header, by name (the first of duplicates wins, as browsers send the most specific first). */
export function parseCookieHeader(header: string | null | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  if (!header) return cookies;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    const name = pair.slice(0, eq).trim();
    let value = pair.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    if (name && !cookies.has(name)) cookies.set(name, value);
  }
  return cookies;
}

/** The names of this session's cookies in a request: the single cookie and any numbered piece. */
function sessionCookiesIn(cookies: Map<string, string>, name: string): string[] {
  const chunk = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.\\d+$`);
  return [...cookies.keys()].filter((k) => k === name || chunk.test(k));
}

function expired(name: string, attributes: string): string {
  return `${name}=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT${attributes}`;
}

/** The sealed value joined from the request's cookies, or null when it carries none. */
export function sealedSessionFrom(cookieHeader: string | null | undefined, name: string): string | null {
  const cookies = parseCookieHeader(cookieHeader);
  const single = cookies.get(name);
  if (single) return single;
  const pieces: string[] = [];
  for (let i = 0; i < MAX_SESSION_CHUNKS; i++) {
    const piece = cookies.get(`${name}.${i}`);
    if (!piece) break;
    pieces.push(piece);
  }
  return pieces.length ? pieces.join('') : null;
}

/**
 * Set-Cookie values that store `session`: one cookie, or numbered pieces when over the cap, and
 * expired cookies for every other cookie of this session in `requestCookieHeader`.
 */
export async function createSessionCookies(session: unknown, options: SessionCookieOptions, requestCookieHeader?: string | null): Promise<string[]> {
  const o = resolve(options);
  const sealed = await seal(session, o.password, { ttlMs: o.lifetimeSec * 1000, now: o.now });
  return splitSealedSession(sealed, options, requestCookieHeader);
}

/**
 * Set-Cookie values for an already sealed value (sealed by this package or by @hapi/iron with the
 * same password and lifetime).
 */
export function splitSealedSession(sealed: string, options: SessionCookieOptions, requestCookieHeader?: string | null): string[] {
  const o = resolve(options);
  const attributes = `; Max-Age=${o.lifetimeSec - SESSION_MAX_AGE_MARGIN_SEC}${o.attributes}`;
  const whole = `${o.name}=${sealed}${attributes}`;
  let written: string[];
  if (whole.length <= COOKIE_SIZE_CAP) {
    written = [whole];
  } else {
    if (!o.chunking) throw new GatehouseSessionError('cookieTooLong', `${whole.length} characters`);
    // Room for the value in each piece: the cap less its name (with the widest index) and attributes.
    const room = COOKIE_SIZE_CAP - `${o.name}.${MAX_SESSION_CHUNKS}=`.length - attributes.length;
    const count = Math.ceil(sealed.length / room);
    if (count > MAX_SESSION_CHUNKS) throw new GatehouseSessionError('cookieTooLong', `${sealed.length} characters would take more than ${MAX_SESSION_CHUNKS} cookies`);
    written = Array.from({ length: count }, (_, i) => `${o.name}.${i}=${sealed.slice(i * room, (i + 1) * room)}${attributes}`);
  }
  const names = new Set(written.map((c) => c.slice(0, c.indexOf('='))));
  const stale = sessionCookiesIn(parseCookieHeader(requestCookieHeader), o.name).filter((n) => !names.has(n));
  return [...written, ...stale.map((n) => expired(n, o.attributes))];
}

/**
 * The session the request's cookies hold, or null when there is none or it is not valid (tampered,
 * expired, sealed with an unknown password): a bad session is a signed-out request.
 */
export async function readSession<T = unknown>(cookieHeader: string | null | undefined, options: SessionCookieOptions): Promise<T | null> {
  const o = resolve(options);
  const sealed = sealedSessionFrom(cookieHeader, o.name);
  if (!sealed) return null;
  try {
    return await unseal<T>(sealed, o.password, { now: o.now });
  } catch {
    return null;
  }
}

/** Set-Cookie values that sign the session out: every cookie of this session the request carries. */
export function clearSessionCookies(cookieHeader: string | null | undefined, options: SessionCookieOptions): string[] {
  const o = resolve(options);
  const present = sessionCookiesIn(parseCookieHeader(cookieHeader), o.name);
  return (present.length ? present : [o.name]).map((n) => expired(n, o.attributes));
}
