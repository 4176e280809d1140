// The bench's peers (node-oidc-provider, better-auth) and its load generator (autocannon): pinned in
// bench/throughput/peers/package.json and its lock, installed with `npm ci` into the ignored folder
// bench/.peers/ (again only when the lock changed), then started on loopback.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startNode } from './processes.mjs';
import { PASSWORD } from './gatehouse.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const pins = join(here, '..', 'peers');
export const BENCH_DIR = join(here, '..', '..');
export const PEERS_DIR = join(BENCH_DIR, '.peers');

const stampOf = () => createHash('sha256').update(readFileSync(join(pins, 'package-lock.json'))).digest('hex');

/** Whether bench/.peers holds the pinned versions. */
export function peersInstalled() {
  return existsSync(join(PEERS_DIR, '.stamp')) && readFileSync(join(PEERS_DIR, '.stamp'), 'utf8').trim() === stampOf();
}

/** Installs the pinned peers into bench/.peers unless already there (no install scripts run). */
export function installPeers() {
  if (peersInstalled()) return;
  mkdirSync(PEERS_DIR, { recursive: true });
  copyFileSync(join(pins, 'package.json'), join(PEERS_DIR, 'package.json'));
  copyFileSync(join(pins, 'package-lock.json'), join(PEERS_DIR, 'package-lock.json'));
  execFileSync('npm', ['ci', '--prefix', PEERS_DIR, '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], { stdio: 'inherit' });
  writeFileSync(join(PEERS_DIR, '.stamp'), `${stampOf()}\n`);
}

/** The exact installed version of a package in bench/.peers. */
export function peerVersion(name) {
  return JSON.parse(readFileSync(join(PEERS_DIR, 'node_modules', name, 'package.json'), 'utf8')).version;
}

/** node-oidc-provider with one client_credentials client; `authorization` is its HTTP Basic header. */
export async function startOidcProvider({ cores }) {
  const port = await freePort();
  const clientId = 'bench-client';
  const clientSecret = 'bench-secret-0123456789abcdef0123456789abcdef';
  const server = await startNode({
    name: 'node-oidc-provider',
    args: [join(pins, 'oidc-server.mjs')],
    cores,
    env: { PORT: String(port), PEERS_DIR, BENCH_CLIENT_ID: clientId, BENCH_CLIENT_SECRET: clientSecret, NODE_ENV: 'production' },
    readyUrl: `http://127.0.0.1:${port}/.well-known/openid-configuration`,
  });
  return { ...server, url: `http://127.0.0.1:${port}`, authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` };
}

/** better-auth on its own SQLite file, using the repository's better-sqlite3 build. */
export async function startBetterAuth({ cores, repoRoot }) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'gh-bench-better-auth-'));
  const betterSqlite3 = dirname(createRequire(join(repoRoot, 'server', 'package.json')).resolve('better-sqlite3/package.json'));
  const server = await startNode({
    name: 'better-auth',
    args: [join(pins, 'better-auth-server.mjs')],
    cores,
    env: { PORT: String(port), PEERS_DIR, BETTER_SQLITE3: betterSqlite3, DB_FILE: join(dir, 'auth.db'), NODE_ENV: 'production' },
    readyUrl: `http://127.0.0.1:${port}/api/auth/ok`,
  });
  return { ...server, url: `http://127.0.0.1:${port}`, dir };
}

/** Signs up `count` better-auth users: their emails and session cookies. */
export async function seedBetterAuthUsers(url, count) {
  const users = [];
  const run = Math.random().toString(16).slice(2, 8);
  for (let start = 0; start < count; start += 8) {
    users.push(...(await Promise.all(Array.from({ length: Math.min(8, count - start) }, async (_, i) => {
      const email = `ba-${run}-${start + i}@example.com`;
      const res = await fetch(`${url}/api/auth/sign-up/email`, { method: 'POST', headers: { 'content-type': 'application/json', origin: url }, body: JSON.stringify({ email, password: PASSWORD, name: 'Bench User' }) });
      const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).find((c) => c.startsWith('better-auth.session_token='));
      if (res.status !== 200 || !cookie) throw new Error(`better-auth sign-up: ${res.status} ${await res.text()}`);
      return { email, cookie };
    }))));
  }
  return users;
}
