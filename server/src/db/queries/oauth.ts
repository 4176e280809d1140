import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../index';
import type { OAuthBrowserSessionsTable, OAuthClientsTable, OAuthCodesTable, OAuthGrantsTable, OAuthRefreshTokensTable } from '../schema-oauth';

export type OAuthClientRow = Selectable<OAuthClientsTable>;
export type OAuthCodeRow = Selectable<OAuthCodesTable>;
export type OAuthGrantRow = Selectable<OAuthGrantsTable>;
export type OAuthRefreshTokenRow = Selectable<OAuthRefreshTokensTable>;

// ---- clients (registered with the CLI) ---------------------------------------------------------

export function findOAuthClient(db: Db, clientId: string): Promise<OAuthClientRow | undefined> {
  return db.selectFrom('oauth_clients').selectAll().where('client_id', '=', clientId).executeTakeFirst();
}

export function listOAuthClients(db: Db): Promise<OAuthClientRow[]> {
  return db.selectFrom('oauth_clients').selectAll().orderBy('client_id').execute();
}

export async function insertOAuthClient(db: Db, row: Insertable<OAuthClientsTable>): Promise<void> {
  await db.insertInto('oauth_clients').values(row).execute();
}

/** Changes a database client (the Operator area: name, URIs, a new secret's hash). */
export async function updateOAuthClient(db: Db, clientId: string, patch: Updateable<OAuthClientsTable>): Promise<void> {
  await db.updateTable('oauth_clients').set(patch).where('client_id', '=', clientId).execute();
}

export async function deleteOAuthClient(db: Db, clientId: string): Promise<boolean> {
  const res = await db.deleteFrom('oauth_clients').where('client_id', '=', clientId).executeTakeFirst();
  return Number(res.numDeletedRows) === 1;
}

// ---- authorization codes -----------------------------------------------------------------------

/** Stores a new code and drops codes that expired more than an hour ago. */
export async function insertOAuthCode(db: Db, row: Insertable<OAuthCodesTable>): Promise<void> {
  await db.deleteFrom('oauth_codes').where('expires_at', '<', row.created_at - 3_600_000).execute();
  await db.insertInto('oauth_codes').values(row).execute();
}

export function findOAuthCode(db: Db, codeHash: string): Promise<OAuthCodeRow | undefined> {
  return db.selectFrom('oauth_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
}

/**
 * Spends a code and names the grant session its exchange will create. False when it was spent
 * already: the conditional update is the lock, so two processes can never both redeem one code.
 */
export async function redeemOAuthCode(db: Db, codeHash: string, now: number, sessionId: string): Promise<boolean> {
  const res = await db.updateTable('oauth_codes').set({ used_at: now, issued_session_id: sessionId }).where('code_hash', '=', codeHash).where('used_at', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Records that a spent code came back; the exchange that spent it checks this after issuing. */
export async function markOAuthCodeReused(db: Db, codeHash: string, now: number): Promise<void> {
  await db.updateTable('oauth_codes').set({ reused_at: now }).where('code_hash', '=', codeHash).where('reused_at', 'is', null).execute();
}

// ---- grants ------------------------------------------------------------------------------------

export async function insertOAuthGrant(db: Db, row: Insertable<OAuthGrantsTable>): Promise<void> {
  await db.insertInto('oauth_grants').values(row).execute();
}

export function findOAuthGrant(db: Db, sessionId: string): Promise<OAuthGrantRow | undefined> {
  return db.selectFrom('oauth_grants').selectAll().where('session_id', '=', sessionId).executeTakeFirst();
}

/** The newest grant of a client from a browser session whose own session is still live. */
export function findLiveGrant(db: Db, browserSessionId: string, clientId: string, now: number): Promise<OAuthGrantRow | undefined> {
  return db
    .selectFrom('oauth_grants')
    .innerJoin('sessions', 'sessions.id', 'oauth_grants.session_id')
    .selectAll('oauth_grants')
    .where('oauth_grants.browser_session_id', '=', browserSessionId)
    .where('oauth_grants.client_id', '=', clientId)
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', now)
    .orderBy('oauth_grants.created_at', 'desc')
    .executeTakeFirst();
}

/** Revokes every grant issued from a browser session (RP-initiated logout ends them all). */
export async function revokeGrantsOfBrowserSession(db: Db, browserSessionId: string, now: number): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('revoked_at', 'is', null)
    .where('id', 'in', db.selectFrom('oauth_grants').select('session_id').where('browser_session_id', '=', browserSessionId))
    .execute();
}

// ---- refresh tokens of grants ------------------------------------------------------------------

export async function insertOAuthRefreshToken(db: Db, row: Insertable<OAuthRefreshTokensTable>): Promise<void> {
  await db.insertInto('oauth_refresh_tokens').values(row).execute();
}

export function findOAuthRefreshToken(db: Db, tokenHash: string): Promise<OAuthRefreshTokenRow | undefined> {
  return db.selectFrom('oauth_refresh_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Spends a refresh token; false when it was spent already (a replay, or a lost race). */
export async function markOAuthRefreshTokenUsed(db: Db, tokenHash: string, now: number): Promise<boolean> {
  const res = await db.updateTable('oauth_refresh_tokens').set({ used_at: now }).where('token_hash', '=', tokenHash).where('used_at', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

// ---- the browser-session cookie of the /oauth endpoints ----------------------------------------

export async function insertOAuthBrowserSession(db: Db, row: Insertable<OAuthBrowserSessionsTable>): Promise<void> {
  await db.deleteFrom('oauth_browser_sessions').where('expires_at', '<', row.created_at).execute();
  await db.insertInto('oauth_browser_sessions').values(row).execute();
}

export function findOAuthBrowserSession(db: Db, tokenHash: string): Promise<Selectable<OAuthBrowserSessionsTable> | undefined> {
  return db.selectFrom('oauth_browser_sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}
