import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../index';
import type { SsoIdentitiesTable, SsoRequestsTable } from '../schema-sso';

export type SsoRequestRow = Selectable<SsoRequestsTable>;
export type SsoIdentityRow = Selectable<SsoIdentitiesTable>;

export async function insertSsoRequest(db: Db, row: Insertable<SsoRequestsTable>): Promise<void> {
  await db.insertInto('sso_requests').values(row).execute();
}

export function findSsoRequest(db: Db, id: string): Promise<SsoRequestRow | undefined> {
  return db.selectFrom('sso_requests').selectAll().where('id', '=', id).executeTakeFirst();
}

/** An OIDC request by its state's hash: a sign-in (`oidc`) or a connection test (`oidc-test`), never the one for the other. */
export function findSsoRequestByState(db: Db, stateHash: string, kind: 'oidc' | 'oidc-test' = 'oidc'): Promise<SsoRequestRow | undefined> {
  return db.selectFrom('sso_requests').selectAll().where('state_hash', '=', stateHash).where('kind', '=', kind).executeTakeFirst();
}

export function findSsoRequestByResultCode(db: Db, codeHash: string): Promise<SsoRequestRow | undefined> {
  return db.selectFrom('sso_requests').selectAll().where('result_code_hash', '=', codeHash).where('kind', '=', 'saml').executeTakeFirst();
}

/** Single use: only the first caller spends a live request (an IdP answer, or an OIDC callback). */
export async function consumeSsoRequest(db: Db, id: string, now: number): Promise<boolean> {
  const res = await db.updateTable('sso_requests').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** After the ACS accepted a response: the proven identity and the hash of the one-time code that redeems it. */
export async function setSsoRequestResult(db: Db, id: string, result: string, codeHash: string, expiresAt: number): Promise<void> {
  await db.updateTable('sso_requests').set({ result, result_code_hash: codeHash, expires_at: expiresAt }).where('id', '=', id).execute();
}

/** A connection test's report (JSON), kept until `expiresAt` for the admin who started it to read once. */
export async function setSsoTestResult(db: Db, id: string, result: string, expiresAt: number): Promise<void> {
  await db.updateTable('sso_requests').set({ result, expires_at: expiresAt }).where('id', '=', id).execute();
}

/** Single use of the ACS result: only the first caller redeems a live code. */
export async function completeSsoRequest(db: Db, id: string, now: number): Promise<boolean> {
  const res = await db
    .updateTable('sso_requests')
    .set({ completed_at: now })
    .where('id', '=', id)
    .where('completed_at', 'is', null)
    .where('result', 'is not', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Housekeeping: requests and replay-cache entries past their lifetime. */
export async function deleteExpiredSsoRows(db: Db, now: number): Promise<void> {
  await db.deleteFrom('sso_requests').where('expires_at', '<=', now).execute();
  await db.deleteFrom('sso_assertions').where('expires_at', '<=', now).execute();
}

/**
 * Remembers an accepted assertion ID until `expiresAt`. False when it was already there: a replay.
 * The primary key decides, so two processes racing with the same assertion cannot both win.
 */
export async function rememberSsoAssertion(db: Db, configId: string, assertionId: string, now: number, expiresAt: number): Promise<boolean> {
  const res = await db
    .insertInto('sso_assertions')
    .values({ config_id: configId, assertion_id: assertionId, created_at: now, expires_at: expiresAt })
    .onConflict((oc) => oc.columns(['config_id', 'assertion_id']).doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) === 1;
}

export function findSsoIdentity(db: Db, configId: string, subject: string): Promise<SsoIdentityRow | undefined> {
  return db.selectFrom('sso_identities').selectAll().where('config_id', '=', configId).where('subject', '=', subject).executeTakeFirst();
}

export async function saveSsoIdentity(db: Db, row: SsoIdentityRow): Promise<void> {
  await db
    .insertInto('sso_identities')
    .values(row)
    .onConflict((oc) => oc.columns(['config_id', 'subject']).doUpdateSet({ user_id: row.user_id, granted_role_ids: row.granted_role_ids, last_login_at: row.last_login_at }))
    .execute();
}

/** Grants and takes away roles of a user in a tenant (granting one the user has is a no-op). */
export async function changeUserRoles(db: Db, userId: string, tenantId: string, add: readonly string[], remove: readonly string[]): Promise<void> {
  if (remove.length) await db.deleteFrom('user_roles').where('user_id', '=', userId).where('tenant_id', '=', tenantId).where('role_id', 'in', remove).execute();
  for (const roleId of add) {
    await db
      .insertInto('user_roles')
      .values({ user_id: userId, tenant_id: tenantId, role_id: roleId })
      .onConflict((oc) => oc.columns(['user_id', 'tenant_id', 'role_id']).doNothing())
      .execute();
  }
}
