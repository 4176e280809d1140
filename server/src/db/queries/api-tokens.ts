import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../index';
import type { ApiTokensTable } from '../schema-api-tokens';

export type ApiTokenRow = Selectable<ApiTokensTable>;

export async function insertApiToken(db: Db, row: Insertable<ApiTokensTable>, roleIds: readonly string[]): Promise<void> {
  await db.insertInto('api_tokens').values(row).execute();
  if (roleIds.length > 0) await db.insertInto('api_token_roles').values(roleIds.map((role_id) => ({ token_id: row.id, role_id }))).execute();
}

export function findApiTokenById(db: Db, id: string): Promise<ApiTokenRow | undefined> {
  return db.selectFrom('api_tokens').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findApiTokenByClientId(db: Db, clientId: string): Promise<ApiTokenRow | undefined> {
  return db.selectFrom('api_tokens').selectAll().where('client_id', '=', clientId).executeTakeFirst();
}

/** A tenant's tokens of one kind and type; `userId` narrows to one owner (personal tokens). Newest first. */
export function listApiTokens(db: Db, q: { tenantId: string; kind: string; type: string; userId?: string }): Promise<ApiTokenRow[]> {
  let query = db.selectFrom('api_tokens').selectAll().where('tenant_id', '=', q.tenantId).where('kind', '=', q.kind).where('type', '=', q.type);
  if (q.userId) query = query.where('user_id', '=', q.userId);
  return query.orderBy('created_at', 'desc').orderBy('id').execute();
}

/** The role ids of these tokens that are still roles of the token's tenant. */
export async function apiTokenRoleIds(db: Db, tokenIds: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(tokenIds.map((id) => [id, []]));
  if (tokenIds.length === 0) return out;
  const rows = await db
    .selectFrom('api_token_roles')
    .innerJoin('api_tokens', 'api_tokens.id', 'api_token_roles.token_id')
    .innerJoin('roles', (j) => j.onRef('roles.id', '=', 'api_token_roles.role_id').onRef('roles.tenant_id', '=', 'api_tokens.tenant_id'))
    .select(['api_token_roles.token_id as token_id', 'api_token_roles.role_id as role_id'])
    .where('api_token_roles.token_id', 'in', tokenIds)
    .orderBy('api_token_roles.role_id')
    .execute();
  for (const r of rows) out.get(r.token_id)?.push(r.role_id);
  return out;
}

/** Deletes one token of the given tenant, kind and type (and owner, for personal tokens); 0 when none matched. */
export async function deleteApiToken(db: Db, q: { id: string; tenantId: string; kind: string; type: string; userId?: string }): Promise<number> {
  let find = db.selectFrom('api_tokens').select('id').where('id', '=', q.id).where('tenant_id', '=', q.tenantId).where('kind', '=', q.kind).where('type', '=', q.type);
  if (q.userId) find = find.where('user_id', '=', q.userId);
  const row = await find.executeTakeFirst();
  if (!row) return 0;
  await db.deleteFrom('api_token_roles').where('token_id', '=', row.id).execute();
  const res = await db.deleteFrom('api_tokens').where('id', '=', row.id).executeTakeFirst();
  return Number(res.numDeletedRows);
}
