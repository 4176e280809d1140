/**
 * SCIM conformance by an independent suite: scim2-tester (PyPI, pinned in
 * scripts/test-bench/python-peers.txt, installed by scripts/test-bench/peers.sh) runs every check
 * it has (discovery, then create, read, replace, patch and delete of Users and Groups) against a
 * provisioning connection of a real server listening on a port, and must report no check ERROR or
 * CRITICAL (a MUST of RFC 7643/7644 broken): every check of what ServiceProviderConfig declares passes.
 * Skipped when the peers are not installed, unless REQUIRE_PEERS=1 (the test command sets it).
 */
import { serve } from '@hono/node-server';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { tenantWithAdmin } from '../../test/admin-helpers';
import { describeDialects } from '../../test/harness';
import { peersRequired } from '../../test/localstripe';
import { scimConnection } from '../../test/scim-helpers';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const PYTHON = path.join(repoRoot, '.peers/python/bin/python');
const RUNNER = path.join(repoRoot, 'scripts/test-bench/scim2-conformance.py');
const installed = existsSync(PYTHON) && existsSync(path.join(repoRoot, '.peers/python/bin')) && existsSync(RUNNER);

interface CheckResult {
  title: string | null;
  status: 'SUCCESS' | 'COMPLIANT' | 'ACCEPTABLE' | 'DEVIATION' | 'ERROR' | 'CRITICAL' | 'SKIPPED';
  reason: string | null;
  tags: string[];
  resourceType: string | null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function runScim2Tester(baseUrl: string, token: string): Promise<CheckResult[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [RUNNER, baseUrl, token], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`scim2-tester exited ${code}: ${err.slice(-3000)}`));
      try {
        resolve(JSON.parse(out) as CheckResult[]);
      } catch {
        reject(new Error(`scim2-tester printed no JSON: ${out.slice(0, 2000)} ${err.slice(-2000)}`));
      }
    });
  });
}

describeDialects('SCIM conformance (scim2-tester)', (harness) => {
  it.skipIf(!installed && !peersRequired())('passes every check scim2-tester runs on what ServiceProviderConfig declares: no ERROR or CRITICAL', { timeout: 180_000 }, async () => {
    if (!installed) throw new Error(`scim2-tester is not installed in .peers/python: run "bash scripts/test-bench/peers.sh"`);
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    const server = await harness.start({ GATEHOUSE_PUBLIC_URL: publicUrl, RATE_LIMIT_SIGNUP_PER_IP: '1000/60', RATE_LIMIT_SCIM_PER_CONNECTION: '100000/60' });
    const listener = serve({ fetch: server.fetch, port, hostname: '127.0.0.1' });
    try {
      const admin = await tenantWithAdmin(server);
      const { token } = await scimConnection(server, admin, 'other');
      const results = await runScim2Tester(`${publicUrl}/scim/v2`, token);
      const counts = results.reduce<Record<string, number>>((acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }), {});
      console.log(`scim2-tester [${harness.dialect}]: ${results.length} checks: ${JSON.stringify(counts)}`);
      const failed = results.filter((r) => r.status === 'ERROR' || r.status === 'CRITICAL');
      expect(failed, JSON.stringify(failed, null, 1)).toEqual([]);
      // The run reached the resources, not only discovery.
      expect(results.filter((r) => r.resourceType === 'User' && r.status === 'SUCCESS').length).toBeGreaterThan(0);
      expect(results.filter((r) => r.resourceType === 'Group' && r.status === 'SUCCESS').length).toBeGreaterThan(0);
      // The checks these fixes were for ran and passed (a checker that stopped running would not fail above).
      for (const check of ['search_with_attributes', 'check_add_attribute', 'check_replace_attribute', 'check_remove_attribute']) {
        expect(results.filter((r) => r.title === check && r.status === 'SUCCESS').length, check).toBeGreaterThan(0);
      }
    } finally {
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    }
  });
});
