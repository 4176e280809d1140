/**
 * The connectivity worker, one in every server process (issue 16): each pass it
 * 1. dispatches undispatched events to the consumers (webhooks, channels, notifications), each
 *    event in one transaction with marking it dispatched, so a consumer's jobs exist exactly when
 *    the event is dispatched;
 * 2. claims due jobs and runs them through their kind's handler, recording success, the next
 *    attempt on the handler's schedule, or giving up.
 * Both claims take a lease, so several processes share the work and a process that dies mid-way
 * leaves its events and jobs to be claimed again once the lease runs out.
 */
import { newId } from '../../crypto';
import type { Clock } from '../../clock';
import type { Db } from '../../db';
import { claimEvents, claimJobs, deferEvent, finishJob, LEASE_EXPIRED_ERROR, markEventDispatched, pruneDispatchedEvents, pruneFinishedJobs, type EventRow, type JobRow } from '../../db/queries/connectivity-queue';
import { pruneOldNotifications } from '../../db/queries/notifications';
import { log as defaultLog, reasonOf, type Logger } from '../../log';
import { eventFromRow, type RaisedEvent } from './events';
import { claimedJobFromRow, nextStep, type ClaimedJob, type JobHandler, type JobKind, type JobResult } from './jobs';

export interface EventConsumer {
  name: string;
  /** runs inside the dispatch transaction; enqueue jobs / write rows through `trx` */
  fanOut(trx: Db, event: RaisedEvent, now: number): Promise<void>;
}

export interface ConnectivityWorker {
  addHandler(handler: JobHandler): void;
  addConsumer(consumer: EventConsumer): void;
  /** One pass: dispatch undispatched events to the consumers (each event exactly once, in one transaction with marking it dispatched), then claim and run due jobs. Tests call this with a moved clock. */
  runDue(): Promise<{ dispatched: number; ran: number }>;
  /** Polls every `intervalMs` (unref'd timer); main.ts starts it in every server process; tests do not start it unless they want to. */
  start(intervalMs?: number): void;
  /** Stops polling and waits for the passes (and so the jobs) in flight. */
  stop(): Promise<void>;
}

export interface WorkerOptions {
  db: Db;
  clock: Clock;
  /** How long a claim holds an event or a job; longer than any handler's run (webhooks time out at 15 s). */
  leaseMs?: number;
  /** Jobs claimed and run together in one batch. */
  batchSize?: number;
  /** Dispatch attempts of an event before the consumers that keep failing are given up on. */
  maxDispatchAttempts?: number;
  /** How long finished jobs and dispatched events are kept (an event also while a job of it may run). */
  retentionMs?: number;
  log?: Logger;
}

export const DEFAULT_LEASE_MS = 60_000;
export const DEFAULT_POLL_INTERVAL_MS = 1_000;
export const DEFAULT_BATCH_SIZE = 20;
export const MAX_DISPATCH_ATTEMPTS = 5;
/** Finished jobs and dispatched events are kept 30 days: longer than any retry schedule (webhooks: about 42 h; a monthly report job waits up to 31 days, but has no event). */
export const DEFAULT_RETENTION_MS = 30 * 86_400_000;
/** Notifications are kept 90 days, pinned ones until unpinned (the bell is a recent history, the audit log the record). */
export const NOTIFICATION_RETENTION_MS = 90 * 86_400_000;
/** A process prunes at most once an hour, in batches, so a pass stays short. */
const PRUNE_INTERVAL_MS = 3_600_000;
const PRUNE_BATCH = 1_000;
const PRUNE_MAX_BATCHES = 20;
/** Wait before the next dispatch of an event whose consumer failed: 5 s, doubling, at most 10 min. */
export function dispatchRetryDelayMs(attempts: number): number {
  return Math.min(5_000 * 2 ** Math.max(0, attempts - 1), 600_000);
}
/** How long a handler's run may take: 5 s less than the lease (at least 1 s), so a slow run is recorded as failed before another process may claim the job. */
export function runDeadlineFor(leaseMs: number): number {
  return Math.max(1_000, leaseMs - 5_000);
}
export const RUN_TIMED_OUT_ERROR = 'timed out';
/** Claims per pass, so one pass ends even while events keep arriving. */
const MAX_ROUNDS = 50;
const MAX_ERROR_CHARS = 2_000;

/** Raised inside a dispatch transaction whose claim was taken over: the transaction rolls back. */
class LostClaim extends Error {}

/** Builds the worker of one server process. */
export function createConnectivityWorker(options: WorkerOptions): ConnectivityWorker {
  const { db, clock } = options;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const maxDispatchAttempts = options.maxDispatchAttempts ?? MAX_DISPATCH_ATTEMPTS;
  const log = options.log ?? defaultLog;
  const retentionMs = options.retentionMs ?? DEFAULT_RETENTION_MS;
  const runDeadlineMs = runDeadlineFor(leaseMs);
  let prunedAt = Number.NEGATIVE_INFINITY;
  const handlers = new Map<JobKind, JobHandler>();
  const consumers: EventConsumer[] = [];
  const inFlight = new Set<Promise<unknown>>();
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  async function dispatchOne(row: EventRow, token: string): Promise<boolean> {
    const event = eventFromRow(row);
    const now = clock.now();
    let failing = '';
    try {
      await db.transaction().execute(async (trx) => {
        for (const consumer of consumers) {
          failing = consumer.name;
          await consumer.fanOut(trx, event, now);
        }
        failing = '';
        if (!(await markEventDispatched(trx, event.id, token, now, null))) throw new LostClaim();
      });
      return true;
    } catch (err) {
      if (err instanceof LostClaim) return false;
      const error = clip(`${failing || 'dispatch'}: ${reasonOf(err)}`);
      if (Number(row.dispatch_attempts) < maxDispatchAttempts) {
        log.warn('connectivity: event', event.id, event.key, 'not dispatched, retried later:', error);
        await deferEvent(db, event.id, token, clock.now() + dispatchRetryDelayMs(Number(row.dispatch_attempts)), error);
        return false;
      }
      return giveUpEvent(event, token, now);
    }
  }

  /**
   * The last attempt at a poison event: each consumer in its own transaction, so the consumers
   * that work still get the event; the ones that fail are named in dispatch_error and logged.
   */
  async function giveUpEvent(event: RaisedEvent, token: string, now: number): Promise<boolean> {
    const failed: string[] = [];
    for (const consumer of consumers) {
      try {
        await db.transaction().execute((trx) => consumer.fanOut(trx, event, now));
      } catch (err) {
        failed.push(`${consumer.name}: ${reasonOf(err)}`);
      }
    }
    const error = failed.length > 0 ? clip(`given up after ${maxDispatchAttempts} attempts; ${failed.join('; ')}`) : null;
    if (error) log.error('connectivity: event', event.id, event.key, 'dispatched without some consumers:', error);
    return markEventDispatched(db, event.id, token, clock.now(), error);
  }

  async function dispatchPass(): Promise<number> {
    let dispatched = 0;
    for (let round = 0; round < MAX_ROUNDS && !stopped; round++) {
      const token = newId();
      const rows = await claimEvents(db, clock.now(), leaseMs, token, batchSize);
      if (rows.length === 0) break;
      for (const row of rows) if (await dispatchOne(row, token)) dispatched++;
    }
    return dispatched;
  }

  async function runJob(row: JobRow, token: string): Promise<void> {
    const handler = handlers.get(row.kind as JobKind);
    if (!handler) return; // claimed only for registered kinds
    let job: ClaimedJob;
    let result: JobResult;
    try {
      job = claimedJobFromRow(row);
    } catch (err) {
      await finishJob(db, row.id, token, { status: 'failed', error: clip(`unreadable payload: ${reasonOf(err)}`) }, clock.now());
      return;
    }
    if (row.last_error === LEASE_EXPIRED_ERROR && job.attempt > handler.retryDelaysMs.length + 1) {
      // Claimed again after a lease ran out, past its schedule: a job that kills or hangs every process that runs it is not run again.
      await giveUp(handler, job, row.id, token, `given up after ${job.attempt - 1} attempts: ${LEASE_EXPIRED_ERROR}`, clock.now());
      return;
    }
    try {
      result = await withDeadline(handler.run(job, clock.now()), runDeadlineMs);
    } catch (err) {
      result = { ok: false, error: reasonOf(err) };
    }
    const now = clock.now();
    if (result.ok) {
      await finishJob(db, row.id, token, { status: 'succeeded', error: null }, now);
      return;
    }
    const error = clip(result.error);
    const step = nextStep(handler, job.attempt, result.retry !== false, now);
    if ('retryAt' in step) {
      await finishJob(db, row.id, token, { status: 'pending', nextAttemptAt: step.retryAt, error }, now);
      return;
    }
    await giveUp(handler, job, row.id, token, error, now);
  }

  async function giveUp(handler: JobHandler, job: ClaimedJob, id: string, token: string, error: string, now: number): Promise<void> {
    // Only the claimant that records the failure calls onGiveUp, so it runs once.
    if (!(await finishJob(db, id, token, { status: 'failed', error }, now))) return;
    try {
      await handler.onGiveUp?.(job, error, now);
    } catch (err) {
      log.error('connectivity: onGiveUp of', job.kind, 'job', id, 'failed:', reasonOf(err));
    }
  }

  async function jobsPass(): Promise<number> {
    let ran = 0;
    const kinds = [...handlers.keys()];
    for (let round = 0; round < MAX_ROUNDS && !stopped; round++) {
      const token = newId();
      const rows = await claimJobs(db, kinds, clock.now(), leaseMs, token, batchSize);
      if (rows.length === 0) break;
      await Promise.all(
        rows.map((row) =>
          runJob(row, token).catch((err) => {
            // The outcome could not be written: the lease runs out and the job is claimed again.
            log.error('connectivity:', row.kind, 'job', row.id, 'outcome not recorded:', reasonOf(err));
          }),
        ),
      );
      ran += rows.length;
    }
    return ran;
  }

  /** Deletes what the retention no longer keeps, at most once an hour of this process's clock. */
  async function prune(): Promise<void> {
    const now = clock.now();
    if (now - prunedAt < PRUNE_INTERVAL_MS) return;
    prunedAt = now;
    const steps: Array<[(db: Db, cutoff: number, limit: number) => Promise<number>, number]> = [
      [pruneFinishedJobs, now - retentionMs],
      [pruneDispatchedEvents, now - retentionMs],
      [pruneOldNotifications, now - NOTIFICATION_RETENTION_MS],
    ];
    for (const [step, cutoff] of steps) {
      for (let batch = 0; batch < PRUNE_MAX_BATCHES && !stopped; batch++) {
        if ((await step(db, cutoff, PRUNE_BATCH)) < PRUNE_BATCH) break;
      }
    }
  }

  function track<T>(work: Promise<T>): Promise<T> {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work)).catch(() => undefined);
    return work;
  }

  const worker: ConnectivityWorker = {
    addHandler(handler) {
      if (handlers.has(handler.kind)) throw new Error(`A ${handler.kind} job handler is already registered`);
      handlers.set(handler.kind, handler);
    },
    addConsumer(consumer) {
      if (consumers.some((c) => c.name === consumer.name)) throw new Error(`An event consumer named ${consumer.name} is already registered`);
      consumers.push(consumer);
    },
    runDue() {
      return track(
        (async () => {
          const dispatched = await dispatchPass();
          const ran = await jobsPass();
          await prune().catch((err) => log.error('connectivity: pruning failed:', reasonOf(err)));
          return { dispatched, ran };
        })(),
      );
    },
    start(intervalMs = DEFAULT_POLL_INTERVAL_MS) {
      if (timer || stopped) return;
      const tick = () => {
        timer = null;
        void worker
          .runDue()
          .catch((err) => log.error('connectivity: worker pass failed:', reasonOf(err)))
          .finally(() => {
            if (stopped) return;
            timer = setTimeout(tick, intervalMs);
            timer.unref();
          });
      };
      timer = setTimeout(tick, intervalMs);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await Promise.allSettled([...inFlight]);
    },
  };
  return worker;
}

function clip(text: string): string {
  return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS)}…` : text;
}

/** The run's result, or a failed attempt ('timed out') once `ms` have passed; the run itself is left to finish unobserved. */
async function withDeadline(run: Promise<JobResult>, ms: number): Promise<JobResult> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<JobResult>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, error: RUN_TIMED_OUT_ERROR }), ms);
    timer.unref();
  });
  run.catch(() => undefined);
  try {
    return await Promise.race([run, late]);
  } finally {
    clearTimeout(timer);
  }
}
