/**
 * Test helpers of @gatehouse/node: a real Gatehouse server (the server's test harness) reached
 * through its HTTP handler with requests counted, and host apps listening on real ports.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GatehouseServer } from '../../../../server/src/app.js';
import type { FetchLike } from '../verify/key-set.js';

/** A fetch that sends every request to the Gatehouse server's HTTP handler and counts them by path. */
export function countingFetch(server: GatehouseServer): FetchLike & { calls: string[]; count(path: string): number } {
  const calls: string[] = [];
  const f = (async (input: string, init?: RequestInit) => {
    calls.push(new URL(input).pathname);
    return server.fetch(new Request(input, init));
  }) as FetchLike & { calls: string[]; count(path: string): number };
  f.calls = calls;
  f.count = (path) => calls.filter((c) => c === path).length;
  return f;
}

export const JWKS_PATH = '/.well-known/jwks.json';

/** Options of the SDK for this server, with the counting fetch. */
export function sdkOptions(server: GatehouseServer, fetch: FetchLike, now?: () => number) {
  return { baseUrl: server.config.publicUrl, clientId: server.config.clientId, fetch, ...(now ? { now } : {}) };
}

/** Listens on a free port of 127.0.0.1; returns its URL and a close function. */
export async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}

/** A GET to a host app with an optional bearer token: status and JSON body. */
export async function get(url: string, token?: string): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}
