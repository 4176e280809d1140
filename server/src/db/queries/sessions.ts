import { sql, type Expression, type Insertable, type Selectable } from 'kysely';
import { isPostgres } from '../dialect';
import type { Db } from '../index';
import { precompiled, precompiledInsert, type Params } from '../precompiled';
import type { RefreshTokensTable, SessionsTable } from '../schema';
import { jsonArrayFrom as pgJsonArrayFrom } from 'kysely/helpers/postgres';
import { jsonArrayFrom as sqliteJsonArrayFrom } from 'kysely/helpers/sqlite';
import { grantsForQuery, type GrantRow } from './entitlement-context';
import { heldRoleIdsQuery } from './roles';
import { userTenantsQuery } from './tenants';
import type { UserRow } from './users';

export type SessionRow = Selectable<SessionsTable>;
export type RefreshTokenRow = Selectable<RefreshTokensTable>;

export async function insertSession(db: Db, row: Insertable<SessionsTable>): Promise<void> {
  await insertSessionRow(db, row);
}

const insertSessionRow = precompiledInsert('sessions');

export function findSession(db: Db, id: string): Promise<SessionRow | undefined> {
  return db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The session, with when its user's membership of `tenantId` ends (`membership_expires_at`: null when
 * permanent or absent): one read for the access-token check, which runs on every call.
 */
export function findSessionWithMembership(db: Db, id: string, tenantId: string): Promise<(SessionRow & { membership_expires_at: number | null }) | undefined> {
  return db
    .selectFrom('sessions')
    .leftJoin('user_tenants', (join) => join.onRef('user_tenants.user_id', '=', 'sessions.user_id').on('user_tenants.tenant_id', '=', tenantId))
    .selectAll('sessions')
    .select('user_tenants.expires_at as membership_expires_at')
    .where('sessions.id', '=', id)
    .executeTakeFirst();
}

export async function touchSession(db: Db, id: string, now: number, tenantId?: string): Promise<void> {
  if (tenantId) await touchSessionIn(db, { id, now, tenantId });
  else await touchSessionOnly(db, { id, now });
}

const touchSessionIn = precompiled((db, p: Params<{ id: string; now: number; tenantId: string }>) =>
  db.updateTable('sessions').set({ last_used_at: p.now, tenant_id: p.tenantId }).where('id', '=', p.id),
);
const touchSessionOnly = precompiled((db, p: Params<{ id: string; now: number }>) => db.updateTable('sessions').set({ last_used_at: p.now }).where('id', '=', p.id));

export async function setSessionTenant(db: Db, id: string, tenantId: string): Promise<void> {
  await db.updateTable('sessions').set({ tenant_id: tenantId }).where('id', '=', id).execute();
}

/** Revokes a live session; true only for the call that revoked it. */
export async function revokeSession(db: Db, id: string, now: number): Promise<boolean> {
  const res = await db.updateTable('sessions').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function insertRefreshToken(db: Db, row: Insertable<RefreshTokensTable>): Promise<void> {
  await newRefreshToken(db, { token_hash: row.token_hash, session_id: row.session_id, created_at: row.created_at, expires_at: row.expires_at, used_at: row.used_at ?? null });
}

const newRefreshToken = precompiled((db, p: Params<{ token_hash: string; session_id: string; created_at: number; expires_at: number; used_at: number | null }>) =>
  db.insertInto('refresh_tokens').values({ token_hash: p.token_hash, session_id: p.session_id, created_at: p.created_at, expires_at: p.expires_at, used_at: p.used_at }),
);

export function findRefreshToken(db: Db, tokenHash: string): Promise<RefreshTokenRow | undefined> {
  return db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** A refresh token with everything a refresh reads about its session, from one statement. */
export interface RefreshTokenSession {
  token: Pick<RefreshTokenRow, 'token_hash' | 'session_id' | 'expires_at' | 'used_at'>;
  session: SessionRow;
  /** The session's user's membership of the session's tenant: when it ends (null: permanent or none), and whether it counts now. */
  membership: { expiresAt: number | null; active: boolean };
  /** The impersonation this session belongs to (an admin acting as the user), if any. */
  impersonation: { id: string; impersonator_id: string; tenant_id: string } | undefined;
  /** The client of the hosted-login grant this session is, if any. */
  grantClientId: string | null;
  /** The session's user (undefined if the account is gone). */
  user: UserRow | undefined;
  /** The tenants the user is an active member of, oldest membership first (listUserTenants' ids and order). */
  tenantIds: string[];
  /** The ids of the roles the user holds in the session's tenant, their own and their groups' (listHeldRoleIds). */
  roleIds: string[];
  /** The entitlement grants of the session's tenant and of the user in it (listGrantsFor). */
  grants: GrantRow[];
}

/** Every column of `users`, read by the refresh under a `u_` prefix (the type check fails when a column is missing here). */
const USER_COLUMNS = [
  'id', 'email', 'username', 'name', 'password_hash', 'verified', 'super_user', 'disabled', 'phone_number', 'address', 'job_title', 'profile_picture_id',
  'metadata', 'last_tenant_id', 'created_at', 'last_login', 'password_changed_at', 'failed_logins', 'locked_at', 'is_breached_password', 'phone_verified', 'locale',
] as const satisfies readonly (keyof UserRow)[];
type MissingUserColumn = Exclude<keyof UserRow, (typeof USER_COLUMNS)[number]>;
const allUserColumns: [MissingUserColumn] extends [never] ? true : MissingUserColumn = true;
void allUserColumns;

/**
 * The refresh token of `tokenHash` joined with its session, the membership of the session's tenant,
 * its impersonation, its hosted-login grant, its user, the user's active tenants and their roles in
 * the session's tenant (the access token's tenantIds and roles), the entitlement grants there, and
 * the window of the rate limit `rateLimitKey` (found or not, the token): what ten lookups used to
 * read, in one statement.
 */
export async function findRefreshTokenSession(
  db: Db,
  tokenHash: string,
  now: number,
  rateLimitKey: string,
): Promise<{ window: { count: number; window_start: number } | undefined; found: RefreshTokenSession | undefined }> {
  const row = (await refreshTokenSession(db, { tokenHash, now, rateLimitKey })).rows[0] as Record<string, unknown>;
  const { rl_count, rl_window_start, rt_token_hash, rt_expires_at, rt_used_at, ut_tenant_id, ut_expires_at, ut_disabled_at, ut_admin_locked_at, imp_id, imp_impersonator_id, imp_tenant_id, grant_client_id, tenant_ids, role_ids, grants, ...rest } = row;
  const window = rl_count === null ? undefined : { count: Number(rl_count), window_start: Number(rl_window_start) };
  if (rt_token_hash === null || rest.id === null) return { window, found: undefined };
  const session: Record<string, unknown> = {};
  const user: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) {
    if (key.startsWith('u_')) user[key.slice(2)] = value;
    else session[key] = value;
  }
  const expiresAt = ut_expires_at === null ? null : Number(ut_expires_at);
  return {
    window,
    found: {
      token: { token_hash: rt_token_hash as string, session_id: session.id as string, expires_at: Number(rt_expires_at), used_at: rt_used_at === null ? null : Number(rt_used_at) },
      session: session as SessionRow,
      // The rule of activeMemberships (tenants.ts, migration 016): not disabled, not locked, not past its end.
      membership: { expiresAt, active: ut_tenant_id !== null && ut_disabled_at === null && ut_admin_locked_at === null && (expiresAt === null || expiresAt > now) },
      impersonation: imp_id !== null && imp_impersonator_id !== null && imp_tenant_id !== null ? { id: imp_id as string, impersonator_id: imp_impersonator_id as string, tenant_id: imp_tenant_id as string } : undefined,
      grantClientId: grant_client_id as string | null,
      user: user.id === null || user.id === undefined ? undefined : (user as UserRow),
      tenantIds: jsonArray<string>(tenant_ids),
      roleIds: jsonArray<string>(role_ids),
      // listGrantsFor's order (oldest first), kept here rather than trusted to the aggregate.
      grants: jsonArray<GrantRow>(grants).sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    },
  };
}

/** A JSON array column: PostgreSQL answers it parsed, SQLite as its text. */
const jsonArray = <T>(value: unknown): T[] => (typeof value === 'string' ? JSON.parse(value) : value) as T[];

/** The values of `column` in the rows `query` answers, as one JSON array, ordered by `orderBy` (columns of those rows). */
function valuesArray(db: Db, query: Expression<unknown>, column: string, orderBy: readonly string[] = []) {
  const value = sql.ref(`q.${column}`);
  const order = orderBy.length > 0 ? sql` order by ${sql.join(orderBy.map((c) => sql.ref(`q.${c}`)))}` : sql``;
  return isPostgres(db)
    ? sql<unknown>`(select coalesce(json_agg(${value}${order}), '[]'::json) from (${query}) q)`
    : sql<unknown>`(select json_group_array(${value}${order}) from (${query}) q)`;
}

const refreshTokenSession = precompiled((db, p: Params<{ tokenHash: string; now: number; rateLimitKey: string }>) =>
  // One row whether or not the token exists: the rate limit's window comes with it either way.
  db
    .selectFrom(sql<{ one: number }>`(select 1 as one)`.as('one'))
    .leftJoin('rate_limits', (j) => j.on('rate_limits.key', '=', p.rateLimitKey))
    .leftJoin('refresh_tokens', (j) => j.on('refresh_tokens.token_hash', '=', p.tokenHash))
    .leftJoin('sessions', 'sessions.id', 'refresh_tokens.session_id')
    .leftJoin('user_tenants', (j) => j.onRef('user_tenants.user_id', '=', 'sessions.user_id').onRef('user_tenants.tenant_id', '=', 'sessions.tenant_id'))
    .leftJoin('impersonations', 'impersonations.session_id', 'sessions.id')
    .leftJoin('oauth_grants', 'oauth_grants.session_id', 'sessions.id')
    .leftJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('sessions')
    .select([
      'rate_limits.count as rl_count',
      'rate_limits.window_start as rl_window_start',
      'refresh_tokens.token_hash as rt_token_hash',
      'refresh_tokens.expires_at as rt_expires_at',
      'refresh_tokens.used_at as rt_used_at',
      'user_tenants.tenant_id as ut_tenant_id',
      'user_tenants.expires_at as ut_expires_at',
      'user_tenants.disabled_at as ut_disabled_at',
      'user_tenants.admin_locked_at as ut_admin_locked_at',
      'impersonations.id as imp_id',
      'impersonations.impersonator_id as imp_impersonator_id',
      'impersonations.tenant_id as imp_tenant_id',
      'oauth_grants.client_id as grant_client_id',
    ])
    .select(USER_COLUMNS.map((c) => sql.ref(`users.${c}`).as(`u_${c}`)))
    // Inside these subqueries `user_tenants` is their own (it hides the join above); `sessions` is the outer row.
    .select(valuesArray(db, userTenantsQuery(db, sql.ref('sessions.user_id'), p.now).select(['tenants.id as tenant_id', 'user_tenants.created_at as joined_at']), 'tenant_id', ['joined_at', 'tenant_id']).as('tenant_ids'))
    .select(valuesArray(db, heldRoleIdsQuery(db, sql.ref('sessions.user_id'), sql.ref('sessions.tenant_id')), 'role_id').as('role_ids'))
    .select(() => {
      const grants = grantsForQuery(db, sql.ref('sessions.tenant_id'), sql.ref('sessions.user_id'));
      return (isPostgres(db) ? pgJsonArrayFrom(grants) : sqliteJsonArrayFrom(grants)).as('grants');
    }),
);

/**
 * Marks a refresh token used. Returns false when another request used it first: the conditional
 * update is the lock, so two processes can never both rotate the same token.
 */
export async function markRefreshTokenUsed(db: Db, tokenHash: string, now: number): Promise<boolean> {
  const res = await spendRefreshToken(db, { tokenHash, now });
  return Number(res.numAffectedRows) === 1;
}

const spendRefreshToken = precompiled((db, p: Params<{ tokenHash: string; now: number }>) =>
  db.updateTable('refresh_tokens').set({ used_at: p.now }).where('token_hash', '=', p.tokenHash).where('used_at', 'is', null),
);

/**
 * PostgreSQL: a refresh's rotation as one statement, with no BEGIN and COMMIT around it. It spends
 * `tokenHash` (the same compare-and-swap on `used_at` as markRefreshTokenUsed), and only if that won,
 * touches the session and inserts the next token. One statement is one transaction, and a concurrent
 * spend of the same token waits for the row and then finds it used, so exactly one rotation wins, as
 * with the three statements in a transaction. It saves four round trips of the five. True when this
 * call spent the token.
 */
export async function rotateRefreshTokenAtOnce(db: Db, p: { tokenHash: string; now: number; sessionId: string; nextHash: string; expiresAt: number }): Promise<boolean> {
  const row = (await rotateAtOnce(db, p)).rows[0];
  return Number(row?.spent) === 1;
}

const rotateAtOnce = precompiled((db, p: Params<{ tokenHash: string; now: number; sessionId: string; nextHash: string; expiresAt: number }>) => ({
  compile: () =>
    sql<{ spent: number | string }>`with spent as (
      update refresh_tokens set used_at = ${p.now} where token_hash = ${p.tokenHash} and used_at is null returning session_id
    ), touched as (
      update sessions set last_used_at = ${p.now} where id = ${p.sessionId} and exists (select 1 from spent) returning id
    ), fresh as (
      insert into refresh_tokens (token_hash, session_id, created_at, expires_at, used_at)
      select cast(${p.nextHash} as text), session_id, cast(${p.now} as bigint), cast(${p.expiresAt} as bigint), null from spent returning token_hash
    )
    select (select count(*) from spent) as spent`.compile(db),
}));

/** Revokes every live session of a user, except `keepSessionId` (the caller's own, on a password change). */
export async function revokeUserSessions(db: Db, userId: string, now: number, keepSessionId?: string): Promise<number> {
  let query = db.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (keepSessionId) query = query.where('id', '!=', keepSessionId);
  const res = await query.executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** Session ids that belong to an impersonation (an admin acting as the user), not to the user. */
function impersonationSessionIds(db: Db) {
  return db.selectFrom('impersonations').select('session_id').where('session_id', 'is not', null);
}

/** The user's live sessions (not revoked, not expired), newest first; impersonation sessions are the admin's and left out. */
export function listLiveUserSessions(db: Db, userId: string, now: number): Promise<SessionRow[]> {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .where('id', 'not in', impersonationSessionIds(db))
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

/** Revokes `sessionId` only when it is a live, non-impersonation session of `userId`; false otherwise. */
export async function revokeLiveUserSession(db: Db, userId: string, sessionId: string, now: number): Promise<boolean> {
  const res = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .where('id', 'not in', impersonationSessionIds(db))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Revokes every live, non-impersonation session of `userId` except `keepSessionId`; returns their ids. */
export async function revokeOtherLiveUserSessions(db: Db, userId: string, keepSessionId: string, now: number): Promise<string[]> {
  const ids = (
    await db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', userId)
      .where('id', '!=', keepSessionId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .where('id', 'not in', impersonationSessionIds(db))
      .execute()
  ).map((r) => r.id);
  if (ids.length === 0) return [];
  // The same conditions again: a session revoked in between is not counted twice.
  const res = await db.updateTable('sessions').set({ revoked_at: now }).where('id', 'in', ids).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0 ? ids : [];
}

/** A live session of a tenant as the sessions policy weighs it. */
export interface PolicySessionRow {
  id: string;
  user_id: string;
  created_at: number;
  last_used_at: number;
  auth_time: number;
  /**
   * A sign-in of the user (counted against the concurrent-session limit): false for an application's
   * grant (hosted login, a child of a browser session) and for an impersonation (the admin's).
   */
  counted: boolean;
}

/**
 * The live sessions (not revoked, not expired) acting in `tenantId`, of `userId` when given, newest
 * first (created_at, then id: one order every process agrees on).
 */
export async function listLivePolicySessions(db: Db, tenantId: string, now: number, userId?: string): Promise<PolicySessionRow[]> {
  let query = db
    .selectFrom('sessions')
    .leftJoin('oauth_grants', 'oauth_grants.session_id', 'sessions.id')
    .leftJoin('impersonations', 'impersonations.session_id', 'sessions.id')
    .select(['sessions.id', 'sessions.user_id', 'sessions.created_at', 'sessions.last_used_at', 'sessions.auth_time', 'oauth_grants.session_id as grant_id', 'impersonations.id as impersonation_id'])
    .where('sessions.tenant_id', '=', tenantId)
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', now);
  if (userId) query = query.where('sessions.user_id', '=', userId);
  const rows = await query.orderBy('sessions.created_at', 'desc').orderBy('sessions.id', 'desc').execute();
  const seen = new Set<string>();
  return rows
    .filter((r) => !seen.has(r.id) && Boolean(seen.add(r.id)))
    .map((r) => ({
      id: r.id,
      user_id: r.user_id,
      created_at: Number(r.created_at),
      last_used_at: Number(r.last_used_at),
      auth_time: Number(r.auth_time),
      counted: r.grant_id === null && r.impersonation_id === null,
    }));
}

/**
 * Revokes the live sessions among `ids`; answers how many this call revoked (one already revoked is
 * not counted). `slice` ids per statement (under every dialect's limit of bound parameters); 1 where
 * other requests may revoke the same sessions at once (sign-ins racing for the concurrent-session
 * limit): a statement then locks one row only, so two of them can never deadlock on PostgreSQL.
 */
export async function revokeSessions(db: Db, ids: readonly string[], now: number, slice = 500): Promise<number> {
  let revoked = 0;
  const sorted = [...ids].sort();
  for (let i = 0; i < sorted.length; i += slice) {
    const res = await db.updateTable('sessions').set({ revoked_at: now }).where('id', 'in', sorted.slice(i, i + slice)).where('revoked_at', 'is', null).executeTakeFirst();
    revoked += Number(res.numUpdatedRows);
  }
  return revoked;
}
