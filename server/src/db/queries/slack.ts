/** SQL of the Slack channel (migration 035): the tenant's workspace, its subscriptions and the OAuth states, always by tenant. */
import type { Db } from '..';
import type { SlackOauthStatesTable, SlackSubscriptionsTable, SlackWorkspacesTable } from '../schema-channels';
import { precompiled, type Params } from '../precompiled';

export type SlackWorkspaceRow = SlackWorkspacesTable;
export type SlackSubscriptionRow = SlackSubscriptionsTable;

export async function findSlackWorkspace(db: Db, tenantId: string): Promise<SlackWorkspaceRow | undefined> {
  return db.selectFrom('slack_workspaces').selectAll().where('tenant_id', '=', tenantId).executeTakeFirst();
}

export async function insertSlackWorkspace(db: Db, row: SlackWorkspaceRow): Promise<void> {
  await db.insertInto('slack_workspaces').values(row).execute();
}

export async function updateSlackWorkspace(
  db: Db,
  tenantId: string,
  patch: Partial<Pick<SlackWorkspaceRow, 'team_id' | 'team_name' | 'bot_token' | 'bot_user_id' | 'connected_by' | 'connected_at' | 'updated_at'>>,
): Promise<void> {
  await db.updateTable('slack_workspaces').set(patch).where('tenant_id', '=', tenantId).execute();
}

export async function deleteSlackWorkspace(db: Db, tenantId: string): Promise<boolean> {
  const result = await db.deleteFrom('slack_workspaces').where('tenant_id', '=', tenantId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function listSlackSubscriptions(db: Db, tenantId: string): Promise<SlackSubscriptionRow[]> {
  return db.selectFrom('slack_subscriptions').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at').orderBy('id').execute();
}

export async function findSlackSubscription(db: Db, tenantId: string, id: string): Promise<SlackSubscriptionRow | undefined> {
  return db.selectFrom('slack_subscriptions').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}

export async function insertSlackSubscription(db: Db, row: SlackSubscriptionRow): Promise<void> {
  await db.insertInto('slack_subscriptions').values(row).execute();
}

export async function updateSlackSubscription(db: Db, tenantId: string, id: string, patch: Pick<SlackSubscriptionRow, 'event_key' | 'channel_ids' | 'enabled' | 'updated_at'>): Promise<void> {
  await db.updateTable('slack_subscriptions').set(patch).where('tenant_id', '=', tenantId).where('id', '=', id).execute();
}

export async function deleteSlackSubscription(db: Db, tenantId: string, id: string): Promise<void> {
  await db.deleteFrom('slack_subscriptions').where('tenant_id', '=', tenantId).where('id', '=', id).execute();
}

/** The enabled subscriptions of an event in a tenant whose workspace is connected. */
export async function listDeliverableSlackSubscriptions(db: Db, tenantId: string, eventKey: string): Promise<SlackSubscriptionRow[]> {
  return (await deliverableSlackSubscriptions(db, { tenantId, eventKey })).rows;
}

const deliverableSlackSubscriptions = precompiled((db, p: Params<{ tenantId: string; eventKey: string }>) =>
  db
    .selectFrom('slack_subscriptions as s')
    .innerJoin('slack_workspaces as w', 'w.id', 's.workspace_id')
    .selectAll('s')
    .where('s.tenant_id', '=', p.tenantId)
    .where('s.event_key', '=', p.eventKey)
    .where('s.enabled', '=', 1)
    .where('w.bot_token', 'is not', null)
    .orderBy('s.created_at')
    .orderBy('s.id'),
);

export async function insertSlackOauthState(db: Db, row: SlackOauthStatesTable): Promise<void> {
  await db.insertInto('slack_oauth_states').values(row).execute();
}

/**
 * Spends a state that `accept` accepts: deletes its row and answers it, so of two concurrent uses only
 * the one whose delete removed the row succeeds. Unknown, refused or already spent: undefined (a
 * refused state stays, so another tenant's attempt cannot burn it).
 */
export async function takeSlackOauthState(db: Db, stateHash: string, accept: (row: SlackOauthStatesTable) => boolean): Promise<SlackOauthStatesTable | undefined> {
  const row = await db.selectFrom('slack_oauth_states').selectAll().where('state_hash', '=', stateHash).executeTakeFirst();
  if (!row || !accept(row)) return undefined;
  const result = await db.deleteFrom('slack_oauth_states').where('state_hash', '=', stateHash).executeTakeFirst();
  return Number(result.numDeletedRows) === 1 ? row : undefined;
}

/** Drops states past their expiry (called when a new one is made, so the table stays small). */
export async function deleteExpiredSlackOauthStates(db: Db, now: number): Promise<void> {
  await db.deleteFrom('slack_oauth_states').where('expires_at', '<=', now).execute();
}

/** Keeps an admin's newest `keep` pending states in a tenant and drops the others (so repeated scope calls cannot pile rows up). */
export async function trimSlackOauthStates(db: Db, tenantId: string, userId: string, keep: number): Promise<void> {
  const stale = await db
    .selectFrom('slack_oauth_states')
    .select('state_hash')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('state_hash')
    .offset(keep)
    .limit(1000)
    .execute();
  if (stale.length) await db.deleteFrom('slack_oauth_states').where('state_hash', 'in', stale.map((r) => r.state_hash)).execute();
}
