/**
 * Outbound HTTP to URLs tenants give us (webhook endpoints; usable by any part that calls a
 * tenant's URL), guarded against SSRF (issue 16):
 *
 * - https only, on port 443 or 8443, and only public addresses (no loopback, private, shared/CGNAT, link-local, unique
 *   local, multicast, unspecified, documentation or reserved ranges, nor IPv6 forms carrying such an
 *   IPv4: `isPrivateAddress`), unless the policy allows them (dev mode);
 * - the address is checked in the socket's own `lookup`, i.e. on the very address the connection
 *   is made to, so a DNS answer that changes between a check and the connect (rebinding) is refused
 *   too; an IP literal, which never goes through `lookup`, is checked before the request;
 * - no redirects are followed (a 3xx is answered as it is; callers treat it as a failure);
 * - one deadline (15 s by default) for connect, answer and body, and the body is read up to 64 KB.
 *
 * Each request gets its own connection (no pooled socket to an address checked earlier).
 *
 * An OutboundError's reason and message are for the server log: they tell a private address from a
 * name that does not resolve and name socket codes. Callers answering a tenant must not pass them on
 * (that would make the guard an oracle for internal names and open ports); see webhook-delivery.ts.
 */
import { lookup as systemLookup } from 'node:dns';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { WEBHOOK_RESPONSE_BODY_LIMIT, WEBHOOK_TIMEOUT_MS } from '@gatehouse/shared/wire';
import { isPrivateAddress } from '../sso/urls';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}
/** Resolves a host name to its addresses (the system resolver by default; tests inject their own). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface OutboundPolicy {
  /** Plain http and private/loopback targets allowed: dev mode only. */
  allowPrivate: boolean;
  resolve?: Resolver;
}

export type OutboundFailure = 'invalid_url' | 'forbidden_address' | 'unresolvable' | 'timeout' | 'network';

/** Why an outbound call was refused or failed; `message` never carries a secret. */
export class OutboundError extends Error {
  override name = 'OutboundError';
  readonly kind = 'OutboundError';
  constructor(
    readonly reason: OutboundFailure,
    message: string,
  ) {
    super(message);
  }
}

export const isOutboundError = (e: unknown): e is OutboundError => typeof e === 'object' && e !== null && (e as { kind?: unknown }).kind === 'OutboundError';

export interface OutboundResponse {
  status: number;
  headers: Record<string, string>;
  /** The body's first `maxBodyBytes` bytes as UTF-8. */
  body: string;
  truncated: boolean;
  durationMs: number;
}

export interface OutboundRequest {
  method?: 'POST' | 'GET' | 'PUT';
  headers?: Record<string, string>;
  body?: string;
  timeoutMs?: number;
  maxBodyBytes?: number;
}

export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => {
    systemLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 })))));
  });

const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/** The ports a target may use outside dev mode (https's own and its common alternative); '' is the scheme's default, 443. */
export const OUTBOUND_PORTS: readonly string[] = ['', '443', '8443'];

/** Said at save time of a name that does not resolve or resolves to a private address: one sentence for both, so saving is no probe of internal names. */
const NOT_PUBLIC_HOST = 'must point to a host that resolves to public addresses only';

/**
 * The static checks of a target URL (no DNS): an absolute http(s) URL without credentials, https
 * on port 443 or 8443 outside dev mode, and not an IP literal of a private range outside dev mode. Throws
 * OutboundError('invalid_url' | 'forbidden_address') with a sentence naming what is wrong.
 */
export function checkOutboundUrl(raw: string, policy: OutboundPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundError('invalid_url', 'must be an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new OutboundError('invalid_url', 'must be an https URL');
  if (url.protocol === 'http:' && !policy.allowPrivate) throw new OutboundError('invalid_url', 'must be an https URL (plain http is allowed in dev mode only)');
  if (url.username || url.password) throw new OutboundError('invalid_url', 'must not carry credentials');
  if (url.hash) throw new OutboundError('invalid_url', 'must not carry a fragment');
  const host = bareHost(url);
  if (!host) throw new OutboundError('invalid_url', 'must name a host');
  if (!policy.allowPrivate && !OUTBOUND_PORTS.includes(url.port)) throw new OutboundError('invalid_url', 'must use port 443 or 8443');
  if (!policy.allowPrivate && (host === 'localhost' || host.endsWith('.localhost') || (isIP(host) && isPrivateAddress(host)))) {
    throw new OutboundError('forbidden_address', 'must point to a public address');
  }
  return url;
}

/**
 * The static checks plus a resolution of the host: refused when it does not resolve, or when any
 * address is private outside dev mode. Used when an endpoint is saved; the connect checks again.
 */
export async function checkOutboundTarget(raw: string, policy: OutboundPolicy): Promise<URL> {
  const url = checkOutboundUrl(raw, policy);
  const host = bareHost(url);
  if (isIP(host) || policy.allowPrivate) return url;
  let addresses: ResolvedAddress[];
  try {
    addresses = await (policy.resolve ?? systemResolver)(host);
  } catch {
    throw new OutboundError('unresolvable', NOT_PUBLIC_HOST);
  }
  if (addresses.length === 0) throw new OutboundError('unresolvable', NOT_PUBLIC_HOST);
  if (addresses.some((a) => isPrivateAddress(a.address))) throw new OutboundError('forbidden_address', NOT_PUBLIC_HOST);
  return url;
}

/** The socket's lookup: resolves, then refuses when any address is private (the address connected to is one of these). */
function guardedLookup(policy: OutboundPolicy): LookupFunction {
  const resolve = policy.resolve ?? systemResolver;
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
        if (wanted.length === 0) return callback(Object.assign(new OutboundError('unresolvable', `the host ${hostname} could not be resolved`), { code: 'ENOTFOUND' }), '', 4);
        if (!policy.allowPrivate && wanted.some((a) => isPrivateAddress(a.address))) {
          return callback(new OutboundError('forbidden_address', `the host ${hostname} resolved to a private address`), '', 4);
        }
        if (options.all) return (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, wanted);
        callback(null, wanted[0]!.address, wanted[0]!.family);
      },
      () => callback(Object.assign(new OutboundError('unresolvable', `the host ${hostname} could not be resolved`), { code: 'ENOTFOUND' }), '', 4),
    );
  };
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/**
 * Makes one request to a tenant-given URL under the guard (see the file comment). Resolves with the
 * answer whatever its status (3xx included, never followed); rejects with an OutboundError when the
 * URL or address is refused, the deadline passes, or the connection fails.
 */
export function guardedFetch(raw: string, init: OutboundRequest, policy: OutboundPolicy): Promise<OutboundResponse> {
  let url: URL;
  try {
    url = checkOutboundUrl(raw, policy);
  } catch (e) {
    return Promise.reject(e);
  }
  const timeoutMs = init.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const maxBodyBytes = init.maxBodyBytes ?? WEBHOOK_RESPONSE_BODY_LIMIT;
  const started = performance.now();
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const body = init.body === undefined ? undefined : Buffer.from(init.body, 'utf8');

  return new Promise<OutboundResponse>((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const req = send(url, {
      method: init.method ?? 'POST',
      headers: { ...init.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
      lookup: guardedLookup(policy),
      agent: false,
    });
    const timer = setTimeout(() => {
      finish(() => reject(new OutboundError('timeout', `no answer within ${Math.round(timeoutMs / 1000)} s`)));
      req.destroy();
    }, timeoutMs);
    req.on('error', (e) => finish(() => reject(isOutboundError(e) ? e : new OutboundError('network', `connection failed (${(e as NodeJS.ErrnoException).code ?? e.message})`))));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      const done = () =>
        finish(() => {
          resolve({ status: res.statusCode ?? 0, headers: flatHeaders(res.headers), body: Buffer.concat(chunks).toString('utf8'), truncated, durationMs: Math.round(performance.now() - started) });
          res.destroy();
        });
      res.on('data', (chunk: Buffer) => {
        if (truncated) return;
        const room = maxBodyBytes - size;
        if (chunk.length >= room) {
          chunks.push(chunk.subarray(0, room));
          size = maxBodyBytes;
          truncated = chunk.length > room;
          if (truncated) done();
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      res.on('end', done);
      res.on('error', (e) => finish(() => reject(new OutboundError('network', `the answer broke off (${e.message})`))));
      res.on('aborted', () => finish(() => reject(new OutboundError('network', 'the answer broke off'))));
    });
    req.end(body);
  });
}
