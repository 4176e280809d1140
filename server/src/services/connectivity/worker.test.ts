import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it, vi } from 'vitest';
import type { GatehouseServer } from '../../app';
import { newId } from '../../crypto';
import type { Db } from '../../db';
import { claimEvents, claimJobs, LEASE_EXPIRED_ERROR } from '../../db/queries/connectivity-queue';
import type { Logger } from '../../log';
import { insertNotification, setNotificationState } from '../../db/queries/notifications';
import { describeDialects, movableClock, signUpAndActivate } from '../../test/harness';
import { raiseEvent } from './events';
import { cancelJobsForTarget, enqueueJob, retryJobNow, type ClaimedJob, type JobHandler, type JobResult } from './jobs';
import { createConnectivityWorker, DEFAULT_LEASE_MS, DEFAULT_RETENTION_MS, dispatchRetryDelayMs, MAX_DISPATCH_ATTEMPTS, NOTIFICATION_RETENTION_MS, RUN_TIMED_OUT_ERROR, runDeadlineFor, type EventConsumer } from './worker';

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

async function newTenant(db: Db, now: number): Promise<string> {
  const id = newId();
  await db.insertInto('tenants').values({ id, name: `t-${id.slice(0, 6)}`, is_reseller: 0, application_url: null, metadata: null, created_at: now }).execute();
  return id;
}

function jobRow(db: Db, id: string) {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** A handler of `kind` 'sms' that answers from `answer` and records every attempt. */
function recordingHandler(answer: (job: ClaimedJob) => JobResult | Promise<JobResult>, retryDelaysMs: readonly number[] = [1_000, 5_000, 60_000]) {
  const runs: ClaimedJob[] = [];
  const gaveUp: { job: ClaimedJob; error: string }[] = [];
  const handler: JobHandler = {
    kind: 'sms',
    retryDelaysMs,
    async run(job) {
      runs.push(job);
      return answer(job);
    },
    async onGiveUp(job, error) {
      gaveUp.push({ job, error });
    },
  };
  return { handler, runs, gaveUp };
}

describeDialects('connectivity worker: the delivery queue', (harness) => {
  // Two servers on the same database: two pools, so two separate connections, as two processes have.
  const twoProcesses = async (clock = movableClock()) => {
    const a = await harness.start({}, { clock });
    const b = await harness.start({}, { clock });
    return { a, b, clock };
  };
  /** One server, for the tests that need no second process (a server start is one pool more to open and close). */
  const oneProcess = async (clock = movableClock()) => ({ a: await harness.start({}, { clock }), clock });

  it('two workers on separate connections claim disjoint jobs: every job runs exactly once', async () => {
    const { a, b, clock } = await twoProcesses();
    const tenantId = await newTenant(a.db, clock.now());
    const ids = new Set<string>();
    for (let i = 0; i < 40; i++) ids.add(await enqueueJob(a.db, { kind: 'sms', tenantId, targetId: `t${i}`, payload: { i }, dueAt: clock.now() }));
    const slow = () => sleep(5).then(() => ({ ok: true }) as const);
    const one = recordingHandler(slow);
    const two = recordingHandler(slow);
    const workerA = createConnectivityWorker({ db: a.db, clock, batchSize: 5, log: quiet });
    const workerB = createConnectivityWorker({ db: b.db, clock, batchSize: 5, log: quiet });
    workerA.addHandler(one.handler);
    workerB.addHandler(two.handler);
    const [ranA, ranB] = await Promise.all([workerA.runDue(), workerB.runDue()]);
    const all = [...one.runs, ...two.runs].map((j) => j.id);
    expect(all.length).toBe(40);
    expect(new Set(all)).toEqual(ids);
    expect(ranA.ran + ranB.ran).toBe(40);
    expect(one.runs.length).toBeGreaterThan(0);
    expect(two.runs.length).toBeGreaterThan(0);
    const statuses = await a.db.selectFrom('jobs').select(['status', 'attempt']).where('tenant_id', '=', tenantId).execute();
    expect(statuses.every((s) => s.status === 'succeeded' && Number(s.attempt) === 1)).toBe(true);
  });

  it('claims made at the same time from two connections never share a job', async () => {
    const { a, b, clock } = await twoProcesses();
    const tenantId = await newTenant(a.db, clock.now());
    for (let i = 0; i < 30; i++) await enqueueJob(a.db, { kind: 'email', tenantId, targetId: `t${i}`, payload: null, dueAt: clock.now() });
    const claims = await Promise.all(Array.from({ length: 6 }, (_, i) => claimJobs(i % 2 ? a.db : b.db, ['email'], clock.now(), 60_000, `token-${i}`, 7)));
    const claimed = claims.flat().map((r) => r.id);
    expect(claimed.length).toBe(30);
    expect(new Set(claimed).size).toBe(30);
  });

  it('a job whose claimant died is claimed again once its lease has run out, as attempt 2, and not before', async () => {
    const { a, b, clock } = await twoProcesses();
    const tenantId = await newTenant(a.db, clock.now());
    const id = await enqueueJob(a.db, { kind: 'sms', tenantId, targetId: 'x', payload: { hello: 'world' }, dueAt: clock.now() });
    // Process A claims it and dies before recording anything.
    const [dead] = await claimJobs(a.db, ['sms'], clock.now(), DEFAULT_LEASE_MS, 'process-a', 10);
    expect(dead?.id).toBe(id);
    const { handler, runs } = recordingHandler(() => ({ ok: true }));
    const workerB = createConnectivityWorker({ db: b.db, clock, log: quiet });
    workerB.addHandler(handler);
    expect(await workerB.runDue()).toEqual({ dispatched: 0, ran: 0 });
    clock.advance(DEFAULT_LEASE_MS - 1);
    expect((await workerB.runDue()).ran).toBe(0);
    clock.advance(1);
    expect((await workerB.runDue()).ran).toBe(1);
    expect(runs.map((r) => [r.id, r.attempt, r.payload])).toEqual([[id, 2, { hello: 'world' }]]);
    expect(await jobRow(a.db, id)).toMatchObject({ status: 'succeeded', lease_until: null, lease_token: null });
  });

  it('a job that kills every process running it is claimed again only until its schedule is spent, then failed without running and onGiveUp called once', async () => {
    const { a, clock } = await oneProcess();
    const tenantId = await newTenant(a.db, clock.now());
    const id = await enqueueJob(a.db, { kind: 'sms', tenantId, targetId: 'x', payload: null, dueAt: clock.now() });
    // Two attempts on the schedule ([1 s]); each claimant dies before recording anything.
    for (const token of ['dies-1', 'dies-2']) {
      expect((await claimJobs(a.db, ['sms'], clock.now(), DEFAULT_LEASE_MS, token, 10)).map((r) => r.id)).toEqual([id]);
      clock.advance(DEFAULT_LEASE_MS);
    }
    const { handler, runs, gaveUp } = recordingHandler(() => ({ ok: true }), [1_000]);
    const worker = createConnectivityWorker({ db: a.db, clock, log: quiet });
    worker.addHandler(handler);
    await worker.runDue();
    expect(runs).toEqual([]);
    expect(gaveUp.map((g) => [g.job.id, g.job.attempt])).toEqual([[id, 3]]);
    expect(gaveUp[0]!.error).toContain(LEASE_EXPIRED_ERROR);
    expect(await jobRow(a.db, id)).toMatchObject({ status: 'failed', attempt: 3, lease_until: null });
    clock.advance(DEFAULT_LEASE_MS * 10);
    expect((await worker.runDue()).ran).toBe(0);
    expect(gaveUp).toHaveLength(1);
  });

  it('a job claimed again after one lost lease still runs while its schedule lasts', async () => {
    const { a, clock } = await oneProcess();
    const tenantId = await newTenant(a.db, clock.now());
    const id = await enqueueJob(a.db, { kind: 'sms', tenantId, targetId: 'x', payload: null, dueAt: clock.now() });
    await claimJobs(a.db, ['sms'], clock.now(), DEFAULT_LEASE_MS, 'dies', 10);
    clock.advance(DEFAULT_LEASE_MS);
    const { handler, runs, gaveUp } = recordingHandler(() => ({ ok: true }), [1_000]);
    const worker = createConnectivityWorker({ db: a.db, clock, log: quiet });
    worker.addHandler(handler);
    await worker.runDue();
    expect(runs.map((r) => r.attempt)).toEqual([2]);
    expect(gaveUp).toEqual([]);
    expect(await jobRow(a.db, id)).toMatchObject({ status: 'succeeded', last_error: null });
  });

  it('a handler that runs past its deadline (lease - 5 s, at least 1 s) is a failed attempt, timed out, and does not hold the pass', async () => {
    const { a, clock } = await oneProcess();
    const tenantId = await newTenant(a.db, clock.now());
    const slowId = await enqueueJob(a.db, { kind: 'sms', tenantId, targetId: 'slow', payload: null, dueAt: clock.now() });
    const { handler, runs, gaveUp } = recordingHandler(async (job) => {
      if (job.targetId === 'slow') await sleep(4_000);
      return { ok: true };
    }, [1_000]);
    // A 2 s lease: the run gets 1 s.
    const worker = createConnectivityWorker({ db: a.db, clock, leaseMs: 2_000, log: quiet });
    worker.addHandler(handler);
    /**
     * One pass with the run deadline's setTimeout on a fake clock (the handler's 4 s sleep, the
     * database and Date stay real): still running 1 ms before the 1 s deadline, over at it, while
     * the handler sleeps on.
     */
    const passUntilDeadline = async (attempt: number) => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        let finished = false;
        const pass = worker.runDue().finally(() => (finished = true));
        // Waited for on the real clock: vi.waitFor would move the fake one.
        while (runs.length < attempt) await sleep(5);
        await vi.advanceTimersByTimeAsync(999);
        expect(finished, 'the pass waits for the run until its deadline').toBe(false);
        await vi.advanceTimersByTimeAsync(1);
        return await pass;
      } finally {
        vi.useRealTimers();
      }
    };
    expect((await passUntilDeadline(1)).ran).toBe(1);
    expect(await jobRow(a.db, slowId)).toMatchObject({ status: 'pending', attempt: 1, last_error: RUN_TIMED_OUT_ERROR, lease_until: null, next_attempt_at: clock.now() + 1_000 });
    // Timed out again on the last attempt: given up once.
    clock.advance(1_000);
    expect((await passUntilDeadline(2)).ran).toBe(1);
    expect(runs).toHaveLength(2);
    expect(gaveUp.map((g) => g.error)).toEqual([RUN_TIMED_OUT_ERROR]);
    expect((await jobRow(a.db, slowId)).status).toBe('failed');
    expect(runDeadlineFor(DEFAULT_LEASE_MS)).toBe(55_000);
    expect(runDeadlineFor(3_000)).toBe(1_000);
  });

  it("a claimant whose lease was taken over records nothing: the new claimant's outcome stands", async () => {
    const { a, clock } = await oneProcess();
    const tenantId = await newTenant(a.db, clock.now());
    const id = await enqueueJob(a.db, { kind: 'sms', tenantId, targetId: 'x', payload: null, dueAt: clock.now() });
    let release!: () => void;
    const stuck = new Promise<void>((resolve) => (release = resolve));
    const first = recordingHandler(async () => {
      await stuck;
      return { ok: false, error: 'late answer' };
    });
    const hung = createConnectivityWorker({ db: a.db, clock, log: quiet });
    hung.addHandler(first.handler);
    const hungPass = hung.runDue();
    await sleep(50);
    clock.advance(DEFAULT_LEASE_MS);
    const second = recordingHandler(() => ({ ok: true }));
    const healthy = createConnectivityWorker({ db: a.db, clock, log: quiet });
    healthy.addHandler(second.handler);
    expect((await healthy.runDue()).ran).toBe(1);
    release();
    await hungPass;
    expect(await jobRow(a.db, id)).toMatchObject({ status: 'succeeded', attempt: 2, last_error: null });
    expect(first.gaveUp).toEqual([]);
  });

  it("follows the handler's retry schedule with a moved clock, then gives up once and calls onGiveUp once", async () => {
    const { a, clock } = await oneProcess();
    const tenantId = await newTenant(a.db, clock.now());
    const id = await enqueueJob(a.db, { kind: 'sms', tenantId, targetId: 'x', payload: null, dueAt: clock.now() });
    const { handler, runs, gaveUp } = recordingHandler((job) => ({ ok: false, error: `refused #${job.attempt}` }), [1_000, 5_000, 60_000]);
    const worker = createConnectivityWorker({ db: a.db, clock, log: quiet });
    worker.addHandler(handler);
    const start = clock.now();
    expect((await worker.runDue()).ran).toBe(1);
    expect(await jobRow(a.db, id)).toMatchObject({ status: 'pending', attempt: 1, next_attempt_at: start + 1_000, last_error: 'refused #1' });
    for (const [delay, attempt] of [[1_000, 2], [5_000, 3], [60_000, 4]] as const) {
      clock.advance(delay - 1);
      expect((await worker.runDue()).ran).toBe(0);
      clock.advance(1);
      expect((await worker.runDue()).ran).toBe(1);
      expect(runs.at(-1)?.attempt).toBe(attempt);
    }
    const after = clock.now();
    expect(await jobRow(a.db, id)).toMatchObject({ status: 'failed', attempt: 4, last_error: 'refused #4' });
    clock.advance(24 * 3_600_000);
    expect((await worker.runDue()).ran).toBe(0);
    expect(runs.length).toBe(4);
    expect(gaveUp.map((g) => [g.job.id, g.job.attempt, g.error])).toEqual([[id, 4, 'refused #4']]);
    expect(Number((await jobRow(a.db, id)).updated_at)).toBe(after);
  });

  it('a thrown handler error counts as a failed attempt; success after failures ends as succeeded', async () => {
    const { a, clock } = await oneProcess();
    const tenantId = await newTenant(a.db, clock.now());
    const id = await enqueueJob(a.db, { kind: 'sms', tenantId, targetId: 'x', payload: null, dueAt: clock.now() });
    const { handler, gaveUp } = recordingHandler((job) => {
      if (job.attempt === 1) throw new Error('socket hang up');
      return job.attempt === 2 ? { ok: false, error: 'timed out after 15 s' } : { ok: true };
    });
    const worker = createConnectivityWorker({ db: a.db, clock, log: quiet });
    worker.addHandler(handler);
    await worker.runDue();
    expect(await jobRow(a.db, id)).toMatchObject({ status: 'pending', last_error: 'socket hang up' });
    clock.advance(1_000);
    await worker.runDue();
    expect(await jobRow(a.db, id)).toMatchObject({ status: 'pending', last_error: 'timed out after 15 s' });
    clock.advance(5_000);
    await worker.runDue();
    expect(await jobRow(a.db, id)).toMatchObject({ status: 'succeeded', attempt: 3, last_error: null });
    expect(gaveUp).toEqual([]);
  });

  it('retry: false gives up at once, whatever the schedule left', async () => {
    const { a, clock } = await oneProcess();
    const tenantId = await newTenant(a.db, clock.now());
    const id = await enqueueJob(a.db, { kind: 'sms', tenantId, targetId: 'x', payload: null, dueAt: clock.now() });
    const { handler, runs, gaveUp } = recordingHandler(() => ({ ok: false, error: 'webhook-delivery: abort-message', retry: false }));
    const worker = createConnectivityWorker({ db: a.db, clock, log: quiet });
    worker.addHandler(handler);
    await worker.runDue();
    clock.advance(3_600_000);
    await worker.runDue();
    expect(runs.length).toBe(1);
    expect(await jobRow(a.db, id)).toMatchObject({ status: 'failed', attempt: 1, last_error: 'webhook-delivery: abort-message' });
    expect(gaveUp.map((g) => g.error)).toEqual(['webhook-delivery: abort-message']);
  });

  it('retryJobNow puts a finished job back to pending, due now; it refuses a job still pending', async () => {
    const { a, clock } = await oneProcess();
    const tenantId = await newTenant(a.db, clock.now());
    const id = await enqueueJob(a.db, { kind: 'sms', tenantId, targetId: 'x', payload: null, dueAt: clock.now() + 10_000 });
    expect(await retryJobNow(a.db, id, clock.now())).toBe(false);
    let answer: JobResult = { ok: false, error: 'down', retry: false };
    const { handler, runs } = recordingHandler(() => answer);
    const worker = createConnectivityWorker({ db: a.db, clock, log: quiet });
    worker.addHandler(handler);
    clock.advance(10_000);
    await worker.runDue();
    expect((await jobRow(a.db, id)).status).toBe('failed');
    clock.advance(60_000);
    expect(await retryJobNow(a.db, id, clock.now())).toBe(true);
    expect(await jobRow(a.db, id)).toMatchObject({ status: 'pending', next_attempt_at: clock.now() });
    answer = { ok: true };
    expect((await worker.runDue()).ran).toBe(1);
    expect(runs.map((r) => r.attempt)).toEqual([1, 2]);
    expect((await jobRow(a.db, id)).status).toBe('succeeded');
    expect(await retryJobNow(a.db, 'no-such-job', clock.now())).toBe(false);
  });

  it("cancelJobsForTarget cancels that target's pending jobs of that kind only", async () => {
    const { a, clock } = await oneProcess();
    const tenantId = await newTenant(a.db, clock.now());
    const gone1 = await enqueueJob(a.db, { kind: 'webhook', tenantId, targetId: 'endpoint-1', payload: null, dueAt: clock.now() });
    const gone2 = await enqueueJob(a.db, { kind: 'webhook', tenantId, targetId: 'endpoint-1', payload: null, dueAt: clock.now() + 5_000 });
    const otherTarget = await enqueueJob(a.db, { kind: 'webhook', tenantId, targetId: 'endpoint-2', payload: null, dueAt: clock.now() });
    const otherKind = await enqueueJob(a.db, { kind: 'email', tenantId, targetId: 'endpoint-1', payload: null, dueAt: clock.now() });
    expect(await cancelJobsForTarget(a.db, 'webhook', 'endpoint-1', clock.now())).toBe(2);
    const status = async (id: string) => (await jobRow(a.db, id)).status;
    expect([await status(gone1), await status(gone2), await status(otherTarget), await status(otherKind)]).toEqual(['cancelled', 'cancelled', 'pending', 'pending']);
    const { handler, runs } = recordingHandler(() => ({ ok: true }));
    const worker = createConnectivityWorker({ db: a.db, clock, log: quiet });
    worker.addHandler({ ...handler, kind: 'webhook' });
    clock.advance(10_000);
    await worker.runDue();
    expect(runs.map((r) => r.id)).toEqual([otherTarget]);
  });

  it('a worker claims only the kinds it has handlers for', async () => {
    const { a, clock } = await oneProcess();
    const tenantId = await newTenant(a.db, clock.now());
    const report = await enqueueJob(a.db, { kind: 'report', tenantId, targetId: 'r', payload: null, dueAt: clock.now() });
    const worker = createConnectivityWorker({ db: a.db, clock, log: quiet });
    worker.addHandler(recordingHandler(() => ({ ok: true })).handler);
    expect((await worker.runDue()).ran).toBe(0);
    expect((await jobRow(a.db, report)).status).toBe('pending');
  });

  it('prunes finished jobs and dispatched events past the retention, keeping an event while a job of it may still run', async () => {
    const { a, clock } = await oneProcess();
    const tenantId = await newTenant(a.db, clock.now());
    const raise = async () => (await raiseEvent(a.db, { tenantId, key: 'user.deleted', data: { userId: 'u', email: null }, actor: null }, clock.now())).id;
    const [done, waiting] = [await raise(), await raise()];
    const finished = await enqueueJob(a.db, { kind: 'sms', tenantId, targetId: 'x', eventId: done, payload: null, dueAt: clock.now() });
    const pending = await enqueueJob(a.db, { kind: 'report', tenantId, targetId: 'r', eventId: waiting, payload: null, dueAt: clock.now() + 40 * 86_400_000 });
    const worker = createConnectivityWorker({ db: a.db, clock, log: quiet });
    worker.addHandler(recordingHandler(() => ({ ok: true })).handler);
    await worker.runDue();
    expect((await jobRow(a.db, finished)).status).toBe('succeeded');
    clock.advance(DEFAULT_RETENTION_MS - 1);
    await worker.runDue();
    const ids = async (table: 'jobs' | 'events') => (await a.db.selectFrom(table).select('id').where('tenant_id', '=', tenantId).execute()).map((r) => r.id).sort();
    expect(await ids('jobs')).toEqual([finished, pending].sort());
    // A process prunes at most once an hour.
    clock.advance(3_600_000);
    const fresh = await raise();
    await worker.runDue();
    expect(await ids('jobs')).toEqual([pending]);
    expect(await ids('events')).toEqual([waiting, fresh].sort());
  });

  it('prunes notifications older than 90 days unless a reader pinned them, with their read states', async () => {
    const { a, clock } = await oneProcess();
    const admin = await signUpAndActivate(a);
    const day = 86_400_000;
    const note = async (title: string, createdAt: number) => {
      const id = newId();
      await insertNotification(a.db, { id, tenant_id: admin.tenantId, category: 'security', severity: 'info', title, body: '', link: null, dedupe_key: null, created_at: createdAt });
      return id;
    };
    const [, oldRead, oldPinned, recent] = [await note('old', clock.now()), await note('old, read', clock.now()), await note('old, pinned', clock.now()), await note('recent', clock.now() + 60 * day)];
    await setNotificationState(a.db, { notificationId: oldRead, userId: admin.userId, readAt: clock.now(), now: clock.now() });
    await setNotificationState(a.db, { notificationId: oldPinned, userId: admin.userId, pinnedAt: clock.now(), now: clock.now() });
    clock.advance(NOTIFICATION_RETENTION_MS + day);
    await createConnectivityWorker({ db: a.db, clock, log: quiet }).runDue();
    const left = (await a.db.selectFrom('notifications').select('id').where('tenant_id', '=', admin.tenantId).execute()).map((r) => r.id).sort();
    expect(left).toEqual([oldPinned, recent].sort());
    const states = await a.db.selectFrom('notification_states').select('notification_id').where('user_id', '=', admin.userId).execute();
    expect(states.map((r) => r.notification_id)).toEqual([oldPinned]);
  });

  it('stop() waits for the jobs in flight and start() polls until stopped', async () => {
    const { a, clock } = await oneProcess();
    const tenantId = await newTenant(a.db, clock.now());
    const id = await enqueueJob(a.db, { kind: 'sms', tenantId, targetId: 'x', payload: null, dueAt: clock.now() });
    const { handler } = recordingHandler(() => sleep(100).then(() => ({ ok: true }) as const));
    const worker = createConnectivityWorker({ db: a.db, clock, log: quiet });
    worker.addHandler(handler);
    worker.start(10);
    await expect.poll(async () => (await jobRow(a.db, id)).status, { timeout: 5_000 }).toBe('running');
    await worker.stop();
    expect((await jobRow(a.db, id)).status).toBe('succeeded');
  });
});

describeDialects('connectivity worker: dispatching events to consumers', (harness) => {
  /** A consumer that queues one 'email' job per event, in the dispatch transaction. */
  const queueing = (name = 'queueing'): EventConsumer => ({
    name,
    async fanOut(trx, event, now) {
      await enqueueJob(trx, { kind: 'email', tenantId: event.tenantId, targetId: name, eventId: event.id, payload: { key: event.key }, dueAt: now });
    },
  });
  const jobsOf = (server: GatehouseServer, eventId: string) => server.db.selectFrom('jobs').select(['target_id', 'payload']).where('event_id', '=', eventId).orderBy('target_id').execute();
  const eventRow = (server: GatehouseServer, id: string) => server.db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('raiseEvent inside a transaction that rolls back raises nothing; one that commits is dispatched once with its jobs', async () => {
    const clock = movableClock();
    const server = await harness.start({}, { clock });
    const tenantId = await newTenant(server.db, clock.now());
    let rolledBack = '';
    await expect(
      server.db.transaction().execute(async (trx) => {
        rolledBack = (await raiseEvent(trx, { tenantId, key: 'role.created', data: { roleId: 'r1', key: 'k', name: 'n' }, actor: null }, clock.now())).id;
        throw new Error('the change failed after the event was written');
      }),
    ).rejects.toThrow('the change failed');
    expect(await server.db.selectFrom('events').select('id').where('id', '=', rolledBack).executeTakeFirst()).toBeUndefined();

    const raised = await server.db.transaction().execute((trx) =>
      raiseEvent(trx, { tenantId, key: 'group.users_updated', data: { groupId: 'g1', addedUserIds: ['u1'], removedUserIds: [] }, actor: { userId: 'u0', email: 'a@example.com' } }, clock.now()),
    );
    const stored = await eventRow(server, raised.id);
    expect(stored).toMatchObject({ tenant_id: tenantId, event_key: 'group.users_updated', dispatched_at: null, occurred_at: clock.now() });
    expect(JSON.parse(stored.data)).toEqual({ groupId: 'g1', addedUserIds: ['u1'], removedUserIds: [] });
    expect(JSON.parse(stored.actor!)).toEqual({ userId: 'u0', email: 'a@example.com' });

    const worker = createConnectivityWorker({ db: server.db, clock, log: quiet });
    const seen: string[] = [];
    worker.addConsumer(queueing());
    worker.addConsumer({ name: 'recorder', fanOut: async (_trx, event) => void seen.push(`${event.key}:${JSON.stringify(event.actor)}`) });
    expect((await worker.runDue()).dispatched).toBe(1);
    expect((await worker.runDue()).dispatched).toBe(0);
    expect(seen).toEqual(['group.users_updated:{"userId":"u0","email":"a@example.com"}']);
    expect((await eventRow(server, raised.id)).dispatched_at).toBe(clock.now());
    expect(await jobsOf(server, raised.id)).toEqual([{ target_id: 'queueing', payload: '{"key":"group.users_updated"}' }]);
  });

  it("a consumer that throws leaves the event undispatched with none of the other consumers' jobs, and it is retried on a later pass", async () => {
    const clock = movableClock();
    const server = await harness.start({}, { clock });
    const tenantId = await newTenant(server.db, clock.now());
    const event = await raiseEvent(server.db, { tenantId, key: 'user.locked', data: { userId: 'u1', email: null, reason: 'admin' }, actor: null }, clock.now());
    let broken = true;
    const worker = createConnectivityWorker({ db: server.db, clock, log: quiet });
    worker.addConsumer(queueing('first'));
    worker.addConsumer({
      name: 'flaky',
      async fanOut() {
        if (broken) throw new Error('template missing');
      },
    });
    expect((await worker.runDue()).dispatched).toBe(0);
    expect(await eventRow(server, event.id)).toMatchObject({ dispatched_at: null, dispatch_attempts: 1, dispatch_error: 'flaky: template missing' });
    expect(await jobsOf(server, event.id)).toEqual([]);
    // Waits out its back-off rather than being retried in a tight loop.
    clock.advance(dispatchRetryDelayMs(1) - 1);
    expect((await worker.runDue()).dispatched).toBe(0);
    broken = false;
    clock.advance(1);
    expect((await worker.runDue()).dispatched).toBe(1);
    expect(await jobsOf(server, event.id)).toEqual([{ target_id: 'first', payload: '{"key":"user.locked"}' }]);
  });

  it('a poison event is given up after the last attempt (the healthy consumers still get it, the error is kept and logged) and never blocks other events', async () => {
    const clock = movableClock();
    const server = await harness.start({}, { clock });
    const tenantId = await newTenant(server.db, clock.now());
    const poison = await raiseEvent(server.db, { tenantId, key: 'role.deleted', data: { roleId: 'r', key: 'k', name: 'n' }, actor: null }, clock.now());
    clock.advance(1);
    const fine = await raiseEvent(server.db, { tenantId, key: 'role.created', data: { roleId: 'r2', key: 'k2', name: 'n2' }, actor: null }, clock.now());
    const logged: string[] = [];
    const worker = createConnectivityWorker({ db: server.db, clock, log: { ...quiet, error: (...parts) => void logged.push(parts.join(' ')) } });
    worker.addConsumer(queueing('healthy'));
    worker.addConsumer({
      name: 'poisoned',
      async fanOut(_trx, event) {
        if (event.key === 'role.deleted') throw new Error('cannot render');
      },
    });
    expect((await worker.runDue()).dispatched).toBe(1);
    expect((await eventRow(server, fine.id)).dispatched_at).not.toBeNull();
    for (let attempt = 1; attempt < MAX_DISPATCH_ATTEMPTS; attempt++) {
      expect((await eventRow(server, poison.id)).dispatched_at).toBeNull();
      clock.advance(dispatchRetryDelayMs(attempt));
      await worker.runDue();
    }
    const given = await eventRow(server, poison.id);
    expect(given.dispatched_at).toBe(clock.now());
    expect(given.dispatch_error).toBe(`given up after ${MAX_DISPATCH_ATTEMPTS} attempts; poisoned: cannot render`);
    expect(await jobsOf(server, poison.id)).toEqual([{ target_id: 'healthy', payload: '{"key":"role.deleted"}' }]);
    expect(logged.some((line) => line.includes(poison.id) && line.includes('cannot render'))).toBe(true);
  });

  it('event claims made at the same time from two connections never share an event', async () => {
    const clock = movableClock();
    const a = await harness.start({}, { clock });
    const b = await harness.start({}, { clock });
    const tenantId = await newTenant(a.db, clock.now());
    for (let i = 0; i < 25; i++) await raiseEvent(a.db, { tenantId, key: 'user.deleted', data: { userId: `u${i}`, email: null }, actor: null }, clock.now());
    const claims = await Promise.all(Array.from({ length: 6 }, (_, i) => claimEvents(i % 2 ? a.db : b.db, clock.now(), 60_000, `token-${i}`, 6)));
    const claimed = claims.flat().map((r) => r.id);
    expect(claimed.length).toBe(25);
    expect(new Set(claimed).size).toBe(25);
  });

  // PostgreSQL only: two SQLite connections in one Node process cannot both hold transactions (the
  // driver waits for the lock synchronously, blocking the event loop the other needs to finish);
  // separate processes on one SQLite file each wait their turn, and the claim above covers SQLite.
  it.skipIf(harness.dialect === 'sqlite')('two workers dispatching at once hand each event to the consumers exactly once', async () => {
    const clock = movableClock();
    const a = await harness.start({}, { clock });
    const b = await harness.start({}, { clock });
    const tenantId = await newTenant(a.db, clock.now());
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push((await raiseEvent(a.db, { tenantId, key: 'user.signed_in', data: { userId: `u${i}`, email: null, method: 'password' }, actor: null }, clock.now())).id);
    const workerA = createConnectivityWorker({ db: a.db, clock, batchSize: 4, log: quiet });
    const workerB = createConnectivityWorker({ db: b.db, clock, batchSize: 4, log: quiet });
    for (const w of [workerA, workerB]) {
      w.addConsumer(queueing());
      w.addConsumer({ name: 'slow', fanOut: () => sleep(2) });
    }
    const [one, two] = await Promise.all([workerA.runDue(), workerB.runDue()]);
    expect(one.dispatched + two.dispatched).toBe(30);
    const jobs = await a.db.selectFrom('jobs').select('event_id').where('tenant_id', '=', tenantId).execute();
    expect(jobs.map((j) => j.event_id).sort()).toEqual([...ids].sort());
  });
});
