/**
 * Every operation of /openapi.json fuzzed by schemathesis, a third-party property-based API tester
 * (pinned in scripts/test-bench/python-peers.txt), against the built server: once without
 * credentials, once as a tenant admin, and the SCIM service provider (/scim/v2, security
 * ScimBearer) once more with a provisioning connection's token of a tenant of its own. It checks
 * that no answer is a 5xx, and that every status code, content type and body is the one the
 * document declares.
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
/** Selects the SCIM operations, which take a provisioning connection's token. */
const SCIM_BEARER = '/security/0/ScimBearer == []';
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
  // The SCIM pass calls through one connection, which has a limit of its own.
  return { ...Object.fromEntries([...names].map((name) => [name, '1000000/60'])), RATE_LIMIT_SCIM_PER_CONNECTION: '1000000/60' };
}

interface PassResult {
  exitCode: number | null;
  output: string;
  tested: number;
  generated: number;
}

/** One schemathesis run over the operations `only` selects, fully or lightly. */
function runPass(name: string, baseUrl: string, env: Record<string, string>, only: string[], depth: 'full' | 'light', extra: string[] = []): Promise<PassResult> {
  const reportDir = join(REPORTS, name);
  mkdirSync(reportDir, { recursive: true });
  const treatment = depth === 'full' ? ['--max-examples', EXAMPLES] : ['--phases', 'fuzzing', '--max-examples', LIGHT_EXAMPLES];
  // One worker thread a run (the two passes run side by side): with more, hypothesis' source
  // inspection races in CPython 3.11's ast module ('AST constructor recursion depth mismatch').
  const args = ['run', `${baseUrl}/openapi.json`, ...only, ...treatment, '--checks', CHECKS.join(','), '--seed', SEED, '--generation-database', 'none', '--workers', '1', '--no-color', '--report', 'junit', '--report-dir', reportDir, ...extra];
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
  let scimOperations = 0;
  let scimToken = '';
  let scimUserId = '';
  let scimGroupId = '';
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
    scimOperations = all.filter((operation) => operation.security?.[0]?.ScimBearer !== undefined).length;

    adminEmail = await activatedAdmin('fuzz-admin');
    // The SCIM pass's connection, in a tenant of its own: the admin pass may rotate or delete the
    // connections of its tenant, which would end this token in the middle of the SCIM pass.
    const scimAdmin = await activatedAdmin('fuzz-scim');
    const signedIn = await fetch(`${server.url}/identity/resources/auth/v1/user`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: scimAdmin, password: ADMIN_PASSWORD }) });
    expect(signedIn.status).toBe(200);
    const { accessToken } = (await signedIn.json()) as { accessToken: string };
    const connection = await fetch(`${server.url}/directory/resources/v1/configurations/scim2`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` }, body: JSON.stringify({ source: 'other' }) });
    expect(connection.status).toBe(201);
    scimToken = ((await connection.json()) as { token: string }).token;
    // A user and a group the SCIM pass's cases on one resource are pointed at (scim_hooks.py).
    const scimCall = async (path: string, body: unknown) => {
      const res = await fetch(`${server.url}/scim/v2${path}`, { method: 'POST', headers: { 'content-type': 'application/scim+json', authorization: `Bearer ${scimToken}` }, body: JSON.stringify(body) });
      expect(res.status).toBe(201);
      return ((await res.json()) as { id: string }).id;
    };
    scimUserId = await scimCall('/Users', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: `fuzz-user-${randomBytes(4).toString('hex')}@example.com`, name: { givenName: 'Fuzz', familyName: 'User' }, active: true });
    scimGroupId = await scimCall('/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Fuzzed group', members: [{ value: scimUserId }] });
  });

  /** The admin of a new tenant: signed up, then activated through the link in the dev outbox; answers the address. */
  async function activatedAdmin(prefix: string): Promise<string> {
    const email = `${prefix}-${randomBytes(4).toString('hex')}@example.com`;
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
    return email;
  }

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

  it.concurrent("answers every SCIM operation with a provisioning connection's token as documented, never with a 5xx", async () => {
    // The token as a fixed header, not an auth hook: a connection's token does not expire, and only
    // the SCIM operations run in this pass (each also had the two other passes without this token).
    const hooks = { SCHEMATHESIS_HOOKS: 'scim_hooks', FUZZ_SCIM_USER_ID: scimUserId, FUZZ_SCIM_GROUP_ID: scimGroupId };
    const result = await runPass('scim-full', server.url, hooks, ['--include-by', SCIM_BEARER], 'full', ['--header', `Authorization: Bearer ${scimToken}`]);
    console.log(`schemathesis scim-full: ${result.tested} of ${scimOperations} operations, ${result.generated} cases generated, seed ${SEED}, exit ${result.exitCode}`);
    expect(result.exitCode, findings(result.output)).toBe(0);
    expect(scimOperations).toBeGreaterThan(0);
    expect(result.tested).toBe(scimOperations);
  });

  it.concurrent("answers every operation with a tenant admin's bearer token as documented, never with a 5xx", async () => {
    await fuzz('admin', { SCHEMATHESIS_HOOKS: 'hooks', FUZZ_BASE_URL: server.url, FUZZ_ADMIN_EMAIL: adminEmail, FUZZ_ADMIN_PASSWORD: ADMIN_PASSWORD }, 'bearer');
  });
});
