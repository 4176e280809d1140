// Gatehouse under the bench: the built server (`node server/dist/main.js`) on loopback, SQLite in a
// temporary data folder or PostgreSQL in a schema of its own, and the accounts the tests use, made
// over HTTP exactly as an application would (sign-up, activation link from the dev outbox, roles API,
// API tokens API), so the bench works against any build of the server, old or new.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { freePort, postgresCpuSeconds, startNode } from './processes.mjs';

export const PASSWORD = 'correct horse battery staple 7';
const CLIENT_ID = 'bench-client';
export const REFRESH_COOKIE = `gatehouse-refresh-${CLIENT_ID.replace(/-/g, '')}`;
const HIGH = '1000000000/60';

/**
 * The per-IP and per-account limits the bench's single loopback client would trip, raised for the
 * bench only (every request comes from 127.0.0.1). Counting still happens as in production.
 */
export const BENCH_RATE_LIMITS = {
  RATE_LIMIT_LOGIN_PER_IP: HIGH,
  RATE_LIMIT_SIGNUP_PER_IP: HIGH,
  RATE_LIMIT_ACTIVATION_PER_IP: HIGH,
  RATE_LIMIT_REFRESH_PER_IP: HIGH,
  RATE_LIMIT_OAUTH_TOKEN_PER_IP: HIGH,
};

/** A database for one or more Gatehouse processes: a SQLite folder, or a fresh PostgreSQL schema. */
export function createDatabase(databaseUrl) {
  if (!databaseUrl) {
    const dir = mkdtempSync(join(tmpdir(), 'gh-bench-'));
    return { dialect: 'sqlite', env: { GATEHOUSE_DATA_DIR: dir }, drop: () => rmSync(dir, { recursive: true, force: true }) };
  }
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  // The schema's name as application_name marks the backends serving this deployment (their CPU is measured).
  const url = `${databaseUrl}${databaseUrl.includes('?') ? '&' : '?'}application_name=${schema}`;
  const dir = mkdtempSync(join(tmpdir(), 'gh-bench-'));
  return {
    dialect: 'postgres',
    env: { DATABASE_URL: url, DATABASE_SCHEMA: schema, GATEHOUSE_DATA_DIR: dir },
    postgresCpuSeconds: () => postgresCpuSeconds(databaseUrl, schema),
    drop: () => {
      rmSync(dir, { recursive: true, force: true });
      execFileSync('psql', [databaseUrl, '-q', '-c', `DROP SCHEMA IF EXISTS ${schema} CASCADE`], { stdio: 'ignore' });
    },
  };
}

/**
 * Starts one Gatehouse process of the build in `root` on `database`; `cores` pins it. Processes of
 * one deployment share `publicUrl` (the token issuer), as they would behind one load balancer.
 */
export async function startGatehouse({ root, database, cores, name = 'gatehouse', publicUrl }) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await startNode({
    name,
    args: ['server/dist/main.js'],
    cwd: root,
    cores,
    env: {
      ...database.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      GATEHOUSE_PUBLIC_URL: publicUrl ?? url,
      GATEHOUSE_CLIENT_ID: CLIENT_ID,
      // Dev mode for the outbox at /dev/mailbox.json, where the seeding reads activation links.
      GATEHOUSE_DEV: '1',
      NODE_ENV: 'development',
      ACCESS_TOKEN_TTL: '3600',
      ...BENCH_RATE_LIMITS,
    },
    readyUrl: `${url}/.well-known/jwks.json`,
  });
  return { ...server, url };
}

async function json(url, init = {}) {
  const res = await fetch(url, init);
  const text = await res.text();
  let body = text;
  try { body = JSON.parse(text); } catch { /* not JSON */ }
  return { status: res.status, body, headers: res.headers };
}

const post = (url, body, headers = {}) => json(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

function refreshCookieOf(headers) {
  for (const line of headers.getSetCookie()) {
    const match = new RegExp(`^${REFRESH_COOKIE}=([^;]+)`).exec(line);
    if (match) return match[1];
  }
  return undefined;
}

/** Runs `work` over `items`, `parallel` at a time. */
async function inBatches(items, parallel, work) {
  const out = [];
  for (let i = 0; i < items.length; i += parallel) out.push(...(await Promise.all(items.slice(i, i + parallel).map(work))));
  return out;
}

/**
 * Signs up and activates `count` users (in batches that fit the dev outbox's newest 200): their
 * emails, access tokens and refresh cookies. The first is the admin of its own tenant.
 */
export async function seedUsers(url, count, prefix = 'bench') {
  const users = [];
  const run = randomBytes(3).toString('hex');
  for (let start = 0; start < count; start += 100) {
    const emails = Array.from({ length: Math.min(100, count - start) }, (_, i) => `${prefix}-${run}-${start + i}@example.com`);
    const signUps = await inBatches(emails, 8, (email) => post(`${url}/identity/resources/users/v1/signUp`, { email, password: PASSWORD }));
    const failed = signUps.find((r) => r.status !== 200);
    if (failed) throw new Error(`sign-up failed: ${failed.status} ${JSON.stringify(failed.body)}`);
    const mail = (await json(`${url}/dev/mailbox.json`)).body;
    const links = new Map();
    for (const m of mail) {
      const link = /https?:\/\/\S+\/account\/activate\?\S+/.exec(m.text)?.[0];
      if (link && !links.has(m.to)) links.set(m.to, new URL(link));
    }
    users.push(...(await inBatches(emails, 8, async (email) => {
      const link = links.get(email);
      if (!link) throw new Error(`no activation mail to ${email}`);
      const res = await post(`${url}/identity/resources/users/v1/activate`, { userId: link.searchParams.get('userId'), token: link.searchParams.get('token'), password: PASSWORD });
      if (res.status !== 200) throw new Error(`activation failed: ${res.status} ${JSON.stringify(res.body)}`);
      return { email, userId: link.searchParams.get('userId'), accessToken: res.body.accessToken, cookie: refreshCookieOf(res.headers) };
    })));
  }
  return users;
}

/** A tenant API token of type ClientCredentials (role ReadOnly) made by `admin`: its client id and secret. */
export async function seedClientCredentials(url, admin) {
  const auth = { authorization: `Bearer ${admin.accessToken}` };
  const roles = await json(`${url}/identity/resources/roles/v1`, { headers: auth });
  const readOnly = roles.body.find?.((r) => r.key === 'ReadOnly');
  if (!readOnly) throw new Error(`no ReadOnly role: ${roles.status} ${JSON.stringify(roles.body)}`);
  const created = await post(`${url}/identity/resources/tenants/api-tokens/v1`, { description: 'bench', roleIds: [readOnly.id] }, auth);
  if (created.status !== 201) throw new Error(`API token: ${created.status} ${JSON.stringify(created.body)}`);
  return { clientId: created.body.clientId, secret: created.body.secret };
}

/** `count` fresh sessions (refresh cookies) from password sign-ins of `users`. */
export async function freshSessions(url, users, count) {
  const picks = Array.from({ length: count }, (_, i) => users[i % users.length]);
  return inBatches(picks, 8, async (user) => {
    const res = await post(`${url}/identity/resources/auth/v1/user`, { email: user.email, password: PASSWORD });
    const cookie = refreshCookieOf(res.headers);
    if (res.status !== 200 || !cookie) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
    return cookie;
  });
}

/** Checks the one request of a test by hand before loading it, so a broken harness fails loudly. */
export async function expectOk(what, res) {
  if (res.status < 200 || res.status > 299) throw new Error(`${what}: ${res.status} ${typeof res.body === 'string' ? res.body.slice(0, 300) : JSON.stringify(res.body)}`);
  return res;
}
export { json, post };
