/**
 * A real localstripe (the pinned Stripe emulator in .peers/python, scripts/test-bench/peers.sh) for
 * tests: spawned on a free port, waited for until it answers, flushed between tests, stopped at the
 * end. Plain Node (no vitest globals), so the e2e suite reuses it from e2e/support.
 *
 * When the peer is missing, `localstripeMissing()` says why: with REQUIRE_PEERS=1 (CI,
 * scripts/test-all.sh) `startLocalstripe` fails with that sentence; otherwise test files skip.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** The localstripe executable the test bench installs. */
export const LOCALSTRIPE_BIN = path.join(repoRoot, '.peers/python/bin/localstripe');
/** Any key of this shape works with localstripe. */
export const LOCALSTRIPE_SECRET_KEY = 'sk_test_gatehouse_localstripe';
export const LOCALSTRIPE_PUBLISHABLE_KEY = 'pk_test_gatehouse_localstripe';

/** Why localstripe cannot run here, or null when it can. */
export function localstripeMissing(): string | null {
  return existsSync(LOCALSTRIPE_BIN) ? null : `localstripe is not installed at ${LOCALSTRIPE_BIN}; run \`bash scripts/test-bench/peers.sh\``;
}

/** True when the peers are required (REQUIRE_PEERS=1): a missing localstripe then fails instead of skipping. */
export const peersRequired = () => process.env.REQUIRE_PEERS === '1';

export interface Localstripe {
  /** e.g. http://127.0.0.1:40123: STRIPE_API_URL for the server under test. */
  url: string;
  port: number;
  /** Where its Stripe.js stand-in is served. */
  stripeJsUrl: string;
  /** Forgets every object (DELETE /_config/data); registered webhooks stay. */
  flush(): Promise<void>;
  /** Makes localstripe POST signed events (`events`, or all) to `url` with `secret` (POST /_config/webhooks/<id>). */
  registerWebhook(id: string, url: string, secret: string, events?: string[]): Promise<void>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/v1/plans?limit=1`, { headers: { authorization: `Bearer ${LOCALSTRIPE_SECRET_KEY}` }, signal: AbortSignal.timeout(1000) });
    return res.status === 200;
  } catch {
    return false;
  }
}

/** Starts localstripe on a free port (from scratch: it never loads the state file other runs write). */
export async function startLocalstripe(options: { timeoutMs?: number } = {}): Promise<Localstripe> {
  const missing = localstripeMissing();
  if (missing) throw new Error(missing);
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let lastError = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const child: ChildProcess = spawn(LOCALSTRIPE_BIN, ['--port', String(port), '--from-scratch'], { stdio: ['ignore', 'ignore', 'pipe'], detached: false });
    let exited = false;
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => void (stderr = (stderr + d.toString()).slice(-2000)));
    child.once('exit', () => void (exited = true));
    while (!exited && Date.now() < deadline) {
      if (await answers(url)) return handle(child, url, port);
      await new Promise((r) => setTimeout(r, 150));
    }
    lastError = stderr.trim().split('\n').slice(-3).join(' ');
    if (!exited) child.kill('SIGTERM');
    if (Date.now() >= deadline) break;
  }
  throw new Error(`localstripe did not start: ${lastError || 'no answer before the deadline'}`);
}

function handle(child: ChildProcess, url: string, port: number): Localstripe {
  return {
    url,
    port,
    stripeJsUrl: `${url}/js.stripe.com/v3/`,
    async flush() {
      const res = await fetch(`${url}/_config/data`, { method: 'DELETE' });
      if (!res.ok) throw new Error(`localstripe flush answered ${res.status}`);
    },
    async registerWebhook(id, target, secret, events) {
      const res = await fetch(`${url}/_config/webhooks/${encodeURIComponent(id)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: target, secret, ...(events ? { events } : {}) }),
      });
      if (!res.ok) throw new Error(`localstripe webhook registration answered ${res.status}`);
    },
    stop() {
      return new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      });
    },
  };
}
