/**
 * Every operation of /openapi.json fuzzed by schemathesis, a third-party property-based API tester
 * (pinned in scripts/test-bench/python-peers.txt), against the built server: once without
 * credentials and once as a tenant admin. It checks that no answer is a 5xx, and that every
 * status code, content type and body is the one the document declares.
 *
 * The server runs on PostgreSQL when DATABASE_URL is set (in a schema of its own), else on SQLite.
 * FUZZ_EXAMPLES (default 5) bounds the cases per operation and phase; FUZZ_SEED fixes the
 * generator's seed (default: a fixed seed, so CI is repeatable; `random` for a new one).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, startGatehouse, type RunningServer } from '../support/server';
import { linkIn, waitForMail } from '../support/mailbox';

const SCHEMATHESIS = join(repoRoot, '.peers/python/bin/schemathesis');
const REPORTS = join(repoRoot, 'test-results/api-fuzz');
const EXAMPLES = process.env.FUZZ_EXAMPLES ?? '5';
const SEED = process.env.FUZZ_SEED === 'random' ? String(BigInt(`0x${randomBytes(8).toString('hex')}`)) : (process.env.FUZZ_SEED ?? '20261126');
const CHECKS = ['not_a_server_error', 'status_code_conformance', 'content_type_conformance', 'response_schema_conformance'];
/** A pass that runs longer than this is stopped and fails: the stage must stay within CI's budget. */
const PASS_DEADLINE_MS = 360_000;
const ADMIN_PASSWORD = 'fuzzing admin passphrase 7';

/**
 * Per-IP rate limits, raised for the fuzz server: every request comes from 127.0.0.1, and with the
 * production limits most unauthenticated operations would answer 429 after their first cases, so
 * their handlers would go unfuzzed. Per-account and per-user limits keep their defaults.
 */
function raisedPerIpLimits(): Record<string, string> {
  const options = readFileSync(join(repoRoot, 'server/src/config-options.ts'), 'utf8');
  const names = new Set(options.match(/RATE_LIMIT_[A-Z_]*_PER_IP\b/g) ?? []);
  if (names.size === 0) throw new Error('no per-IP rate limit found in server/src/config-options.ts');
  return Object.fromEntries([...names].map((name) => [name, '1000000/60']));
}

interface PassResult {
  exitCode: number | null;
  output: string;
  selected: number;
  tested: number;
  generated: number;
}

function runPass(name: string, baseUrl: string, env: Record<string, string>): Promise<PassResult> {
  const reportDir = join(REPORTS, name);
  mkdirSync(reportDir, { recursive: true });
  // One worker thread a pass (the two passes run side by side): with more, hypothesis' source
  // inspection races in CPython 3.11's ast module ('AST constructor recursion depth mismatch').
  const args = ['run', `${baseUrl}/openapi.json`, '--checks', CHECKS.join(','), '--max-examples', EXAMPLES, '--seed', SEED, '--generation-database', 'none', '--workers', '1', '--no-color', '--report', 'junit', '--report-dir', reportDir];
  return new Promise((resolvePass, reject) => {
    // Run in the report folder: schemathesis keeps a crash cache in its working directory.
    const child = spawn(SCHEMATHESIS, args, { cwd: reportDir, env: { ...process.env, ...env, PYTHONPATH: import.meta.dirname }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`schemathesis ${name} pass ran past ${PASS_DEADLINE_MS / 1000} s:\n${output.slice(-4000)}`));
    }, PASS_DEADLINE_MS);
    child.once('error', reject);
    child.once('exit', (exitCode) => {
      clearTimeout(timer);
      writeFileSync(join(reportDir, 'output.txt'), output);
      const number = (re: RegExp) => Number(re.exec(output)?.[1] ?? NaN);
      resolvePass({ exitCode, output, selected: number(/Selected: (\d+)\/\d+/), tested: number(/Tested: (\d+)/), generated: number(/(\d+) generated/) });
    });
  });
}

/** The failures and errors part of schemathesis' output, for the assertion message. */
function findings(output: string): string {
  const start = output.search(/^=+ (ERRORS|FAILURES) =+$/m);
  return start < 0 ? output.slice(-3000) : output.slice(start, start + 12_000);
}

describe('the whole API under schemathesis', () => {
  let server: RunningServer;
  let schema = '';
  let operations = 0;
  let adminEmail = '';
  const databaseUrl = process.env.DATABASE_URL;

  beforeAll(async () => {
    if (!existsSync(SCHEMATHESIS)) throw new Error(`${SCHEMATHESIS} is missing: run "bash scripts/test-bench/peers.sh" (npm test does).`);
    const database: Record<string, string> = {};
    if (databaseUrl) {
      schema = `fuzz_${randomBytes(6).toString('hex')}`;
      Object.assign(database, { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema });
    }
    server = await startGatehouse({ ...database, ...raisedPerIpLimits() });
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    operations = Object.values(document.paths).reduce((n, item) => n + Object.keys(item).length, 0);

    // The admin of a new tenant: sign up, then activate through the link in the dev outbox.
    const email = `fuzz-admin-${randomBytes(4).toString('hex')}@example.com`;
    const signUp = await fetch(`${server.url}/identity/resources/users/v1/signUp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: ADMIN_PASSWORD, name: 'Fuzz Admin' }),
    });
    expect(signUp.status).toBe(200);
    const link = new URL(linkIn(await waitForMail(server.url, email, /./), '/account/activate'));
    const activated = await fetch(`${server.url}/identity/resources/users/v1/activate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userId: link.searchParams.get('userId'), token: link.searchParams.get('token'), password: ADMIN_PASSWORD }),
    });
    expect(activated.status).toBe(200);
    adminEmail = email;
  });

  afterAll(async () => {
    await server?.stop();
    if (schema && databaseUrl) {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
  });

  async function fuzz(name: string, env: Record<string, string>) {
    const result = await runPass(name, server.url, env);
    console.log(`schemathesis ${name}: ${result.tested} of ${operations} operations, ${result.generated} cases generated, seed ${SEED}, exit ${result.exitCode}`);
    expect(result.exitCode, findings(result.output)).toBe(0);
    expect(result.selected).toBe(operations);
    expect(result.tested).toBe(operations);
  }

  it.concurrent('answers every operation without credentials as documented, never with a 5xx', async () => {
    await fuzz('unauthenticated', {});
  });

  it.concurrent("answers every operation with a tenant admin's bearer token as documented, never with a 5xx", async () => {
    await fuzz('admin', { SCHEMATHESIS_HOOKS: 'hooks', FUZZ_BASE_URL: server.url, FUZZ_ADMIN_EMAIL: adminEmail, FUZZ_ADMIN_PASSWORD: ADMIN_PASSWORD });
  });
});
