import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, inject } from 'vitest';
import { refreshCookieName, type DevMailboxEntry } from '@gatehouse/shared/wire';
import { createServer, type GatehouseServer, type ServerOverrides } from '../app';
import { loadConfig, type Config } from '../config';
import { createPostgresPool } from '../db';
import { withDatabase } from './global-setup';

export type DialectName = 'sqlite' | 'postgres';

/** A clock tests can move. */
export function movableClock(start = Date.now()) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms), set: (ms: number) => void (t = ms) };
}

export interface Harness {
  dialect: DialectName;
  /** Starts a server on this file's database; env entries override the test defaults. */
  start(env?: Record<string, string>, overrides?: ServerOverrides): Promise<GatehouseServer>;
}

/**
 * Runs `body` once per dialect: SQLite always; PostgreSQL when DATABASE_URL is set. Each block gets
 * a database of its own, copied from the run's migrated template (test/global-setup.ts): a file for
 * SQLite, a database for PostgreSQL. With REQUIRE_POSTGRES=1 a missing or unreachable PostgreSQL fails.
 */
export function describeDialects(title: string, body: (h: Harness) => void): void {
  const databaseUrl = process.env.DATABASE_URL;
  // This call's PostgreSQL database, made while the SQLite block runs: copying the template takes
  // about a second under CI load, and the SQLite block's tests give it that time. Named after the
  // run's template, so the run's teardown finds any that a skipped block left (global-setup.ts).
  let postgresDatabase: Promise<string> | undefined;
  const makePostgresDatabase = () =>
    (postgresDatabase ??= (async () => {
      if (!databaseUrl) throw new Error('REQUIRE_POSTGRES=1 but DATABASE_URL is not set.');
      const template = inject('postgresTemplate');
      const database = `${template}_${randomBytes(6).toString('hex')}`;
      const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
      await client.connect(); // unreachable PostgreSQL fails here, which fails the tests
      try {
        await client.query(`CREATE DATABASE "${database}" TEMPLATE "${template}"`);
      } finally {
        await client.end();
      }
      return database;
    })());
  for (const dialect of ['sqlite', 'postgres'] as const) {
    const required = process.env.REQUIRE_POSTGRES === '1';
    const skip = dialect === 'postgres' && !databaseUrl && !required;
    (skip ? describe.skip : describe)(`${title} [${dialect}]`, () => {
      let dataDir = '';
      let database = '';
      const running: GatehouseServer[] = [];
      // The PostgreSQL block's servers share one pool: a connection (about 5 ms of PostgreSQL's CPU
      // to open) and the statements it has prepared outlive each server, where every server used to
      // open its own and plan each statement again. A server started with its own database settings
      // (DATABASE_URL, DATABASE_SCHEMA, DATABASE_PREPARED_STATEMENTS) gets a pool of its own.
      let sharedPool: Promise<pg.Pool> | undefined;

      beforeAll(async () => {
        dataDir = mkdtempSync(path.join(tmpdir(), 'gatehouse-test-'));
        if (dialect === 'sqlite') {
          copyFileSync(inject('sqliteTemplate'), path.join(dataDir, 'gatehouse.db'));
          // Started, not awaited: a failure is the PostgreSQL block's, which awaits it.
          if (databaseUrl) makePostgresDatabase().catch(() => undefined);
          return;
        }
        database = await makePostgresDatabase();
      });

      afterEach(async () => {
        await Promise.all(running.splice(0).map((s) => s.close()));
      });

      afterAll(async () => {
        if (dataDir) rmSync(dataDir, { recursive: true, force: true });
        await sharedPool?.then((pool) => pool.end()).catch(() => undefined);
        sharedPool = undefined;
        if (dialect === 'sqlite' || !databaseUrl || !database) return;
        // Not WITH (FORCE): the servers' pools have sent their goodbyes but their backends may still
        // be exiting, and a forced drop would kill them mid-way (an unhandled pool error). A plain
        // drop waits up to 5 s for them; one still open after that is a leak, and fails the file.
        const client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
        await client.query(`DROP DATABASE IF EXISTS "${database}"`).finally(() => client.end());
      });

      body({
        dialect,
        async start(env = {}, overrides = {}) {
          const config: Config = loadConfig({
            GATEHOUSE_DEV: '1',
            GATEHOUSE_PUBLIC_URL: 'http://localhost:8787',
            GATEHOUSE_ALLOWED_ORIGINS: 'http://localhost:8787,http://app.test:3000',
            GATEHOUSE_DATA_DIR: dataDir,
            ...(dialect === 'postgres' ? { DATABASE_URL: withDatabase(databaseUrl!, database) } : {}),
            ...env,
          });
          const ownSettings = ['DATABASE_URL', 'DATABASE_SCHEMA', 'DATABASE_PREPARED_STATEMENTS'].some((name) => name in env);
          if (dialect === 'postgres' && !ownSettings && !overrides.postgresPool) overrides = { ...overrides, postgresPool: await (sharedPool ??= createPostgresPool(config)) };
          const server = await createServer(config, overrides);
          running.push(server);
          return server;
        },
      });
    });
  }
}

export interface CallResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
  /** The refresh cookie value the response set ('' when it cleared it), if any. */
  refreshCookie: string | undefined;
  setCookie: string | null;
}

export interface CallOptions {
  body?: unknown;
  rawBody?: string;
  token?: string;
  cookie?: string;
  headers?: Record<string, string>;
}

/** One HTTP call through the app's fetch, as a browser on the public origin would make it. */
export async function call<T = any>(server: GatehouseServer, method: string, pathAndQuery: string, opts: CallOptions = {}): Promise<CallResult<T>> {
  const headers = new Headers(opts.headers);
  if (opts.body !== undefined || opts.rawBody !== undefined) headers.set('content-type', headers.get('content-type') ?? 'application/json');
  if (opts.token) headers.set('authorization', `Bearer ${opts.token}`);
  const name = refreshCookieName(server.config.clientId);
  if (opts.cookie !== undefined) headers.set('cookie', `${name}=${opts.cookie}`);
  const res = await server.fetch(
    new Request(`${server.config.publicUrl}${pathAndQuery}`, {
      method,
      headers,
      body: opts.rawBody ?? (opts.body !== undefined ? JSON.stringify(opts.body) : undefined),
    }),
  );
  const text = await res.text();
  let body: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json')) body = text ? JSON.parse(text) : null;
  const setCookie = res.headers.get('set-cookie');
  const match = setCookie ? new RegExp(`${name}=([^;]*)`).exec(setCookie) : null;
  return { status: res.status, body: body as T, headers: res.headers, refreshCookie: match ? match[1] : undefined, setCookie };
}

export type MailboxEntry = DevMailboxEntry;

export async function mailbox(server: GatehouseServer): Promise<MailboxEntry[]> {
  return (await call<MailboxEntry[]>(server, 'GET', '/dev/mailbox.json')).body;
}

/** The activation link's userId and token from the newest email to `to`. */
export async function activationLinkFor(server: GatehouseServer, to: string): Promise<{ userId: string; token: string; link: string }> {
  const mail = (await mailbox(server)).find((m) => m.to === to);
  if (!mail) throw new Error(`no mail to ${to}`);
  const link = /https?:\/\/\S+\/account\/activate\?\S+/.exec(mail.text)?.[0];
  if (!link) throw new Error('no activation link in mail');
  const u = new URL(link);
  return { userId: u.searchParams.get('userId')!, token: u.searchParams.get('token')!, link };
}

export const PASSWORD = 'correct horse battery';

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}@example.com`;
}

/**
 * Signs up, activates through the emailed link and returns the login response and cookie. With no
 * `extra`, the link is opened in the signing-up browser (its `gatehouse-signup` cookie): activation
 * then keeps the sign-up's argon2id hash instead of hashing the password a second time, and as the
 * sign-up sends no profile field, the account ends as the other path leaves it (the email's local
 * part as its name, the tenant named after the domain). Both paths are tested in
 * routes/users/signup.test.ts; here the account is only a fixture.
 */
export async function signUpAndActivate(server: GatehouseServer, email = uniqueEmail(), extra: Record<string, unknown> = {}) {
  const sameBrowser = Object.keys(extra).length === 0;
  const signUp = await call(server, 'POST', '/identity/resources/users/v1/signUp', { body: sameBrowser ? { email, password: PASSWORD } : { email, password: PASSWORD, name: 'Ada Lovelace', ...extra } });
  if (signUp.status !== 200) throw new Error(`sign-up failed: ${JSON.stringify(signUp.body)}`);
  const { userId, token } = await activationLinkFor(server, email);
  const binding = sameBrowser ? signUp.headers.getSetCookie().find((c) => c.startsWith('gatehouse-signup='))?.split(';')[0] : undefined;
  if (sameBrowser && !binding) throw new Error('sign-up set no gatehouse-signup cookie');
  // Otherwise the password is given again at activation, as anyone opening the link outside the
  // signing-up browser must (the sign-up's profile then never applies).
  const activated = binding
    ? await call(server, 'POST', '/identity/resources/users/v1/activate', { body: { userId, token }, headers: { cookie: binding } })
    : await call(server, 'POST', '/identity/resources/users/v1/activate', { body: { userId, token, password: PASSWORD } });
  if (activated.status !== 200) throw new Error(`activate failed: ${JSON.stringify(activated.body)}`);
  return { email, userId, tenantId: signUp.body.tenantId as string, accessToken: activated.body.accessToken as string, cookie: activated.refreshCookie! };
}
