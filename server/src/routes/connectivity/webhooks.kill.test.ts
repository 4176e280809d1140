/**
 * At-least-once delivery across processes (issue 16 "Kill -9 of a server process while deliveries
 * are due: every due delivery is made exactly once or more, none lost"): two real server processes
 * (the build, server/dist/main.js) share one PostgreSQL database, each with its worker running; 200
 * events of a subscribed endpoint are due; once the receiver has seen some, one process is killed
 * with SIGKILL (its claimed deliveries die with it, mid-request); the other takes them over when
 * their lease runs out (CONNECTIVITY_LEASE_MS, short here). Every event id must reach the receiver.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WebhookPaths } from '@gatehouse/shared/wire';
import { afterEach, expect, it } from 'vitest';
import { raiseEvent } from '../../services/connectivity/events';
import { callAs, tenantWithAdmin } from '../../test/admin-helpers';
import { describeDialects } from '../../test/harness';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver';

const MAIN = path.join(import.meta.dirname, '..', '..', '..', 'dist', 'main.js');
const DUE = 200;
const LEASE_MS = 2_000;

async function freePort(): Promise<number> {
  const probe = createHttpServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as AddressInfo;
  await new Promise((r) => probe.close(r));
  return port;
}

interface Child {
  process: ChildProcess;
  output: () => string;
  exited: Promise<NodeJS.Signals | number | null>;
  dataDir: string;
}

/** Starts `node server/dist/main.js` on the database; resolves once it listens (its worker starts with it). */
async function startProcess(databaseUrl: string): Promise<Child> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gatehouse-kill-'));
  const env: Record<string, string> = { ...(process.env as Record<string, string>) };
  const child = spawn(process.execPath, [MAIN], {
    env: { ...env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', GATEHOUSE_PUBLIC_URL: `http://localhost:${port}`, GATEHOUSE_DATA_DIR: dataDir, GATEHOUSE_DEV: '1', NODE_ENV: 'development', CONNECTIVITY_LEASE_MS: String(LEASE_MS) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server process did not start in 30 s:\n${output}`)), 30_000);
    const check = () => {
      if (/listening/i.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    void exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`the server process exited (${how}):\n${output}`));
    });
  });
  return { process: child, output: () => output, exited, dataDir };
}

const children: Child[] = [];
const receivers: WebhookReceiver[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) {
    if (c.process.exitCode === null && c.process.signalCode === null) c.process.kill('SIGKILL');
    await c.exited;
    rmSync(c.dataDir, { recursive: true, force: true });
  }
  await Promise.all(receivers.splice(0).map((r) => r.stop()));
});

describeDialects('webhooks, kill -9 of a delivering process', (harness) => {
  // Two processes on one database: PostgreSQL (CI sets DATABASE_URL); SQLite has one writer process by design.
  it.runIf(harness.dialect === 'postgres')(
    'loses no due delivery when one of two server processes is killed with SIGKILL mid-way',
    async () => {
      if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build the server first (npm run build:server)`);
      // This process only sets up (over HTTP) and raises the events; it does not deliver (its worker is not started).
      const server = await harness.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60' });
      const admin = await tenantWithAdmin(server);
      const receiver = await startWebhookReceiver();
      receivers.push(receiver);
      // A receiver that takes its time, so that deliveries are in flight when the kill comes.
      receiver.respond(() => ({ status: 200, delayMs: 150 }));
      const created = await callAs(server, admin, 'POST', WebhookPaths.webhooks, { body: { url: receiver.url, description: 'kill -9', eventKeys: ['user.created'], isActive: true } });
      expect(created.status).toBe(201);

      const due = new Set<string>();
      await server.db.transaction().execute(async (trx) => {
        for (let i = 0; i < DUE; i++) {
          const event = await raiseEvent(trx, { tenantId: admin.tenantId, key: 'user.created', data: { userId: `kill-${i}`, email: `kill-${i}@example.com` }, actor: null }, Date.now());
          due.add(event.id);
        }
      });

      const databaseUrl = server.config.databaseUrl!;
      const [victim, survivor] = await Promise.all([startProcess(databaseUrl), startProcess(databaseUrl)]);
      children.push(victim!, survivor!);

      const ids = () => receiver.received.map((r) => r.headers['webhook-id']!);
      const distinct = () => new Set(ids().filter((id) => due.has(id))).size;
      // Kill once some deliveries were made, while the rest are due or in flight.
      const killDeadline = Date.now() + 30_000;
      while (receiver.received.length < 30 && Date.now() < killDeadline) await new Promise((r) => setTimeout(r, 10));
      victim!.process.kill('SIGKILL');
      expect(await victim!.exited).toBe('SIGKILL');
      const seenAtKill = distinct();
      expect(seenAtKill).toBeGreaterThan(0);
      expect(seenAtKill).toBeLessThan(DUE);

      // The survivor finishes, taking over the victim's claims once their lease ran out: wait until
      // every event reached the receiver and every delivery job of the endpoint is recorded done.
      const jobsOf = () => server.db.selectFrom('jobs').select(['status']).where('kind', '=', 'webhook').where('target_id', '=', created.body._id).execute();
      const deadline = Date.now() + 90_000;
      let jobs = await jobsOf();
      while ((distinct() < DUE || jobs.length < DUE || jobs.some((j) => j.status !== 'succeeded')) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        jobs = await jobsOf();
      }

      const received = ids();
      const delivered = distinct();
      const lost = [...due].filter((id) => !received.includes(id)).length;
      const duplicated = received.filter((id) => due.has(id)).length - delivered;
      console.log(`webhook kill -9: due=${DUE} delivered=${delivered} duplicated=${duplicated} lost=${lost} (seen at the kill: ${seenAtKill})`);
      expect(lost, survivor!.output().slice(-3000)).toBe(0);
      expect(delivered).toBe(DUE);
      // Every delivery the queue holds ended as a success.
      expect(jobs).toHaveLength(DUE);
      expect(jobs.every((j) => j.status === 'succeeded')).toBe(true);
      // No signature of another endpoint: each request is one of ours.
      expect(new Set(receiver.received.map((r) => r.path))).toEqual(new Set(['/hook']));
    },
    150_000,
  );
});
