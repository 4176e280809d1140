/**
 * A real webhook receiver on loopback (node:http) for tests: it records every request (headers and
 * raw body, as a receiver verifying signatures needs them) and answers as the test scripts it, one
 * behaviour per request in order (the last one repeats), or through a function.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

/** How the receiver answers one request: a status (with headers and body), after an optional delay; `hang` never answers. */
export type ReceiverBehaviour = { status: number; headers?: Record<string, string>; body?: string; delayMs?: number } | 'hang';

export interface WebhookReceiver {
  url: string;
  port: number;
  readonly received: ReceivedWebhook[];
  /** Answers the next requests with these behaviours in order; the last one repeats. */
  script(...behaviours: ReceiverBehaviour[]): void;
  /** Answers through a function of the request (replaces any script). */
  respond(fn: (req: ReceivedWebhook, index: number) => ReceiverBehaviour): void;
  /** Resolves once `count` requests were received, or rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  stop(): Promise<void>;
}

const DEFAULT: ReceiverBehaviour = { status: 200, body: 'ok' };
const flat = (h: IncomingHttpHeaders) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let fn: ((req: ReceivedWebhook, index: number) => ReceiverBehaviour) | null = null;
  const waiters: { count: number; resolve: () => void }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry: ReceivedWebhook = { method: req.method ?? '', path: req.url ?? '', headers: flat(req.headers), body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      const index = received.push(entry) - 1;
      for (const w of waiters.splice(0)) {
        if (received.length >= w.count) w.resolve();
        else waiters.push(w);
      }
      const behaviour = fn ? fn(entry, index) : DEFAULT;
      if (behaviour === 'hang') return;
      const answer = () => {
        res.writeHead(behaviour.status, { 'content-type': 'text/plain', ...behaviour.headers });
        res.end(behaviour.body ?? '');
      };
      if (behaviour.delayMs) setTimeout(answer, behaviour.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  let scriptStart = 0;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    script(...behaviours) {
      scriptStart = received.length;
      const list = behaviours.length ? behaviours : [{ status: 200 }];
      fn = (_req, index) => list[Math.min(index - scriptStart, list.length - 1)]!;
    },
    respond(f) {
      fn = f;
    },
    waitFor(count, timeoutMs = 10_000) {
      if (received.length >= count) return Promise.resolve(received.slice());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the receiver got ${received.length} of ${count} requests within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve(received.slice())) });
      });
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
