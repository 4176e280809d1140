/**
 * The delivery queue (issue 16 "at least once, by a worker in each server process"): every
 * delivery is a `jobs` row. Any number of processes claim due jobs under a lease; a job whose
 * claimant died is claimed again when its lease runs out, so a killed process loses nothing (and a
 * delivery may be made twice: receivers deduplicate by the event id). Handlers, one per kind, say
 * how a job runs and on which schedule it is retried.
 */
import { newId } from '../../crypto';
import type { Db } from '../../db';
import { cancelPendingJobs, insertJob, requeueJob, type JobRow } from '../../db/queries/connectivity-queue';

export type JobKind = 'webhook' | 'email' | 'sms' | 'slack' | 'report';
export const JOB_KINDS: readonly JobKind[] = ['webhook', 'email', 'sms', 'slack', 'report'];

export interface ClaimedJob {
  id: string;
  kind: JobKind;
  tenantId: string;
  targetId: string;
  eventId: string | null;
  payload: unknown;
  /** 1 for the first try */
  attempt: number;
}

export type JobResult = { ok: true } | { ok: false; error: string; /** default true; false = give up now */ retry?: boolean };

export interface JobHandler {
  kind: JobKind;
  /** delays in ms after each failed attempt; attempts = schedule.length (+1 for the first) */
  retryDelaysMs: readonly number[];
  run(job: ClaimedJob, now: number): Promise<JobResult>;
  /** called once when the job is given up (retries spent or retry:false) */
  onGiveUp?(job: ClaimedJob, error: string, now: number): Promise<void>;
}

/** Queues a job in `db` (may be a transaction). */
export async function enqueueJob(
  db: Db,
  job: { kind: JobKind; tenantId: string; targetId: string; eventId?: string | null; payload: unknown; dueAt: number },
): Promise<string> {
  const id = newId();
  await insertJob(db, {
    id,
    kind: job.kind,
    tenant_id: job.tenantId,
    target_id: job.targetId,
    event_id: job.eventId ?? null,
    payload: JSON.stringify(job.payload ?? null),
    next_attempt_at: job.dueAt,
    created_at: job.dueAt,
  });
  return id;
}

/** Sets a failed or succeeded job back to pending, due `now` (a webhook log's retry); false when the job is not finished (or missing). */
export function retryJobNow(db: Db, jobId: string, now: number): Promise<boolean> {
  return requeueJob(db, jobId, now);
}

/** Cancels the pending jobs of a target (an endpoint or subscription that is deleted or disabled); answers how many. */
export function cancelJobsForTarget(db: Db, kind: JobKind, targetId: string, now: number = Date.now()): Promise<number> {
  return cancelPendingJobs(db, kind, targetId, now);
}

/** The job a claimed row holds. */
export function claimedJobFromRow(row: JobRow): ClaimedJob {
  return {
    id: row.id,
    kind: row.kind as JobKind,
    tenantId: row.tenant_id,
    targetId: row.target_id,
    eventId: row.event_id,
    payload: JSON.parse(row.payload) as unknown,
    attempt: Number(row.attempt),
  };
}

/**
 * What happens after a failed attempt: retry after the handler's delay for this attempt (the
 * delay after attempt n is retryDelaysMs[n - 1]), or give up when the schedule is spent or the
 * handler said retry: false.
 */
export function nextStep(handler: Pick<JobHandler, 'retryDelaysMs'>, attempt: number, retry: boolean, now: number): { retryAt: number } | { giveUp: true } {
  const delay = handler.retryDelaysMs[attempt - 1];
  if (!retry || delay === undefined) return { giveUp: true };
  return { retryAt: now + Math.max(0, delay) };
}
