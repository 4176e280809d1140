// `npm run bench:throughput`: Gatehouse's built server side by side with pinned peers on loopback.
// Each pair runs back to back in one run, A B A B, at the same concurrency (3 s warm-up, 10 s
// measured, medians of the alternations); every answer must be 2xx. Options:
//   --pg            also measure refresh rotations on PostgreSQL (DATABASE_URL, else the test bench's)
//   --scale         two Gatehouse processes on one PostgreSQL against one, pinned with taskset
//   --smoke         the harness only: 1 s per test, one alternation, no ratio judged (CI)
//   --root <dir>    the checkout whose server/dist/main.js to run (default: this one)
//   --only <ids>    comma-separated test ids (grants-16, grants-64, reads-64, sign-ins-16, refresh-sqlite, refresh-pg)
//   --alternations <n>, --seconds <s>, --warmup <s>
// Prints markdown tables and writes them as JSON to bench/.results/.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { execFileSync } from 'node:child_process';
import { cpuSecondsOf, mainThreadCpuSecondsOf, runLoad } from './lib/processes.mjs';
import { createDatabase, expectOk, freshSessions, json, REFRESH_COOKIE, BENCH_RATE_LIMITS, PASSWORD, seedClientCredentials, seedUsers, startGatehouse } from './lib/gatehouse.mjs';
import { BENCH_DIR, installPeers, PEERS_DIR, peerVersion, seedBetterAuthUsers, startBetterAuth, startOidcProvider } from './lib/peers.mjs';
import { comparisonMarkdown, medianOf, summarize } from './lib/stats.mjs';

const { values: flags } = parseArgs({
  options: {
    pg: { type: 'boolean', default: false },
    scale: { type: 'boolean', default: false },
    smoke: { type: 'boolean', default: false },
    root: { type: 'string' },
    only: { type: 'string' },
    alternations: { type: 'string' },
    seconds: { type: 'string' },
    warmup: { type: 'string' },
  },
});
const root = resolve(flags.root ?? join(BENCH_DIR, '..'));
const timing = {
  alternations: Number(flags.alternations ?? (flags.smoke ? 1 : 3)),
  seconds: Number(flags.seconds ?? (flags.smoke ? 1 : 10)),
  warmupSeconds: Number(flags.warmup ?? (flags.smoke ? 0 : 3)),
};
const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const only = flags.only ? new Set(flags.only.split(',')) : null;
const work = mkdtempSync(join(tmpdir(), 'gh-bench-run-'));
const cleanups = [];
const log = (line) => process.stderr.write(`bench: ${line}\n`);

function commitOf(dir) {
  try { return execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim(); } catch { return 'unknown'; }
}

let dataFiles = 0;
/** Writes a scenario's data (tokens, bodies) to a file the load generator reads. */
function dataFile(data) {
  const file = join(work, `data-${dataFiles++}.json`);
  writeFileSync(file, JSON.stringify(data));
  return file;
}

/** One measured run of `side` (a job factory and the server it loads), as summarized figures. */
async function measure(side, connections) {
  const job = { peersDir: PEERS_DIR, urls: side.urls, connections, seconds: timing.seconds, warmupSeconds: timing.warmupSeconds, scenario: side.scenario, dataFile: dataFile(await side.data(connections)) };
  const watch = { server: () => side.pids.reduce((s, pid) => s + cpuSecondsOf(pid), 0), mainThread: () => side.pids.reduce((s, pid) => s + mainThreadCpuSecondsOf(pid), 0) };
  if (side.postgres) watch.postgres = side.postgres;
  const run = summarize(await runLoad({ job, watch }));
  log(`${side.label}: ${Math.round(run.rps)}/s, non-2xx ${run.non2xx}, server CPU ${run.serverCpuMsPerRequest.toFixed(3)} ms/req`);
  if (run.non2xx > 0) log(`  non-2xx answers: ${JSON.stringify(run.statusCodes)}`);
  return run;
}

async function compare() {
  installPeers();
  const versions = { 'oidc-provider': peerVersion('oidc-provider'), 'better-auth': peerVersion('better-auth'), autocannon: peerVersion('autocannon') };
  const wanted = (id) => !only || only.has(id);
  const users = flags.smoke ? 20 : 128;

  log(`Gatehouse from ${root} (${commitOf(root)}), SQLite`);
  const sqlite = createDatabase(null);
  cleanups.push(sqlite.drop);
  const gh = await startGatehouse({ root, database: sqlite });
  cleanups.push(gh.stop);
  const ghUsers = await seedUsers(gh.url, users);
  const client = await seedClientCredentials(gh.url, ghUsers[0]);
  const basic = `Basic ${Buffer.from(`${client.clientId}:${client.secret}`).toString('base64')}`;

  log('peers: node-oidc-provider and better-auth');
  const oidc = await startOidcProvider({});
  cleanups.push(oidc.stop);
  const ba = await startBetterAuth({ repoRoot: root });
  cleanups.push(ba.stop, () => rmSync(ba.dir, { recursive: true, force: true }));
  const baUsers = await seedBetterAuthUsers(ba.url, flags.smoke ? 16 : 128);

  const grantBody = 'grant_type=client_credentials';
  const sides = {
    ghGrant: { label: 'Gatehouse', urls: [gh.url], pids: [gh.pid], scenario: 'grant', data: async () => ({ path: '/oauth/token', authorization: basic, body: grantBody }) },
    oidcGrant: { label: `node-oidc-provider ${versions['oidc-provider']}`, urls: [oidc.url], pids: [oidc.pid], scenario: 'grant', data: async () => ({ path: '/token', authorization: oidc.authorization, body: grantBody }) },
    ghRead: { label: 'Gatehouse', urls: [gh.url], pids: [gh.pid], scenario: 'read', data: async () => ({ path: '/identity/resources/users/v2/me', headers: ghUsers.map((u) => ({ authorization: `Bearer ${u.accessToken}` })) }) },
    baRead: { label: `better-auth ${versions['better-auth']}`, urls: [ba.url], pids: [ba.pid], scenario: 'read', data: async () => ({ path: '/api/auth/get-session', headers: baUsers.map((u) => ({ cookie: u.cookie })) }) },
    ghSignIn: { label: 'Gatehouse', urls: [gh.url], pids: [gh.pid], scenario: 'signIn', data: async () => ({ path: '/identity/resources/auth/v1/user', bodies: ghUsers.map((u) => ({ email: u.email, password: PASSWORD })) }) },
    baSignIn: { label: `better-auth ${versions['better-auth']}`, urls: [ba.url], pids: [ba.pid], scenario: 'signIn', data: async () => ({ path: '/api/auth/sign-in/email', origin: ba.url, bodies: baUsers.map((u) => ({ email: u.email, password: PASSWORD })) }) },
    ghRefresh: { label: 'Gatehouse', urls: [gh.url], pids: [gh.pid], scenario: 'refresh', data: async (connections) => ({ path: '/identity/resources/auth/v1/user/token/refresh', cookieName: REFRESH_COOKIE, cookies: await freshSessions(gh.url, ghUsers, connections * 2 + 8) }) },
  };

  // One request of each kind by hand first: a harness that gets no 2xx fails here, loudly.
  await expectOk('Gatehouse client_credentials', await json(`${gh.url}/oauth/token`, { method: 'POST', headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' }, body: grantBody }));
  await expectOk('node-oidc-provider client_credentials', await json(`${oidc.url}/token`, { method: 'POST', headers: { authorization: oidc.authorization, 'content-type': 'application/x-www-form-urlencoded' }, body: grantBody }));
  await expectOk('Gatehouse me', await json(`${gh.url}/identity/resources/users/v2/me`, { headers: { authorization: `Bearer ${ghUsers[1].accessToken}` } }));
  const session = await expectOk('better-auth get-session', await json(`${ba.url}/api/auth/get-session`, { headers: { cookie: baUsers[0].cookie } }));
  if (!session.body?.user?.email) throw new Error(`better-auth get-session answered no user: ${JSON.stringify(session.body)}`);

  const tests = [
    { id: 'grants-16', title: 'client_credentials grants/s, 16 connections', connections: 16, a: sides.ghGrant, b: sides.oidcGrant },
    { id: 'grants-64', title: 'client_credentials grants/s, 64 connections', connections: 64, a: sides.ghGrant, b: sides.oidcGrant },
    { id: 'reads-64', title: 'authenticated reads/s (`GET users/v2/me` vs `get-session`), 64 connections', connections: 64, a: sides.ghRead, b: sides.baRead },
    { id: 'sign-ins-16', title: 'sign-ins/s (argon2id vs scrypt), 16 connections', connections: 16, a: sides.ghSignIn, b: sides.baSignIn },
    { id: 'refresh-sqlite', title: 'refresh rotations/s, SQLite, 64 connections', connections: 64, a: sides.ghRefresh },
  ].filter((t) => wanted(t.id));

  let pg = null;
  if ((flags.pg || only?.has('refresh-pg')) && wanted('refresh-pg')) {
    log('Gatehouse on PostgreSQL');
    const database = createDatabase(databaseUrl);
    cleanups.push(database.drop);
    const server = await startGatehouse({ root, database, name: 'gatehouse-pg' });
    cleanups.push(server.stop);
    const pgUsers = await seedUsers(server.url, flags.smoke ? 20 : 128);
    pg = server;
    tests.push({ id: 'refresh-pg', title: 'refresh rotations/s, PostgreSQL, 64 connections', connections: 64, a: { label: 'Gatehouse', urls: [server.url], pids: [server.pid], postgres: database.postgresCpuSeconds, scenario: 'refresh', data: async (c) => ({ path: '/identity/resources/auth/v1/user/token/refresh', cookieName: REFRESH_COOKIE, cookies: await freshSessions(server.url, pgUsers, c * 2 + 8) }) } });
  }

  const results = [];
  for (const test of tests) {
    log(`${test.title}`);
    const a = [];
    const b = [];
    for (let i = 0; i < timing.alternations; i++) {
      a.push(await measure(test.a, test.connections));
      if (test.b) b.push(await measure(test.b, test.connections));
    }
    results.push({ id: test.id, title: test.title, connections: test.connections, gatehouse: medianOf(a), peer: test.b ? { label: test.b.label, ...medianOf(b) } : null });
  }
  return { versions, results, pg: Boolean(pg) };
}

const started = new Date();
let exitCode = 0;
try {
  const command = `npm run bench:throughput${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
  const header = [`Command: \`${command}\` (Gatehouse ${commitOf(root)} from ${root}, node ${process.version}, ${started.toISOString()})`];
  let report;
  let markdown;
  if (flags.scale) {
    installPeers();
    const { runScale } = await import('./scale.mjs');
    report = await runScale({ root, databaseUrl, timing, log, cleanups, dataFile, userCount: flags.smoke ? 20 : 128 });
    markdown = report.markdown;
  } else {
    report = await compare();
    header.push(`Peers: node-oidc-provider ${report.versions['oidc-provider']}, better-auth ${report.versions['better-auth']}; load: autocannon ${report.versions.autocannon} in its own process. ${timing.warmupSeconds} s warm-up, ${timing.seconds} s measured, ${timing.alternations} alternation(s) A B, medians. Gatehouse's per-IP rate limits raised for the bench (${Object.keys(BENCH_RATE_LIMITS).join(', ')}).`);
    markdown = comparisonMarkdown(report.results);
    const bad = report.results.filter((r) => r.gatehouse.non2xx > 0 || (r.peer && r.peer.non2xx > 0));
    if (bad.length) { exitCode = 1; header.push(`FAILED: non-2xx answers in ${bad.map((r) => r.id).join(', ')}`); }
    const silent = report.results.filter((r) => !(r.gatehouse.rps > 0) || (r.peer && !(r.peer.rps > 0)));
    if (silent.length) { exitCode = 1; header.push(`FAILED: no 2xx answers in ${silent.map((r) => r.id).join(', ')}`); }
  }
  const text = `${header.join('\n')}\n\n${markdown}\n`;
  process.stdout.write(text);
  const dir = join(BENCH_DIR, '.results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `throughput-${flags.scale ? 'scale-' : ''}${started.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ command, root, commit: commitOf(root), node: process.version, timing, started: started.toISOString(), ...report, markdown: text }, null, 2));
  log(`results written to ${file}`);
} catch (err) {
  exitCode = 1;
  console.error(err);
} finally {
  for (const cleanup of cleanups.reverse()) {
    try { await cleanup(); } catch (err) { log(`cleanup: ${err.message}`); }
  }
  rmSync(work, { recursive: true, force: true });
}
process.exit(exitCode);
