import type { UsersListQuery } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { membersPageQueries } from '../../db/queries/admin-users';
import { tenantWithAdmin } from '../../test/admin-helpers';
import { describeDialects } from '../../test/harness';
import { seedMembers } from '../../test/member-seed';
import { listMembersWithMarks, MemberListMarks } from './member-marks';

const STEP = 5;
const list = (query: Partial<UsersListQuery>): UsersListQuery => ({ page: 0, pageSize: 7, sortBy: 'name', sortDirection: 'asc', ...query });

/** The ids of the whole list in one ORDER BY (no counter, no marks, no reversal). */
async function wholeList(server: GatehouseServer, tenantId: string, query: Partial<UsersListQuery>): Promise<string[]> {
  const { page } = membersPageQueries(server.db, tenantId, list({ ...query, pageSize: 1_000_000 }), Date.now());
  return (await page(Number.MAX_SAFE_INTEGER).rows!.execute()).map((r) => r.user_id);
}

const version = async (server: GatehouseServer, tenantId: string) =>
  String((await server.db.selectFrom('member_counts').select('list_version').where('tenant_id', '=', tenantId).executeTakeFirstOrThrow()).list_version);

/** Builds the marks of the tenant's list in this sort, as the first deep page would. */
async function build(server: GatehouseServer, marks: MemberListMarks, tenantId: string, query: Partial<UsersListQuery>): Promise<void> {
  const sortBy = list(query).sortBy;
  const total = (await wholeList(server, tenantId, query)).length;
  await marks.build(server.db, tenantId, sortBy, total);
}

describeDialects('users list page marks', (h) => {
  it('reads every page from the nearest mark as the same slice of the list, in every sort and direction, null emails at either end', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const other = await tenantWithAdmin(server, 'other');
    // Every 6th member has no email: the email sort lists them after (PostgreSQL) or before (SQLite) every address.
    await seedMembers(server, admin.tenantId, 96, 'mark', { domain: 'marks.test', phoneOnly: (i) => i % 6 === 0, createdDaysAgo: (i) => i % 9, lastLoginDaysAgo: () => null });
    await seedMembers(server, other.tenantId, 23, 'mark-other', { domain: 'marks.test', createdDaysAgo: () => 1, lastLoginDaysAgo: () => null });
    const cases: Partial<UsersListQuery>[] = [
      {},
      { sortDirection: 'desc' },
      { sortBy: 'email' },
      { sortBy: 'email', sortDirection: 'desc' },
      { sortBy: 'createdAt', sortDirection: 'desc' },
      { sortBy: 'verified' },
      { sortBy: 'isLocked', sortDirection: 'desc' },
      { sortBy: 'provider' },
      { sortBy: 'id', sortDirection: 'desc' },
    ];
    for (const c of cases) {
      const marks = new MemberListMarks({ minTotal: 0, minStep: STEP, minInterval: 0 });
      await build(server, marks, admin.tenantId, c);
      const whole = await wholeList(server, admin.tenantId, c);
      expect(whole).toHaveLength(97);
      const anchors = marks.anchors(admin.tenantId, list(c).sortBy, await version(server, admin.tenantId), whole.length);
      expect(anchors, JSON.stringify(c)).not.toBeNull();
      let walked = 0;
      for (let p = 0; p * 7 < whole.length; p++) {
        const query = list({ ...c, page: p });
        const read = await listMembersWithMarks(server.db, admin.tenantId, query, Date.now(), marks);
        expect(read.rows.map((r) => r.user_id), `${JSON.stringify(c)} page ${p}`).toEqual(whole.slice(p * 7, p * 7 + 7));
        expect(read.rows.every((r) => r.tenant_id === admin.tenantId)).toBe(true);
        // No page skips as many rows as lie between two marks, but the one spanning addresses and null emails (read by offset).
        const { skip, marked } = membersPageQueries(server.db, admin.tenantId, query, Date.now()).page(whole.length, anchors);
        if (skip >= STEP) walked += 1;
        else if (skip > 0) expect(marked).toBe(true);
      }
      expect(walked, JSON.stringify(c)).toBeLessThanOrEqual(c.sortBy === 'email' ? 1 : 0);
    }
  });

  it('retires the marks when a change can move a row in any sort, made by any process or by SQL, and not on a sign-in', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const other = await tenantWithAdmin(server, 'other');
    await seedMembers(server, admin.tenantId, 40, 'ret', { domain: 'retire.test', createdDaysAgo: (i) => i % 5, lastLoginDaysAgo: () => null });
    const db = server.db;
    const deep = list({ page: 3 });
    // Two processes: each has its marks; the version is the database's.
    const [one, two] = [new MemberListMarks({ minTotal: 0, minStep: STEP, minInterval: 0 }), new MemberListMarks({ minTotal: 0, minStep: STEP, minInterval: 0 })];

    const changes: { what: string; moves: boolean; change: () => Promise<unknown> }[] = [
      { what: 'a sign-in (last_login)', moves: false, change: () => db.updateTable('users').set({ last_login: Date.now() }).where('id', '=', 'ret-0007').execute() },
      { what: 'a member of another tenant joins', moves: false, change: () => seedMembers(server, other.tenantId, 3, 'ret-other', { domain: 'retire.test', createdDaysAgo: () => 0, lastLoginDaysAgo: () => null }) },
      { what: 'a rename', moves: true, change: () => db.updateTable('users').set({ name: 'Aaron First' }).where('id', '=', 'ret-0031').execute() },
      { what: 'a new email', moves: true, change: () => db.updateTable('users').set({ email: 'zz-last@retire.test' }).where('id', '=', 'ret-0002').execute() },
      { what: 'verified', moves: true, change: () => db.updateTable('users').set({ verified: 1 }).where('id', '=', 'ret-0004').execute() },
      { what: 'a lockout', moves: true, change: () => db.updateTable('users').set({ locked_at: Date.now() }).where('id', '=', 'ret-0006').execute() },
      { what: 'a new member', moves: true, change: () => seedMembers(server, admin.tenantId, 1, 'ret-new', { domain: 'retire.test', createdDaysAgo: () => 0, lastLoginDaysAgo: () => null }) },
      { what: 'a member leaves', moves: true, change: () => db.deleteFrom('user_tenants').where('tenant_id', '=', admin.tenantId).where('user_id', '=', 'ret-0010').execute() },
    ];
    for (const { what, moves, change } of changes) {
      await build(server, one, admin.tenantId, {});
      await build(server, two, admin.tenantId, {});
      const before = await version(server, admin.tenantId);
      await change();
      const after = await version(server, admin.tenantId);
      expect(after !== before, what).toBe(moves);
      const whole = await wholeList(server, admin.tenantId, {});
      for (const marks of [one, two]) {
        const read = await listMembersWithMarks(db, admin.tenantId, deep, Date.now(), marks);
        // Marks of the old version are not used: the page is read by offset, and is the new list's.
        expect(read.marked, what).toBe(!moves);
        expect(read.rows.map((r) => r.user_id), what).toEqual(whole.slice(21, 28));
        // A walk past a mark's distance starts a build of the new version's marks.
        expect(read.built === null, what).toBe(!moves);
        await read.built;
      }
    }
  });

  it('keeps the marks of at most `lists` lists, the least recently used dropped first', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    await seedMembers(server, admin.tenantId, 30, 'lru', { domain: 'lru.test', createdDaysAgo: (i) => i % 4, lastLoginDaysAgo: () => null });
    const marks = new MemberListMarks({ minTotal: 0, minStep: STEP, minInterval: 0, lists: 2 });
    const has = async (sortBy: UsersListQuery['sortBy']) => marks.anchors(admin.tenantId, sortBy, await version(server, admin.tenantId), 31) !== null;
    await build(server, marks, admin.tenantId, { sortBy: 'name' });
    await build(server, marks, admin.tenantId, { sortBy: 'email' });
    expect(await has('name')).toBe(true); // name is now the most recently used
    await build(server, marks, admin.tenantId, { sortBy: 'createdAt' });
    expect([await has('email'), await has('name'), await has('createdAt')]).toEqual([false, true, true]);
  });

  it('builds marks once a deep page is read by offset, at most once a minInterval per list, and reads the next deep pages from them', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    await seedMembers(server, admin.tenantId, 60, 'auto', { domain: 'auto.test', createdDaysAgo: () => 0, lastLoginDaysAgo: () => null });
    const marks = new MemberListMarks({ minTotal: 10, minStep: STEP, minInterval: 0 });
    const whole = await wholeList(server, admin.tenantId, { sortBy: 'email', sortDirection: 'desc' });
    // The first page skips nothing: no build.
    expect((await listMembersWithMarks(server.db, admin.tenantId, list({ sortBy: 'email', sortDirection: 'desc' }), Date.now(), marks)).built).toBeNull();
    const first = await listMembersWithMarks(server.db, admin.tenantId, list({ page: 2, sortBy: 'email', sortDirection: 'desc' }), Date.now(), marks);
    expect(first.marked).toBe(false);
    expect(first.built).not.toBeNull();
    await first.built;
    for (const page of [2, 3, 4]) {
      const read = await listMembersWithMarks(server.db, admin.tenantId, list({ page, sortBy: 'email', sortDirection: 'desc' }), Date.now(), marks);
      expect(read.marked).toBe(true);
      expect(read.built).toBeNull();
      expect(read.rows.map((r) => r.user_id)).toEqual(whole.slice(page * 7, page * 7 + 7));
    }
    // Another sort has marks of its own; a search or preset list none.
    const byName = await listMembersWithMarks(server.db, admin.tenantId, list({ page: 3 }), Date.now(), marks);
    expect(byName.marked).toBe(false);
    expect(byName.built).not.toBeNull();
    await byName.built;
    expect((await listMembersWithMarks(server.db, admin.tenantId, list({ page: 3 }), Date.now(), marks)).marked).toBe(true);
    const preset = await listMembersWithMarks(server.db, admin.tenantId, list({ page: 3, preset: 'breached-passwords', sortBy: 'email', sortDirection: 'desc' }), Date.now(), marks);
    expect(preset).toMatchObject({ marked: false, built: null });

    // One build per list per minInterval: a list that changes between deep pages is walked, not rebuilt each time.
    const throttled = new MemberListMarks({ minTotal: 10, minStep: STEP, minInterval: 3_600_000 });
    const deep = list({ page: 4, sortDirection: 'desc' });
    const built = await listMembersWithMarks(server.db, admin.tenantId, deep, Date.now(), throttled);
    await built.built;
    expect((await listMembersWithMarks(server.db, admin.tenantId, deep, Date.now(), throttled)).marked).toBe(true);
    await server.db.updateTable('users').set({ name: 'Zz Moved' }).where('id', '=', 'auto-0003').execute();
    const after = await listMembersWithMarks(server.db, admin.tenantId, deep, Date.now(), throttled);
    expect(after).toMatchObject({ marked: false, built: null });
    const fresh = await wholeList(server, admin.tenantId, { sortDirection: 'desc' });
    expect(after.rows.map((r) => r.user_id)).toEqual(fresh.slice(28, 35));
  });

  it('builds the marks of the version a deep page walked only once it has settled: a list that changed again meanwhile gets no build', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    await seedMembers(server, admin.tenantId, 40, 'settle', { domain: 'settle.test', createdDaysAgo: () => 0, lastLoginDaysAgo: () => null });
    const marks = new MemberListMarks({ minTotal: 10, minStep: STEP, minInterval: 0, settle: 50 });
    const deep = list({ page: 3 });
    const rename = (name: string) => server.db.updateTable('users').set({ name }).where('id', '=', 'settle-0005').execute();

    // The list changes before the walked version settles: nothing is built, for that version or the next.
    const walked = await listMembersWithMarks(server.db, admin.tenantId, deep, Date.now(), marks);
    expect(walked).toMatchObject({ marked: false, built: expect.any(Promise) });
    const walkedVersion = await version(server, admin.tenantId);
    await rename('Zz Renamed');
    await walked.built;
    const changed = await version(server, admin.tenantId);
    expect(changed).not.toBe(walkedVersion);
    expect(marks.anchors(admin.tenantId, 'name', walkedVersion, 41)).toBeNull();
    expect(marks.anchors(admin.tenantId, 'name', changed, 41)).toBeNull();
    // A member who joins meanwhile moves the total as well as the version: no build either.
    const joined = await listMembersWithMarks(server.db, admin.tenantId, deep, Date.now(), marks);
    await seedMembers(server, admin.tenantId, 1, 'settle-new', { domain: 'settle.test', createdDaysAgo: () => 0, lastLoginDaysAgo: () => null });
    await joined.built;
    expect(marks.anchors(admin.tenantId, 'name', changed, 41)).toBeNull();
    expect(marks.anchors(admin.tenantId, 'name', await version(server, admin.tenantId), 42)).toBeNull();

    // The next walk of a list that stays as it is builds, and the deep pages after it are read from the marks.
    const settled = await listMembersWithMarks(server.db, admin.tenantId, deep, Date.now(), marks);
    expect(settled.marked).toBe(false);
    await settled.built;
    expect(marks.anchors(admin.tenantId, 'name', await version(server, admin.tenantId), 42)).not.toBeNull();
    const whole = await wholeList(server, admin.tenantId, {});
    const read = await listMembersWithMarks(server.db, admin.tenantId, deep, Date.now(), marks);
    expect(read).toMatchObject({ marked: true, built: null });
    expect(read.rows.map((r) => r.user_id)).toEqual(whole.slice(21, 28));
  });
});
