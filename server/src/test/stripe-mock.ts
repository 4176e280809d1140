/**
 * stripe-mock (Stripe's own mock, pinned in .peers/go; scripts/test-bench/peers.sh): it answers
 * fixtures and refuses any request whose shape is not in Stripe's current OpenAPI document. Tests
 * run our Stripe calls against it to prove their shapes are Stripe's, where localstripe (which
 * keeps state but speaks an older API) cannot. Plain Node, like localstripe.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const STRIPE_MOCK_BIN = path.join(repoRoot, '.peers/go/bin/stripe-mock');

export function stripeMockMissing(): string | null {
  return existsSync(STRIPE_MOCK_BIN) ? null : `stripe-mock is not installed at ${STRIPE_MOCK_BIN}; run \`bash scripts/test-bench/peers.sh\``;
}

export interface StripeMock {
  url: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export async function startStripeMock(timeoutMs = 20_000): Promise<StripeMock> {
  const missing = stripeMockMissing();
  if (missing) throw new Error(missing);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(STRIPE_MOCK_BIN, ['-http-addr', `127.0.0.1:${port}`], { stdio: 'ignore' });
  let exited = false;
  child.once('exit', () => void (exited = true));
  const deadline = Date.now() + timeoutMs;
  while (!exited && Date.now() < deadline) {
    try {
      const res = await fetch(`${url}/v1/customers?limit=1`, { headers: { authorization: 'Bearer sk_test_mock' }, signal: AbortSignal.timeout(1000) });
      if (res.status === 200) {
        return {
          url,
          stop: () =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              child.once('exit', () => resolve());
              child.kill('SIGTERM');
            }),
        };
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('stripe-mock did not start');
}
