/** SQL of webhook endpoints and their delivery attempts (migration 034). */
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../index';
import type { WebhookAttemptsTable, WebhookEndpointsTable } from '../schema-webhooks';
import { precompiled, type Params } from '../precompiled';

export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;

export async function insertWebhookEndpoint(db: Db, row: Insertable<WebhookEndpointsTable>): Promise<void> {
  await db.insertInto('webhook_endpoints').values(row).execute();
}

/** The endpoint whatever its tenant (the delivery handler, which got the id from its own job). */
export function findWebhookEndpoint(db: Db, id: string): Promise<WebhookEndpointRow | undefined> {
  return db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The endpoint, only when it is one of `tenantId`'s. */
export function findTenantWebhookEndpoint(db: Db, tenantId: string, id: string): Promise<WebhookEndpointRow | undefined> {
  return db.selectFrom('webhook_endpoints').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}

/** A tenant's endpoints, oldest first. */
export function listWebhookEndpoints(db: Db, tenantId: string): Promise<WebhookEndpointRow[]> {
  return db.selectFrom('webhook_endpoints').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at').orderBy('id').execute();
}

/** A tenant's active endpoints (the consumer filters them by event key). */
export async function listActiveWebhookEndpoints(db: Db, tenantId: string): Promise<WebhookEndpointRow[]> {
  return (await activeWebhookEndpoints(db, { tenantId })).rows;
}

const activeWebhookEndpoints = precompiled((db, p: Params<{ tenantId: string }>) =>
  db.selectFrom('webhook_endpoints').selectAll().where('tenant_id', '=', p.tenantId).where('is_active', '=', 1).orderBy('created_at').orderBy('id'),
);

export async function countWebhookEndpoints(db: Db, tenantId: string): Promise<number> {
  const row = await db.selectFrom('webhook_endpoints').select((eb) => eb.fn.countAll<number | string>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function updateWebhookEndpoint(db: Db, id: string, changes: Updateable<WebhookEndpointsTable>): Promise<void> {
  await db.updateTable('webhook_endpoints').set(changes).where('id', '=', id).execute();
}

export async function deleteWebhookEndpoint(db: Db, id: string): Promise<void> {
  await db.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
}

/** Marks the start of a run of failures, unless one is already running. */
export async function markWebhookFailing(db: Db, id: string, now: number): Promise<void> {
  await db.updateTable('webhook_endpoints').set({ failing_since: now }).where('id', '=', id).where('failing_since', 'is', null).execute();
}

/** A success ends a run of failures. */
export async function clearWebhookFailing(db: Db, id: string): Promise<void> {
  await db.updateTable('webhook_endpoints').set({ failing_since: null }).where('id', '=', id).where('failing_since', 'is not', null).execute();
}

/** Disables an active endpoint; false when it was no longer active (another process disabled it, or an admin did). */
export async function disableWebhookEndpoint(db: Db, id: string, reason: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('webhook_endpoints')
    .set({ is_active: 0, disabled_at: now, disabled_reason: reason, updated_at: now })
    .where('id', '=', id)
    .where('is_active', '=', 1)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Stores one attempt and drops the endpoint's attempts older than its `keep` newest ones. */
export async function insertWebhookAttempt(db: Db, row: Insertable<WebhookAttemptsTable>, keep: number): Promise<void> {
  await db.insertInto('webhook_attempts').values(row).execute();
  const oldestKept = await db
    .selectFrom('webhook_attempts')
    .select(['created_at', 'id'])
    .where('endpoint_id', '=', row.endpoint_id)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(keep - 1)
    .limit(1)
    .executeTakeFirst();
  if (!oldestKept) return;
  await db
    .deleteFrom('webhook_attempts')
    .where('endpoint_id', '=', row.endpoint_id)
    .where((eb) => eb.or([eb('created_at', '<', oldestKept.created_at), eb.and([eb('created_at', '=', oldestKept.created_at), eb('id', '<', oldestKept.id)])]))
    .execute();
}

/** The attempt, only when it is one of `tenantId`'s. */
export function findTenantWebhookAttempt(db: Db, tenantId: string, id: string): Promise<WebhookAttemptRow | undefined> {
  return db.selectFrom('webhook_attempts').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}

/** A page of an endpoint's attempts, newest first, and how many it has. */
export async function listWebhookAttempts(db: Db, endpointId: string, offset: number, limit: number): Promise<{ rows: WebhookAttemptRow[]; total: number }> {
  const rows = await db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('endpoint_id', '=', endpointId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  const count = await db.selectFrom('webhook_attempts').select((eb) => eb.fn.countAll<number | string>().as('n')).where('endpoint_id', '=', endpointId).executeTakeFirst();
  return { rows, total: Number(count?.n ?? 0) };
}
