/**
 * The statement of the users list's page marks (services/admin/member-marks.ts keeps them): the sort
 * key of every `step`-th row of a tenant's list in one sort, with the tenant's `list_version`
 * (migration 045) and total read in the same snapshot, and where the email sort's null emails lie.
 */
import { sql } from 'kysely';
import type { UsersListQuery } from '@gatehouse/shared/wire';
import { isPostgres } from '../dialect';
import type { Db } from '../index';
import { countedMembers, memberSortColumns } from './admin-users';

export type MemberSortKey = readonly (string | number | null)[];

/**
 * Where a page is read from: after (`asc`) or before (`desc`) the row with `key` (null: from the
 * start or end of the list's part), skipping `skip` rows; `emails` restricts the email sort to its
 * addresses or its nulls.
 */
export interface MarkAnchor {
  read: 'asc' | 'desc';
  key: MemberSortKey | null;
  skip: number;
  emails: 'null' | 'not null' | null;
}

/** The anchor of the page at ascending positions [lo, lo + limit), or null when it spans two parts. */
export type AnchorOf = (lo: number, limit: number) => MarkAnchor | null;

/** A stretch of the ascending list a key comparison stays within: all of it, or the email sort's addresses or nulls. */
export interface MarkedPart {
  start: number;
  end: number;
  emails: MarkAnchor['emails'];
}

/** The marks of one list as read: positions count from the start of the ascending list. */
export interface MarkedList {
  version: string;
  total: number;
  /** Ascending positions of the marks, and their keys. */
  positions: number[];
  keys: MemberSortKey[];
  parts: MarkedPart[];
}

/**
 * The marks as hops: from the start of each part of the list, the key `step` rows on, then `step`
 * rows on from that key (a keyset seek of the sort's index that skips step - 1 entries), until
 * fewer than `step` rows are left. About as costly as one walk of the list (PostgreSQL, 100,000
 * members: ~12 ms), where numbering every row (`row_number()`) took three times that.
 */
export async function readMemberMarks(db: Db, tenantId: string, sortBy: UsersListQuery['sortBy'], step: number): Promise<MarkedList | null> {
  const columns = memberSortColumns(sortBy);
  const email = columns[0] === 'email';
  const refs = (alias: string, cols: readonly string[] = columns) => sql.join(cols.map((c) => sql.ref(`${alias}.${c}`)));
  const order = (alias: string) => sql.join(columns.map((c) => sql`${sql.ref(`${alias}.${c}`)} asc`));
  const hops = (name: string, emails: MarkedPart['emails']) => {
    const within = (alias: string) => (emails === null ? sql`` : sql` and ${sql.ref(`${alias}.email`)} ${sql.raw(emails === 'null' ? 'is null' : 'is not null')}`);
    // Among null emails only the user id orders.
    const key = emails === 'null' ? ['user_id'] : columns;
    return sql`${sql.table(name)} (${sql.join(columns.map((c) => sql.ref(c)))}, gh_hop) as (
      select * from (
        select ${refs('f')}, 0 as gh_hop from user_tenants f where f.tenant_id = ${tenantId}${within('f')} order by ${order('f')} limit 1 offset ${step - 1}
      ) as first
      union all
      select ${refs('u')}, h.gh_hop + 1 from ${sql.table(name)} h join user_tenants u on u.tenant_id = ${tenantId} and u.user_id = (
        select m.user_id from user_tenants m where m.tenant_id = ${tenantId}${within('m')} and (${refs('m', key)}) > (${refs('h', key)})
        order by ${order('m')} limit 1 offset ${step - 1}
      )
    )`;
  };
  const names: [string, MarkedPart['emails']][] = email ? [['gh_addresses', 'not null'], ['gh_nulls', 'null']] : [['gh_all', null]];
  const nulls = email ? sql`(select count(*) from user_tenants where tenant_id = ${tenantId} and email is null)` : sql`0`;
  const hopsOf = sql.join(names.map(([name, emails]) => sql`select ${emails ?? 'all'} as gh_part, ${sql.table(name)}.* from ${sql.table(name)}`), sql` union all `);
  // The version, the total, the null emails and the marks, in one statement: one snapshot.
  const { rows } = await sql<Record<string, string | number | null>>`
    with recursive ${sql.join(names.map(([name, emails]) => hops(name, emails)))}
    select c.list_version as gh_version, c.n as gh_total, ${nulls} as gh_null_emails, p.*
    from member_counts c left join (${hopsOf}) as p on true
    where c.tenant_id = ${tenantId}`.execute(db);
  const first = rows[0];
  if (!first) return null;
  const total = Number(first.gh_total);
  const nullCount = Number(first.gh_null_emails);
  // The email sort's parts: PostgreSQL lists null emails last in ascending order, SQLite first.
  const parts: MarkedPart[] = !email
    ? [{ start: 0, end: total, emails: null }]
    : isPostgres(db)
      ? [
          { start: 0, end: total - nullCount, emails: 'not null' },
          { start: total - nullCount, end: total, emails: 'null' },
        ]
      : [
          { start: 0, end: nullCount, emails: 'null' },
          { start: nullCount, end: total, emails: 'not null' },
        ];
  const marks = rows
    .filter((r) => r.gh_hop !== null)
    .map((r) => {
      const part = parts.find((p) => (p.emails ?? 'all') === r.gh_part)!;
      return { position: part.start + (Number(r.gh_hop) + 1) * step - 1, key: columns.map((c) => r[c] ?? null) };
    })
    .sort((a, b) => a.position - b.position);
  return {
    version: String(first.gh_version),
    total,
    positions: marks.map((m) => m.position),
    keys: marks.map((m) => m.key),
    parts: parts.filter((p) => p.end > p.start),
  };
}

/** The tenant's `list_version` (migration 045) and member count, as a list call reads them; null for a tenant without a count. */
export async function readListVersion(db: Db, tenantId: string): Promise<{ version: string; total: number } | null> {
  const row = await countedMembers(db, tenantId).executeTakeFirst();
  return row ? { version: String(row.v), total: Number(row.n) } : null;
}
