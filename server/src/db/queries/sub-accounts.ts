/**
 * The tenant hierarchy (migration 021). Walks use one recursive CTE (`with recursive`, the same text
 * on SQLite and PostgreSQL), each bounded by MAX_DEPTH so even a corrupted cycle ends; lists are
 * pages of at most 50 by the `tenants_by_parent` index; counts are grouped over one page of ids.
 */
import { sql, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../index';
import { changesOf } from '../patch';
import type { TenantsTable } from '../schema';

export type AccountRow = Selectable<TenantsTable>;

/** How deep a hierarchy may be; the walks stop there (and creating or moving below it is refused). */
export const MAX_DEPTH = 32;

/** Ancestors of `tenantId`, nearest first (depth 1 = parent), not the tenant itself. */
export async function ancestorsOf(db: Db, tenantId: string): Promise<{ id: string; name: string; depth: number }[]> {
  const { rows } = await sql<{ id: string; name: string; depth: number | string }>`
    with recursive chain(id, parent, depth) as (
      select id, parent_tenant_id, 0 from tenants where id = ${tenantId}
      union all
      select t.id, t.parent_tenant_id, chain.depth + 1 from tenants t join chain on t.id = chain.parent where chain.depth < ${MAX_DEPTH}
    )
    select chain.id as id, t.name as name, chain.depth as depth from chain join tenants t on t.id = chain.id where chain.depth > 0 order by chain.depth`.execute(db);
  return rows.map((r) => ({ id: r.id, name: r.name, depth: Number(r.depth) }));
}

/**
 * The memberships of `userId` in the ancestors of `tenantId`, nearest first, active ones only, with
 * what decides their reach: the ancestor's access type and the membership's own override.
 */
export async function memberAncestors(db: Db, userId: string, tenantId: string, now: number): Promise<{ tenantId: string; depth: number; accessType: string; access: number | null }[]> {
  const { rows } = await sql<{ tenant_id: string; depth: number | string; access_type: string; access: number | null }>`
    with recursive chain(id, parent, depth) as (
      select id, parent_tenant_id, 0 from tenants where id = ${tenantId}
      union all
      select t.id, t.parent_tenant_id, chain.depth + 1 from tenants t join chain on t.id = chain.parent where chain.depth < ${MAX_DEPTH}
    )
    select ut.tenant_id as tenant_id, chain.depth as depth, t.sub_account_access_type as access_type, ut.sub_account_access as access
    from chain join tenants t on t.id = chain.id join user_tenants ut on ut.tenant_id = chain.id and ut.user_id = ${userId}
    where chain.depth > 0 and ut.disabled_at is null and ut.admin_locked_at is null and (ut.expires_at is null or ut.expires_at > ${now})
    order by chain.depth`.execute(db);
  return rows.map((r) => ({ tenantId: r.tenant_id, depth: Number(r.depth), accessType: r.access_type, access: r.access === null ? null : Number(r.access) }));
}

export function findAccount(db: Db, tenantId: string): Promise<AccountRow | undefined> {
  return db.selectFrom('tenants').selectAll().where('id', '=', tenantId).executeTakeFirst();
}

/** Renames, moves or retypes an account; a patch that sets nothing writes nothing. */
export async function updateAccount(db: Db, tenantId: string, patch: Pick<Updateable<TenantsTable>, 'name' | 'parent_tenant_id' | 'metadata' | 'tenant_type'>): Promise<void> {
  const changes = changesOf(patch);
  if (!changes) return;
  await db.updateTable('tenants').set(changes).where('id', '=', tenantId).execute();
}

const SORT_COLUMN = { createdAt: 'created_at', name: 'name', tenantId: 'id' } as const;

/** One page of the children of `parentId` (`limit + 1` rows are read to know whether more follow). */
export function childrenPage(db: Db, parentId: string, opts: { offset: number; limit: number; sortBy: keyof typeof SORT_COLUMN; order: 'ASC' | 'DESC' }): Promise<AccountRow[]> {
  const direction = opts.order === 'DESC' ? 'desc' : 'asc';
  return db
    .selectFrom('tenants')
    .selectAll()
    .where('parent_tenant_id', '=', parentId)
    .orderBy(SORT_COLUMN[opts.sortBy], direction)
    .orderBy('id', direction)
    .limit(opts.limit + 1)
    .offset(opts.offset)
    .execute();
}

/** Descendants of `rootId` (any depth, not the root) whose name starts with `prefix` (case-insensitive), by name. */
export async function searchDescendants(db: Db, rootId: string, prefix: string, opts: { offset: number; limit: number }): Promise<AccountRow[]> {
  const pattern = `${prefix.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const { rows } = await sql<AccountRow>`
    with recursive sub(id, depth) as (
      select id, 0 from tenants where id = ${rootId}
      union all
      select t.id, sub.depth + 1 from tenants t join sub on t.parent_tenant_id = sub.id where sub.depth < ${MAX_DEPTH}
    )
    select t.* from sub join tenants t on t.id = sub.id
    where sub.depth > 0 and lower(t.name) like ${pattern} escape '\\'
    order by lower(t.name), t.id limit ${opts.limit + 1} offset ${opts.offset}`.execute(db);
  return rows.map((r) => ({ ...r, created_at: Number(r.created_at), is_reseller: Number(r.is_reseller) }));
}

/** tenant id -> active users. */
export async function usersCounts(db: Db, tenantIds: readonly string[], now: number): Promise<Map<string, number>> {
  const map = new Map<string, number>(tenantIds.map((id) => [id, 0]));
  if (tenantIds.length === 0) return map;
  const rows = await db
    .selectFrom('user_tenants')
    .select(['tenant_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('tenant_id', 'in', tenantIds)
    .where('disabled_at', 'is', null)
    .where('admin_locked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .groupBy('tenant_id')
    .execute();
  for (const r of rows) map.set(r.tenant_id, Number(r.n));
  return map;
}

/** tenant id -> number of direct children. */
export async function childCounts(db: Db, tenantIds: readonly string[]): Promise<Map<string, number>> {
  const map = new Map<string, number>(tenantIds.map((id) => [id, 0]));
  if (tenantIds.length === 0) return map;
  const rows = await db
    .selectFrom('tenants')
    .select(['parent_tenant_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('parent_tenant_id', 'in', tenantIds)
    .groupBy('parent_tenant_id')
    .execute();
  for (const r of rows) if (r.parent_tenant_id) map.set(r.parent_tenant_id, Number(r.n));
  return map;
}

/** One page of the users of a tenant (every membership, active or not), by name, with their override. */
export function accountUsersPage(db: Db, tenantId: string, offset: number, limit: number) {
  return db
    .selectFrom('user_tenants')
    .innerJoin('users', 'users.id', 'user_tenants.user_id')
    .select(['users.id as id', 'users.name as name', 'users.email as email', 'user_tenants.sub_account_access as access'])
    .where('user_tenants.tenant_id', '=', tenantId)
    .orderBy('user_tenants.sort_name')
    .orderBy('user_tenants.user_id')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function countAccountUsers(db: Db, tenantId: string): Promise<number> {
  const row = await db.selectFrom('user_tenants').select((eb) => eb.fn.countAll<number | string>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export function findMembership(db: Db, userId: string, tenantId: string) {
  return db.selectFrom('user_tenants').select(['user_id', 'sub_account_access']).where('user_id', '=', userId).where('tenant_id', '=', tenantId).executeTakeFirst();
}

/**
 * Whether a tenant id has a history: audit rows (they outlive the tenant) or an audits counter.
 * Such an id belonged to a deleted tenant and is never given out again, so nobody inherits its log.
 */
export async function tenantIdHasHistory(db: Db, tenantId: string): Promise<boolean> {
  const audit = await db.selectFrom('audits').select('id').where('tenant_id', '=', tenantId).limit(1).executeTakeFirst();
  if (audit) return true;
  return Boolean(await db.selectFrom('audit_counts').select('tenant_id').where('tenant_id', '=', tenantId).executeTakeFirst());
}
