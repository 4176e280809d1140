/**
 * The users of one tenant, for admins: the list over the membership read model of migration 016
 * (every sort field and preset is an index range of `user_tenants`), and the membership's own state.
 * Every function takes the tenant id: nothing here reads or writes another tenant's rows.
 */
import { sql, type Selectable } from 'kysely';
import { isPostgres } from '../dialect';
import { INACTIVE_USER_SECONDS, type UsersListQuery } from '@gatehouse/shared/wire';
import type { Db } from '../index';
import { changesOf } from '../patch';
import type { UserTenantsTable } from '../schema';
import type { UserRow } from './users';
import type { AnchorOf, MarkAnchor } from './member-marks';

export type MembershipRow = Selectable<UserTenantsTable>;

/** Sorts after every character a name or email holds, so `[q, q + MAX_CHAR)` is exactly "starts with q". */
const MAX_CHAR = '\u{10FFFF}';

export type MemberSortColumn = 'sort_name' | 'email' | 'user_created_at' | 'user_id' | 'verified' | 'locked' | 'provider';

/** Index order of each sort field; the same direction for every column, so one index serves both directions. */
const SORT_COLUMNS: Record<UsersListQuery['sortBy'], MemberSortColumn[]> = {
  name: ['sort_name', 'user_id'],
  email: ['email', 'user_id'],
  createdAt: ['user_created_at', 'user_id'],
  id: ['user_id'],
  verified: ['verified', 'sort_name', 'user_id'],
  isLocked: ['locked', 'sort_name', 'user_id'],
  provider: ['provider', 'sort_name', 'user_id'],
  // Every row of one tenant has the same tenantId: name breaks the tie.
  tenantId: ['sort_name', 'user_id'],
};

function filtered(db: Db, tenantId: string, query: Pick<UsersListQuery, 'search' | 'preset'>, now: number) {
  let q = db.selectFrom('user_tenants').where('tenant_id', '=', tenantId);
  if (query.preset === 'mfa-unenrolled') q = q.where('mfa_enrolled', '=', 0);
  else if (query.preset === 'breached-passwords') q = q.where('breached', '=', 1);
  else if (query.preset === 'inactive') q = q.where('active_at', '<', now - INACTIVE_USER_SECONDS * 1000);
  const search = query.search?.trim();
  if (search) {
    // Two index ranges: name prefix (lower-cased the way the copy was) or email prefix (stored lower-case).
    const email = search.toLowerCase();
    q = q.where((eb) =>
      eb.or([
        eb.and([eb('sort_name', '>=', sql<string>`lower(${search})`), eb('sort_name', '<', sql<string>`lower(${search}) || ${MAX_CHAR}`)]),
        eb.and([eb('email', '>=', email), eb('email', '<', `${email}${MAX_CHAR}`)]),
      ]),
    );
  }
  return q;
}

/** The page's rows in list order; `direction` reverses every sort column (the back half of the list is read from its end). */
function pageQuery(db: Db, tenantId: string, query: UsersListQuery, now: number, direction: 'asc' | 'desc') {
  let page = filtered(db, tenantId, query, now);
  for (const column of SORT_COLUMNS[query.sortBy]) page = page.orderBy(column, direction);
  return page;
}

/** The columns a sort orders by, the user id last: a row's values of them are its keyset cursor. */
export function memberSortColumns(sortBy: UsersListQuery['sortBy']): readonly MemberSortColumn[] {
  return SORT_COLUMNS[sortBy];
}

/** Where a keyset page starts: the page after (`next`) or before (`prev`) the row with this sort key (memberSortColumns' values). */
export interface MembersKeyset {
  way: 'next' | 'prev';
  key: readonly (string | number | null)[];
}

const flip = (direction: 'asc' | 'desc') => (direction === 'asc' ? 'desc' : 'asc');

/**
 * The statements of a keyset page, in the order they are read (exported for query-plan checks): each
 * seeks the sort's index to the cursor with a row-value comparison (`(sort_name, user_id) > (?, ?)`,
 * an index range on both dialects) and reads on in travel order; nothing is skipped, so page 2,500
 * costs what the first does. A `prev` page is read backwards from the cursor (the caller reverses it).
 * Only `email` may be null, and the dialects place nulls differently (PostgreSQL after every value,
 * SQLite before), as the offset pages do: the email sort reads the non-null and the null emails as two
 * ranges, in the order the dialect lists them.
 */
export function membersKeysetQueries(db: Db, tenantId: string, query: UsersListQuery, now: number, keyset: MembersKeyset) {
  const columns = SORT_COLUMNS[query.sortBy];
  const travel = keyset.way === 'next' ? query.sortDirection : flip(query.sortDirection);
  const op = sql.raw(travel === 'asc' ? '>' : '<');
  const base = () => filtered(db, tenantId, query, now);
  const ordered = (q: ReturnType<typeof base>) => columns.reduce((page, column) => page.orderBy(column, travel), q);
  const beyond = (cols: readonly MemberSortColumn[], values: readonly (string | number | null)[]) =>
    sql<boolean>`(${sql.join(cols.map((c) => sql.ref(c)))}) ${op} (${sql.join(values.map((v) => sql`${v}`))})`;
  if (columns[0] !== 'email') return [ordered(base().where(beyond(columns, keyset.key)))];
  // Whether, in travel order, the null emails come after the others (PostgreSQL sorts NULL as the largest value).
  const nullsLast = (travel === 'asc') === isPostgres(db);
  const [email, userId] = keyset.key;
  const nulls = () => base().where('email', 'is', null);
  if (email !== null) return [ordered(base().where(beyond(columns, keyset.key))), ...(nullsLast ? [ordered(nulls())] : [])];
  return [ordered(nulls().where(beyond(['user_id'], [userId ?? '']))), ...(nullsLast ? [] : [ordered(base().where('email', 'is not', null))])];
}

/**
 * The page after or before `keyset`, in list order, and whether more rows lie beyond it in the
 * direction it was read (one row more is read to know).
 */
export async function listMembersByKeyset(db: Db, tenantId: string, query: UsersListQuery, now: number, keyset: MembersKeyset): Promise<{ rows: MembershipRow[]; more: boolean }> {
  const want = query.pageSize + 1;
  const rows: MembershipRow[] = [];
  for (const range of membersKeysetQueries(db, tenantId, query, now, keyset)) {
    rows.push(...(await range.selectAll().limit(want - rows.length).execute()));
    if (rows.length >= want) break;
  }
  const page = rows.slice(0, query.pageSize);
  return { rows: keyset.way === 'prev' ? page.reverse() : page, more: rows.length > query.pageSize };
}

/** How many memberships match the list's search and preset (a counter of migration 040 when it has one). */
export async function countMembers(db: Db, tenantId: string, query: UsersListQuery, now: number): Promise<number> {
  return Number((await membersPageQueries(db, tenantId, query, now).count.executeTakeFirst())?.n ?? 0);
}

/** The preset whose count migration 040 keeps, when the list has no other filter. */
const COUNTED: Partial<Record<NonNullable<UsersListQuery['preset']> | 'all', 'n' | 'mfa_unenrolled' | 'breached'>> = { all: 'n', 'mfa-unenrolled': 'mfa_unenrolled', 'breached-passwords': 'breached' };

/** One of migration 040's counts of the tenant (`n`: all its members) with the list's version of migration 045 (`v`). */
export function countedMembers(db: Db, tenantId: string, counter: 'n' | 'mfa_unenrolled' | 'breached' = 'n') {
  return db
    .selectFrom('member_counts')
    .select([sql<number | string>`${sql.ref(counter)}`.as('n'), sql<number | string | null>`list_version`.as('v')])
    .where('tenant_id', '=', tenantId);
}

/**
 * The rows after or before a page mark (services/admin/member-marks.ts), in the order they are
 * read: from a mark's key, the keyset statement a cursor at that row would run (its first range
 * lies in the mark's part of the email sort); from the start or end of a part, the list's order
 * restricted to that part.
 */
function fromAnchor(db: Db, tenantId: string, query: UsersListQuery, now: number, anchor: MarkAnchor) {
  if (anchor.key) return membersKeysetQueries(db, tenantId, query, now, { way: anchor.read === query.sortDirection ? 'next' : 'prev', key: anchor.key })[0]!;
  const ordered = pageQuery(db, tenantId, query, now, anchor.read);
  return anchor.emails ? ordered.where('email', anchor.emails === 'null' ? 'is' : 'is not', null) : ordered;
}

/**
 * The statements of a users page (exported for the scale bench's query plans): the count of every
 * match (the counter of migration 040 when it has it, with the list's version of migration 045), and
 * the page. `page(total)` reads the page from the nearer end of the list (the last page is the first
 * rows in reverse order) or, given `anchors` (page marks, services/admin/member-marks.ts), from the
 * nearest mark when that skips fewer rows. Past the first rows it reads as a deferred join: `keys` walks the covering
 * index (tenant_id, sort columns, user_id) to the page's user ids without reading a row, then just
 * those rows are read (on PostgreSQL in the same statement, `rows`; on SQLite `rows` is null and
 * listMembersPage reads them by id); `reversed` when the rows come in reverse order; `skip`, the rows
 * walked over; `marked`, whether a mark was the start.
 */
export function membersPageQueries(db: Db, tenantId: string, query: UsersListQuery, now: number) {
  const counter = query.search?.trim() ? undefined : COUNTED[query.preset ?? 'all'];
  return {
    count: counter
      ? countedMembers(db, tenantId, counter)
      : filtered(db, tenantId, query, now).select((eb) => [eb.fn.countAll<number | string>().as('n'), sql<number | string | null>`null`.as('v')]),
    page(total: number, anchors?: AnchorOf | null) {
      const offset = query.page * query.pageSize;
      const limit = Math.max(0, Math.min(query.pageSize, total - offset));
      // From the end when the page's middle lies in the back half of the list.
      let reversed = offset + limit / 2 > total / 2;
      let skip = reversed ? total - offset - limit : offset;
      let ordered = pageQuery(db, tenantId, query, now, reversed ? flip(query.sortDirection) : query.sortDirection);
      let marked = false;
      if (anchors && skip > 0 && limit > 0) {
        // The page's first row counted from the start of the ascending list, where the marks count.
        const anchor = anchors(query.sortDirection === 'asc' ? offset : total - offset - limit, limit);
        if (anchor && anchor.skip < skip) {
          ({ skip } = anchor);
          reversed = anchor.read !== query.sortDirection;
          ordered = fromAnchor(db, tenantId, query, now, anchor);
          marked = true;
        }
      }
      if (skip === 0) return { reversed, limit, skip, marked, keys: null, rows: ordered.selectAll().limit(limit) };
      const keys = ordered.select('user_id').limit(limit).offset(skip);
      // PostgreSQL: one statement, the page's ids (the subquery, at most `limit` rows) read first as an
      // array, then just their rows by primary key, in the array's order. Ordering by the array's
      // positions, not the sort columns, leaves the planner no reason to walk a sort index instead,
      // and the array's fixed size no reason, in a generic plan that does not know the limit, to
      // hash-join the whole tenant. SQLite runs in the process: there the ids and the rows are two
      // statements (listMembersPage).
      const rows = isPostgres(db)
        ? db
            .selectFrom(sql<{ k: string; ordinality: number }>`unnest(array(${keys})) with ordinality`.as('k'))
            .innerJoin('user_tenants', (join) => join.onRef('user_tenants.user_id', '=', 'k.k').on('user_tenants.tenant_id', '=', tenantId))
            .selectAll('user_tenants')
            .orderBy('k.ordinality')
        : null;
      return { reversed, limit, skip, marked, keys, rows };
    },
  };
}

/**
 * One page of a tenant's memberships in list order, and how many match. With `anchorsFor` (page
 * marks, services/admin/member-marks.ts), the list's version of migration 045 is asked for its
 * anchors, and the page is read from the nearest one when that skips fewer rows: `version` is the
 * list's (null without anchorsFor or a counter), `anchored` whether there were anchors, `marked`
 * whether the page came from one, `skip` the rows walked over.
 */
export async function listMembersPage(
  db: Db,
  tenantId: string,
  query: UsersListQuery,
  now: number,
  anchorsFor?: (version: string, total: number) => AnchorOf | null,
): Promise<{ rows: MembershipRow[]; total: number; version: string | null; anchored: boolean; marked: boolean; skip: number }> {
  const { count, page } = membersPageQueries(db, tenantId, query, now);
  const counted = await count.executeTakeFirst();
  const total = Number(counted?.n ?? 0);
  const version = anchorsFor && counted?.v != null ? String(counted.v) : null;
  const anchors = version !== null ? anchorsFor!(version, total) : null;
  const { reversed, limit, keys, rows: statement, skip, marked } = page(total, anchors);
  const anchored = anchors !== null;
  if (limit === 0) return { rows: [], total, version, anchored, marked, skip: 0 };
  let rows: MembershipRow[];
  if (statement) rows = await statement.execute();
  else {
    const ids = (await keys!.execute()).map((r) => r.user_id);
    const byId = new Map((await listMemberships(db, tenantId, ids)).map((m) => [m.user_id, m]));
    rows = ids.flatMap((id) => byId.get(id) ?? []);
  }
  return { rows: reversed ? rows.reverse() : rows, total, version, anchored, marked, skip };
}

export function findMembership(db: Db, tenantId: string, userId: string): Promise<MembershipRow | undefined> {
  return db.selectFrom('user_tenants').selectAll().where('tenant_id', '=', tenantId).where('user_id', '=', userId).executeTakeFirst();
}

export function listMemberships(db: Db, tenantId: string, userIds: readonly string[]): Promise<MembershipRow[]> {
  if (userIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('user_tenants').selectAll().where('tenant_id', '=', tenantId).where('user_id', 'in', userIds).execute();
}

export function findUsersByIds(db: Db, ids: readonly string[]): Promise<UserRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('users').selectAll().where('id', 'in', ids).execute();
}

/** The membership's own state; `locked` (the copy) follows the admin lock and the account's lockout. */
export async function updateMembershipState(
  db: Db,
  tenantId: string,
  userId: string,
  patch: { disabled_at?: number | null; admin_locked_at?: number | null; expires_at?: number | null },
): Promise<void> {
  const changes = changesOf(patch);
  if (!changes) return;
  await db
    .updateTable('user_tenants')
    .set({
      ...changes,
      ...(patch.admin_locked_at !== undefined
        ? { locked: patch.admin_locked_at !== null ? 1 : sql<number>`(select case when u.locked_at is not null then 1 else 0 end from users u where u.id = ${userId})` }
        : {}),
    })
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .execute();
}

/** Removes the membership with everything it held in the tenant: roles, groups, invitations, application assignments. */
export async function removeMembership(db: Db, tenantId: string, userId: string): Promise<void> {
  await db.deleteFrom('application_users').where('tenant_id', '=', tenantId).where('user_id', '=', userId).execute();
  await db.deleteFrom('user_roles').where('tenant_id', '=', tenantId).where('user_id', '=', userId).execute();
  await db
    .deleteFrom('group_users')
    .where('user_id', '=', userId)
    .where('group_id', 'in', (eb) => eb.selectFrom('groups').select('id').where('tenant_id', '=', tenantId))
    .execute();
  await db.deleteFrom('invitations').where('tenant_id', '=', tenantId).where('user_id', '=', userId).execute();
  // The SCIM record of the membership goes with it (it has no foreign key: resource_id is a user or a
  // group): a member who left and was invited again is not SCIM's, and its userName is free again.
  await db.deleteFrom('scim_resources').where('tenant_id', '=', tenantId).where('resource_type', '=', 'User').where('resource_id', '=', userId).execute();
  await db.deleteFrom('user_tenants').where('tenant_id', '=', tenantId).where('user_id', '=', userId).execute();
}

/** The user's direct roles in the tenant become exactly `roleIds` (already checked to be the tenant's). */
export async function replaceUserRoles(db: Db, tenantId: string, userId: string, roleIds: readonly string[]): Promise<void> {
  await db.deleteFrom('user_roles').where('tenant_id', '=', tenantId).where('user_id', '=', userId).execute();
  if (roleIds.length > 0) await db.insertInto('user_roles').values(roleIds.map((role_id) => ({ user_id: userId, tenant_id: tenantId, role_id }))).execute();
}

/** Direct roles of these users in the tenant. */
export function listRolesOfUsers(db: Db, tenantId: string, userIds: readonly string[]) {
  if (userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('user_roles')
    .innerJoin('roles', 'roles.id', 'user_roles.role_id')
    .select(['user_roles.user_id', 'roles.id', 'roles.key', 'roles.name', 'roles.description'])
    .where('user_roles.tenant_id', '=', tenantId)
    .where('roles.tenant_id', '=', tenantId)
    .where('user_roles.user_id', 'in', userIds)
    .orderBy('roles.key')
    .execute();
}

/** Groups of the tenant these users are in. */
export function listGroupsOfUsers(db: Db, tenantId: string, userIds: readonly string[]) {
  if (userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('group_users')
    .innerJoin('groups', 'groups.id', 'group_users.group_id')
    .select(['group_users.user_id', 'groups.id', 'groups.name', 'groups.color'])
    .where('groups.tenant_id', '=', tenantId)
    .where('group_users.user_id', 'in', userIds)
    .orderBy('groups.name')
    .execute();
}

/** Which of these users have an invitation to the tenant not yet accepted. */
export async function pendingInvitationUserIds(db: Db, tenantId: string, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db.selectFrom('invitations').select('user_id').where('tenant_id', '=', tenantId).where('user_id', 'in', userIds).where('accepted_at', 'is', null).execute();
  return new Set(rows.map((r) => r.user_id));
}

/** Revokes the user's sessions acting in this tenant (their sessions in other tenants live on). */
export async function revokeTenantSessions(db: Db, tenantId: string, userId: string, now: number): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('tenant_id', '=', tenantId).where('revoked_at', 'is', null).execute();
}

/** Counts of the team page: the counters of migration 040, the others in one pass over the tenant's memberships. */
export async function memberStats(db: Db, tenantId: string, now: number) {
  const [pending, counted, states] = await Promise.all([
    db.selectFrom('invitations').select((eb) => eb.fn.countAll<number | string>().as('n')).where('tenant_id', '=', tenantId).where('accepted_at', 'is', null).executeTakeFirst(),
    // The counts migration 040 keeps (no count of the tenant's memberships).
    db.selectFrom('member_counts').select(['n', 'mfa_unenrolled', 'breached']).where('tenant_id', '=', tenantId).executeTakeFirst(),
    // The states no counter keeps, in one pass over the tenant's memberships (four counts had read them four times).
    db
      .selectFrom('user_tenants')
      .where('tenant_id', '=', tenantId)
      .select((eb) => [
        eb.fn.countAll<number | string>().filterWhere('disabled_at', 'is not', null).as('disabled'),
        eb.fn.countAll<number | string>().filterWhere('locked', '=', 1).as('locked'),
        eb.fn.countAll<number | string>().filterWhere('expires_at', 'is not', null).as('temporary'),
        eb.fn.countAll<number | string>().filterWhere('active_at', '<', now - INACTIVE_USER_SECONDS * 1000).as('inactive'),
      ])
      .executeTakeFirst(),
  ]);
  return {
    totalUsers: Number(counted?.n ?? 0),
    pendingInvitations: Number(pending?.n ?? 0),
    disabled: Number(states?.disabled ?? 0),
    locked: Number(states?.locked ?? 0),
    temporary: Number(states?.temporary ?? 0),
    mfaUnenrolled: Number(counted?.mfa_unenrolled ?? 0),
    breachedPasswords: Number(counted?.breached ?? 0),
    inactive: Number(states?.inactive ?? 0),
  };
}

/** Memberships left to the user after a removal (none: the account goes too). */
export async function countMemberships(db: Db, userId: string): Promise<number> {
  const row = await db.selectFrom('user_tenants').select((eb) => eb.fn.countAll<number | string>().as('n')).where('user_id', '=', userId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function deleteUserAccount(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('scim_resources').where('resource_type', '=', 'User').where('resource_id', '=', userId).execute();
  await db.deleteFrom('users').where('id', '=', userId).execute();
}
