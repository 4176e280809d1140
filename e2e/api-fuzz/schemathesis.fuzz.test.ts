/**
 * Every operation of /openapi.json fuzzed by schemathesis, a third-party property-based API tester
 * (pinned in scripts/test-bench/python-peers.txt), against the built server: once without
 * credentials and once as a tenant admin. It checks that no answer is a 5xx, and that every
 * status code, content type and body is the one the document declares.
 *
 * Each pass gives its full treatment (schemathesis' coverage phase of boundary and invalid values,
 * then random fuzzing, then stateful sequences) to the operations where its credential decides the
 * outcome: the public operations without credentials, the bearer operations as the admin. It still
 * sends every other operation a lighter round of random cases (`LIGHT_EXAMPLES`), so each operation
 * is fuzzed both ways: a bearer operation without a token must answer its documented 401, a public
 * one must ignore a token it does not need.
 *
 * The server runs on PostgreSQL when DATABASE_URL is set (in a schema of its own), else on SQLite.
 * FUZZ_EXAMPLES (default 5) bounds the random cases per operation in a full treatment; FUZZ_SEED
 * fixes the generator's seed (default: a fixed seed, so CI is repeatable; `random` for a new one).
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
const LIGHT_EXAMPLES = '2';
const CHECKS = ['not_a_server_error', 'status_code_conformance', 'content_type_conformance', 'response_schema_conformance'];
/** Selects the operations that take a bearer token (schemathesis' JSON-pointer filter). */
const BEARER = '/security/0/Bearer == []';
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
  tested: number;
  generated: number;
}

/** One schemathesis run over the operations `only` selects, fully or lightly. */
function runPass(name: string, baseUrl: string, env: Record<string, string>, only: string[], depth: 'full' | 'light'): Promise<PassResult> {
  const reportDir = join(REPORTS, name);
  mkdirSync(reportDir, { recursive: true });
  const treatment = depth === 'full' ? ['--max-examples', EXAMPLES] : ['--phases', 'fuzzing', '--max-examples', LIGHT_EXAMPLES];
  // One worker thread a run (the two passes run side by side): with more, hypothesis' source
  // inspection races in CPython 3.11's ast module ('AST constructor recursion depth mismatch').
  const args = ['run', `${baseUrl}/openapi.json`, ...only, ...treatment, '--checks', CHECKS.join(','), '--seed', SEED, '--generation-database', 'none', '--workers', '1', '--no-color', '--report', 'junit', '--report-dir', reportDir];
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
      resolvePass({ exitCode, output, tested: number(/Tested: (\d+)/), generated: number(/(\d+) generated/) });
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
  let bearerOperations = 0;
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
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, { security?: Array<Record<string, unknown>> }>> };
    const all = Object.values(document.paths).flatMap((item) => Object.values(item));
    operations = all.length;
    bearerOperations = all.filter((operation) => operation.security?.[0]?.Bearer !== undefined).length;

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

  /** The full treatment for the operations `full` selects, then the light one for the rest. */
  async function fuzz(name: string, env: Record<string, string>, full: 'public' | 'bearer') {
    const bearer = ['--include-by', BEARER];
    const publicOnly = ['--exclude-by', BEARER];
    const runs = [
      { label: `${name}-full`, only: full === 'bearer' ? bearer : publicOnly, depth: 'full' as const, expected: full === 'bearer' ? bearerOperations : operations - bearerOperations },
      { label: `${name}-light`, only: full === 'bearer' ? publicOnly : bearer, depth: 'light' as const, expected: full === 'bearer' ? operations - bearerOperations : bearerOperations },
    ];
    for (const run of runs) {
      const result = await runPass(run.label, server.url, env, run.only, run.depth);
      console.log(`schemathesis ${run.label}: ${result.tested} of ${run.expected} operations, ${result.generated} cases generated, seed ${SEED}, exit ${result.exitCode}`);
      expect(result.exitCode, findings(result.output)).toBe(0);
      expect(result.tested).toBe(run.expected);
    }
  }

  it.concurrent('answers every operation without credentials as documented, never with a 5xx', async () => {
    await fuzz('unauthenticated', {}, 'public');
  });

  it.concurrent("answers every operation with a tenant admin's bearer token as documented, never with a 5xx", async () => {
    await fuzz('admin', { SCHEMATHESIS_HOOKS: 'hooks', FUZZ_BASE_URL: server.url, FUZZ_ADMIN_EMAIL: adminEmail, FUZZ_ADMIN_PASSWORD: ADMIN_PASSWORD }, 'bearer');
  });
});
