import type { Selectable } from 'kysely';
import { isPostgres } from '../dialect';
import type { Db } from '../index';
import type { EventsTable, JobsTable } from '../schema-connectivity';
import { precompiled, precompiledInsert, type Params } from '../precompiled';

export type EventRow = Selectable<EventsTable>;
export type JobRow = Selectable<JobsTable>;

export async function insertEvent(db: Db, row: { id: string; tenant_id: string; event_key: string; data: string; actor: string | null; occurred_at: number }): Promise<void> {
  await insertEventRow(db, { ...row, dispatched_at: null, dispatch_error: null, lease_until: null, lease_token: null });
}

const insertEventRow = precompiledInsert('events');

/**
 * Claims up to `limit` undispatched events whose lease is free or expired, oldest first, for
 * `leaseMs`, in one statement. On PostgreSQL the subquery locks the rows it picks and skips rows
 * another process holds (FOR UPDATE SKIP LOCKED); on SQLite a write statement takes the database's
 * write lock before it reads, so two processes' statements run one after the other and the second
 * sees the first's lease.
 */
export async function claimEvents(db: Db, now: number, leaseMs: number, token: string, limit: number): Promise<EventRow[]> {
  const pg = isPostgres(db);
  return db
    .updateTable('events')
    .set((eb) => ({ lease_until: now + leaseMs, lease_token: token, dispatch_attempts: eb('dispatch_attempts', '+', 1) }))
    .where('id', 'in', (eb) => {
      const pick = eb
        .selectFrom('events')
        .select('id')
        .where('dispatched_at', 'is', null)
        .where((w) => w.or([w('lease_until', 'is', null), w('lease_until', '<=', now)]))
        .orderBy('occurred_at')
        .orderBy('id')
        .limit(limit);
      return pg ? pick.forUpdate().skipLocked() : pick;
    })
    .returningAll()
    .execute();
}

/** Marks a claimed event dispatched; false when the claim was lost (its lease expired and another process took it). */
export async function markEventDispatched(db: Db, id: string, token: string, now: number, error: string | null): Promise<boolean> {
  return Number((await eventDispatched(db, { id, token, now, error })).numAffectedRows) === 1;
}

const eventDispatched = precompiled((db, p: Params<{ id: string; token: string; now: number; error: string | null }>) =>
  db
    .updateTable('events')
    .set({ dispatched_at: p.now, dispatch_error: p.error, lease_until: null, lease_token: null })
    .where('id', '=', p.id)
    .where('lease_token', '=', p.token)
    .where('dispatched_at', 'is', null),
);

/** After a failed dispatch: the event waits until `retryAt`, with the failure kept. */
export async function deferEvent(db: Db, id: string, token: string, retryAt: number, error: string): Promise<void> {
  await db.updateTable('events').set({ lease_until: retryAt, lease_token: null, dispatch_error: error }).where('id', '=', id).where('lease_token', '=', token).execute();
}

export async function insertJob(db: Db, row: { id: string; kind: string; tenant_id: string; target_id: string; event_id: string | null; payload: string; next_attempt_at: number; created_at: number }): Promise<void> {
  await db
    .insertInto('jobs')
    .values({ ...row, status: 'pending', attempt: 0, lease_until: null, lease_token: null, last_error: null, updated_at: row.created_at })
    .execute();
}

/** last_error of a job claimed again after its claimant's lease ran out (the process died or hung mid-run). */
export const LEASE_EXPIRED_ERROR = 'lease expired: the process running the previous attempt stopped before recording its outcome';

/**
 * Claims up to `limit` jobs of `kinds` that are due (pending with next_attempt_at <= now) or whose
 * claimant's lease expired (running with lease_until <= now: that process died or hung), earliest
 * first, in one statement (see claimEvents for how each dialect keeps two claims disjoint). The
 * claim counts an attempt and takes a lease of `leaseMs` under `token`.
 */
export async function claimJobs(db: Db, kinds: readonly string[], now: number, leaseMs: number, token: string, limit: number): Promise<JobRow[]> {
  if (kinds.length === 0) return [];
  const pg = isPostgres(db);
  return db
    .updateTable('jobs')
    .set((eb) => ({
      status: 'running',
      attempt: eb('attempt', '+', 1),
      lease_until: now + leaseMs,
      lease_token: token,
      updated_at: now,
      // A running job claimed again is one whose claimant stopped mid-run: marked, so the worker can stop a job that crashes every process.
      last_error: eb.case().when('status', '=', 'running').then(LEASE_EXPIRED_ERROR).else(eb.ref('last_error')).end(),
    }))
    .where('id', 'in', (eb) => {
      const pick = eb
        .selectFrom('jobs')
        .select('id')
        .where('kind', 'in', [...kinds])
        .where((w) =>
          w.or([
            w.and([w('status', '=', 'pending'), w('next_attempt_at', '<=', now)]),
            w.and([w('status', '=', 'running'), w('lease_until', '<=', now)]),
          ]),
        )
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(limit);
      return pg ? pick.forUpdate().skipLocked() : pick;
    })
    .returningAll()
    .execute();
}

/** Records a claimed job's outcome; false when the claim was lost meanwhile (nothing is written then). */
export async function finishJob(
  db: Db,
  id: string,
  token: string,
  outcome: { status: 'succeeded' | 'failed' | 'pending'; nextAttemptAt?: number; error: string | null },
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({
      status: outcome.status,
      last_error: outcome.error,
      lease_until: null,
      lease_token: null,
      updated_at: now,
      ...(outcome.nextAttemptAt !== undefined ? { next_attempt_at: outcome.nextAttemptAt } : {}),
    })
    .where('id', '=', id)
    .where('lease_token', '=', token)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A finished job (succeeded or failed) back to pending, due at `now`; false when the job is missing, running, pending or cancelled. */
export async function requeueJob(db: Db, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ status: 'pending', next_attempt_at: now, lease_until: null, lease_token: null, updated_at: now })
    .where('id', '=', id)
    .where('status', 'in', ['succeeded', 'failed'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Cancels the pending jobs of one target (a deleted endpoint or subscription); running ones finish. Answers how many. */
export async function cancelPendingJobs(db: Db, kind: string, targetId: string, now: number): Promise<number> {
  const result = await db
    .updateTable('jobs')
    .set({ status: 'cancelled', updated_at: now, lease_until: null, lease_token: null })
    .where('kind', '=', kind)
    .where('target_id', '=', targetId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export function findJob(db: Db, id: string): Promise<JobRow | undefined> {
  return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Every tenant the user is a member of (in any state), for events about the user. */
export async function tenantIdsOfUser(db: Db, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('user_tenants').select('tenant_id').where('user_id', '=', userId).orderBy('tenant_id').execute();
  return rows.map((r) => r.tenant_id);
}

/** The role ids the user holds directly in the tenant. */
export async function roleIdsOfUser(db: Db, tenantId: string, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('user_roles').select('role_id').where('tenant_id', '=', tenantId).where('user_id', '=', userId).orderBy('role_id').execute();
  return rows.map((r) => r.role_id);
}

/** Deletes up to `limit` finished jobs (succeeded, failed, cancelled) last changed before `cutoff`; answers how many. */
export async function pruneFinishedJobs(db: Db, cutoff: number, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('jobs')
    .where('id', 'in', (eb) => eb.selectFrom('jobs').select('id').where('status', 'in', ['succeeded', 'failed', 'cancelled']).where('updated_at', '<', cutoff).limit(limit))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes up to `limit` events dispatched before `cutoff` that no pending or running job still needs; answers how many. */
export async function pruneDispatchedEvents(db: Db, cutoff: number, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('events')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('events as e')
        .select('e.id')
        .where('e.dispatched_at', '<', cutoff)
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('jobs').select('jobs.id').whereRef('jobs.event_id', '=', 'e.id').where('jobs.status', 'in', ['pending', 'running']))))
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
