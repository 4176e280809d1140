/**
 * Page marks of the users list (issue 17): the sort key of every `step`-th row of a tenant's list, so
 * a page asked for by offset (`pageOffset=2500`) is read by keyset from the mark just before it,
 * skipping fewer than `step` rows, instead of walking every row before it.
 *
 * On PostgreSQL an offset costs about 140 ns per skipped index entry (page 2,500 of 100,000 members:
 * 7 ms), and more when the rows' pages are not all-visible (each skipped entry then reads its row), so
 * the service keeps marks there. SQLite walks its index in the process about as fast as a keyset
 * seek plus the round trips, and a build would block the event loop: no marks.
 *
 * - **Built once a deep page is asked for** (the offset path skipped at least `minStep` rows of a
 *   list of at least `minTotal`): one statement hops along the sort's index `step` rows at a time and
 *   keeps each key it lands on, together with the tenant's `list_version` (migration 045) read in
 *   the same snapshot. It starts once that page is read, at most `builds` at once and one per list
 *   per `minInterval`; the page that started it was read by offset.
 * - **Used only while they are the list's:** each list call reads `list_version` with the count, and
 *   marks of another version or total are not used. Any change that can move a row in any sort (a
 *   member joins or leaves, a name, email, creation date, verified, lock or provider changes) raises
 *   the version in the same transaction, whichever process or SQL makes it; the next deep page walks
 *   again and starts a new build.
 * - **Per tenant and sort:** a search or preset list has no marks. Both directions use the same
 *   marks (positions count from the start of the list, ascending).
 * - **Bounded:** at most `lists` lists (least recently used goes first), each with at most about
 *   1,000 marks (`step` grows with the list).
 * - **The email sort's null emails:** the dialects place them at one end (PostgreSQL after every
 *   address, SQLite before), and a key comparison never crosses from addresses to nulls: the build
 *   counts them, and a page is read from a mark in its own part of the list (or by offset, for the one
 *   page that spans both parts).
 */
import { sql } from 'kysely';
import type { UsersListQuery } from '@gatehouse/shared/wire';
import { log, reasonOf } from '../../log';
import { isPostgres } from '../dialect';
import type { Db } from '../index';
import type { MemberSortColumn } from './admin-users';

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

interface Part {
  start: number;
  end: number;
  emails: MarkAnchor['emails'];
}

interface MarkedList {
  version: string;
  total: number;
  /** Ascending positions of the marks, and their keys. */
  positions: number[];
  keys: MemberSortKey[];
  parts: Part[];
}

export interface MemberListMarksOptions {
  /** Lists kept, least recently used dropped first. */
  lists: number;
  /** The smallest list that gets marks. */
  minTotal: number;
  /** The fewest rows between two marks (and the skip that starts a build). */
  minStep: number;
  /** The most marks of one list (the step grows beyond it). */
  maxMarks: number;
  /** Builds at once. */
  builds: number;
  /** The least time between two builds of one list, in ms: a list that changes between every deep page gains nothing from marks, and its builds would only double the walks. */
  minInterval: number;
}

const DEFAULTS: MemberListMarksOptions = { lists: 32, minTotal: 10_000, minStep: 1_000, maxMarks: 1_000, builds: 2, minInterval: 1_000 };

/** The first index of `sorted` whose value is at least `value`. */
function lowerBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The anchor nearest to the page (fewest rows skipped), within the part of the list the page lies in. */
function nearest(list: MarkedList, lo: number, limit: number): MarkAnchor | null {
  const hi = lo + limit;
  const part = list.parts.find((p) => lo >= p.start && lo < p.end);
  if (!part || hi > part.end) return null;
  let best: MarkAnchor = { read: 'asc', key: null, skip: lo - part.start, emails: part.emails };
  const consider = (anchor: MarkAnchor) => {
    if (anchor.skip < best.skip) best = anchor;
  };
  consider({ read: 'desc', key: null, skip: part.end - hi, emails: part.emails });
  const below = lowerBound(list.positions, lo) - 1;
  if (below >= 0 && list.positions[below]! >= part.start) consider({ read: 'asc', key: list.keys[below]!, skip: lo - list.positions[below]! - 1, emails: part.emails });
  const above = lowerBound(list.positions, hi);
  if (above < list.positions.length && list.positions[above]! < part.end) consider({ read: 'desc', key: list.keys[above]!, skip: list.positions[above]! - hi, emails: part.emails });
  return best;
}

export class MemberListMarks {
  private readonly options: MemberListMarksOptions;
  private readonly lists = new Map<string, MarkedList>();
  private readonly building = new Map<string, Promise<void>>();
  /** When each list's last build started (as many lists as `lists` allows, oldest dropped first). */
  private readonly started = new Map<string, number>();

  constructor(options: Partial<MemberListMarksOptions> = {}) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** Whether a list of this query can have marks: no search, no preset. */
  static covers(query: Pick<UsersListQuery, 'search' | 'preset'>): boolean {
    return !query.search?.trim() && !query.preset;
  }

  /** The anchors of the tenant's list in this sort, when its marks are of this version and total. */
  anchors(tenantId: string, sortBy: UsersListQuery['sortBy'], version: string, total: number): AnchorOf | null {
    const key = `${tenantId}\u0000${sortBy}`;
    const list = this.lists.get(key);
    if (!list || list.version !== version || list.total !== total) return null;
    // Most recently used last.
    this.lists.delete(key);
    this.lists.set(key, list);
    return (lo, limit) => nearest(list, lo, limit);
  }

  /**
   * Whether a page read by offset, skipping `skip` rows of `total`, should start a build: the list is
   * large enough and the walk longer than the marks would leave.
   */
  wants(total: number, skip: number): boolean {
    return total >= this.options.minTotal && skip >= this.options.minStep;
  }

  /**
   * Reads the marks of the tenant's list in this sort (one statement, one snapshot), unless a build of
   * it runs or started less than `minInterval` ago, or `builds` run. Never rejects: a failure is
   * logged and the list keeps its offsets.
   */
  build(db: Db, tenantId: string, sortBy: UsersListQuery['sortBy'], columns: readonly MemberSortColumn[], total: number): Promise<void> | null {
    const key = `${tenantId}\u0000${sortBy}`;
    if (this.building.has(key) || this.building.size >= this.options.builds) return null;
    const now = Date.now();
    if (now - (this.started.get(key) ?? -Infinity) < this.options.minInterval) return null;
    this.started.delete(key);
    this.started.set(key, now);
    while (this.started.size > this.options.lists) this.started.delete(this.started.keys().next().value!);
    const step = Math.max(this.options.minStep, Math.ceil(total / this.options.maxMarks));
    const run = this.read(db, tenantId, columns, step)
      .then((list) => {
        if (!list) return;
        this.lists.delete(key);
        this.lists.set(key, list);
        while (this.lists.size > this.options.lists) this.lists.delete(this.lists.keys().next().value!);
      })
      .catch((err) => log.warn('Users list: page marks not built:', reasonOf(err)))
      .finally(() => this.building.delete(key));
    this.building.set(key, run);
    return run;
  }

  /**
   * The marks as hops: from the start of each part of the list, the key `step` rows on, then `step`
   * rows on from that key (a keyset seek of the sort's index that skips step - 1 entries), until
   * fewer than `step` rows are left. About as costly as one walk of the list (PostgreSQL, 100,000
   * members: ~12 ms), where numbering every row (`row_number()`) took three times that.
   */
  private async read(db: Db, tenantId: string, columns: readonly MemberSortColumn[], step: number): Promise<MarkedList | null> {
    const email = columns[0] === 'email';
    const refs = (alias: string, cols: readonly string[] = columns) => sql.join(cols.map((c) => sql.ref(`${alias}.${c}`)));
    const order = (alias: string) => sql.join(columns.map((c) => sql`${sql.ref(`${alias}.${c}`)} asc`));
    const hops = (name: string, emails: Part['emails']) => {
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
    const names: [string, Part['emails']][] = email ? [['gh_addresses', 'not null'], ['gh_nulls', 'null']] : [['gh_all', null]];
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
    const parts: Part[] = !email
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
}
