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
 *   the same snapshot (db/queries/member-marks.ts). It starts `settle` ms after that page is read,
 *   and only if the list's version is still the one that page walked: a list that changes all the
 *   time (an import, a directory sync) would retire its marks before they were used, and the build,
 *   as costly as a walk, would only slow the walks beside it. At most `builds` at once and one per
 *   list per `minInterval`; the page that started it was read by offset.
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
import { setTimeout as sleep } from 'node:timers/promises';
import type { UsersListQuery } from '@gatehouse/shared/wire';
import type { Db } from '../../db';
import { listMembersPage, type MembershipRow } from '../../db/queries/admin-users';
import { readListVersion, readMemberMarks, type MarkAnchor, type MarkedList, type AnchorOf } from '../../db/queries/member-marks';
import { log, reasonOf } from '../../log';

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
  /** How long, in ms, the version a deep page walked must stay the list's before its marks are built. */
  settle: number;
}

const DEFAULTS: MemberListMarksOptions = { lists: 32, minTotal: 10_000, minStep: 1_000, maxMarks: 1_000, builds: 2, minInterval: 1_000, settle: 100 };

/** Puts `key` last (most recently used) with `value`, and drops the oldest entries beyond `max`. */
function keepRecent<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) map.delete(map.keys().next().value!);
}

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
    keepRecent(this.lists, key, list, this.options.lists);
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
   * it runs or settles, one ran less than `minInterval` ago, or `builds` run. Given `walked`, the
   * version and total a deep page walked, it first waits `settle` ms and builds only if they are still
   * the list's. Never rejects: a failure is logged and the list keeps its offsets.
   */
  build(db: Db, tenantId: string, sortBy: UsersListQuery['sortBy'], total: number, walked?: string): Promise<void> | null {
    const key = `${tenantId}\u0000${sortBy}`;
    if (this.building.has(key) || this.building.size >= this.options.builds) return null;
    if (Date.now() - (this.started.get(key) ?? -Infinity) < this.options.minInterval) return null;
    const run = (async () => {
      if (walked !== undefined) {
        await sleep(this.options.settle, undefined, { ref: false });
        const now = await readListVersion(db, tenantId);
        if (now?.version !== walked || now.total !== total) return;
      }
      keepRecent(this.started, key, Date.now(), this.options.lists);
      const step = Math.max(this.options.minStep, Math.ceil(total / this.options.maxMarks));
      const list = await readMemberMarks(db, tenantId, sortBy, step);
      if (list) keepRecent(this.lists, key, list, this.options.lists);
    })()
      .catch((err) => log.warn('Users list: page marks not built:', reasonOf(err)))
      .finally(() => this.building.delete(key));
    this.building.set(key, run);
    return run;
  }
}

/**
 * One page of the users list by offset, read from the tenant's page marks when they are the list's
 * version; a deep page walked for want of them starts a build of the version it walked, once its
 * rows are read (`built` settles when the build is done or was not needed, for tests).
 */
export async function listMembersWithMarks(
  db: Db,
  tenantId: string,
  query: UsersListQuery,
  now: number,
  marks: MemberListMarks | undefined,
): Promise<{ rows: MembershipRow[]; total: number; marked: boolean; built: Promise<void> | null }> {
  const kept = marks && MemberListMarks.covers(query) ? marks : undefined;
  const page = await listMembersPage(db, tenantId, query, now, kept ? (version, total) => kept.anchors(tenantId, query.sortBy, version, total) : undefined);
  const built = kept && page.version !== null && !page.anchored && kept.wants(page.total, page.skip) ? kept.build(db, tenantId, query.sortBy, page.total, page.version) : null;
  return { rows: page.rows, total: page.total, marked: page.marked, built };
}
