import { AdminPaths, type UsersListQuery } from '@gatehouse/shared/wire';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { membersPageQueries } from '../../db/queries/admin-users';
import { callAs, listUsers, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { describeDialects } from '../../test/harness';
import { seedMembers as seedMembersWith } from '../../test/member-seed';
import { queryPlan } from '../../test/query-plan';
import { countStatements } from '../../test/statement-counter';
import { observeStatements } from '../../db/statement-observer';

/** Members (test/member-seed.ts) with repeated names and creation days, none signed in yet. */
const seedMembers = (server: GatehouseServer, tenantId: string, n: number, prefix: string) => seedMembersWith(server, tenantId, n, prefix, { domain: 'deep.test', createdDaysAgo: (i) => i % 9, lastLoginDaysAgo: () => null });

/** The ids of the whole list in one ORDER BY over the table (no counter, no reversal, no deferred join): what every page must be a slice of. */
async function wholeList(server: GatehouseServer, tenantId: string, query: Partial<UsersListQuery>): Promise<string[]> {
  const full: UsersListQuery = { page: 0, pageSize: 1_000_000, sortBy: 'name', sortDirection: 'asc', ...query };
  const { page } = membersPageQueries(server.db, tenantId, full, Date.now());
  // page(total) with offset 0 and the whole list as its limit reads it front to back in one statement.
  const rows = await page(Number.MAX_SAFE_INTEGER).rows!.execute();
  return rows.map((r) => r.user_id);
}

describeDialects('users list, deep pages', (h) => {
  it('answers every page, the last pages read from the end, as the same slice of the whole list in every sort, preset and direction', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const other = await tenantWithAdmin(server, 'other');
    await seedMembers(server, admin.tenantId, 61, 'deep');
    await seedMembers(server, other.tenantId, 23, 'oth');

    const cases: { query: string; list: Partial<UsersListQuery> }[] = [
      { query: '', list: {} },
      { query: 'sortDirection=desc', list: { sortDirection: 'desc' } },
      { query: 'sortBy=email&sortDirection=desc', list: { sortBy: 'email', sortDirection: 'desc' } },
      { query: 'sortBy=verified', list: { sortBy: 'verified' } },
      { query: 'sortBy=createdAt&sortDirection=desc', list: { sortBy: 'createdAt', sortDirection: 'desc' } },
      { query: 'preset=mfa-unenrolled&sortDirection=desc', list: { preset: 'mfa-unenrolled', sortDirection: 'desc' } },
      { query: 'preset=breached-passwords', list: { preset: 'breached-passwords' } },
      { query: 'filter=b', list: { search: 'b' } },
    ];
    for (const c of cases) {
      const whole = await wholeList(server, admin.tenantId, c.list);
      expect(whole.length, c.query).toBeGreaterThan(0);
      const pageSize = 7;
      const pages = Math.ceil(whole.length / pageSize);
      for (let p = 0; p <= pages; p++) {
        const res = await listUsers(server, admin, `?${c.query}&pageSize=${pageSize}&pageOffset=${p}`);
        expect(res._metadata, `${c.query} page ${p}`).toEqual({ totalItems: whole.length, totalPages: pages });
        expect(res.items.map((u) => u.id), `${c.query} page ${p}`).toEqual(whole.slice(p * pageSize, (p + 1) * pageSize));
        // Never another tenant's member.
        expect(res.items.every((u) => u.tenantId === admin.tenantId)).toBe(true);
      }
    }
  });

  it('reads a deep page as a deferred join over the covering index, and the back half from the end of the list', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const list: UsersListQuery = { page: 0, pageSize: 20, sortBy: 'name', sortDirection: 'asc' };
    const total = 100_000;
    const { page } = membersPageQueries(server.db, admin.tenantId, { ...list, page: 2_000 }, Date.now());
    const middle = page(total);
    expect(middle.reversed).toBe(false);
    // Past the middle, from the end: page 3,000 skips 39,980 rows in reverse order.
    expect(membersPageQueries(server.db, admin.tenantId, { ...list, page: 3_000 }, Date.now()).page(total)).toMatchObject({ reversed: true, limit: 20 });
    // An empty table would be scanned by PostgreSQL whatever its indexes: the plan as for a large one.
    const plan = await server.db.transaction().execute(async (trx) => {
      if (h.dialect === 'postgres') await sql`set local enable_seqscan = off`.execute(trx);
      return queryPlan(trx, h.dialect, middle.keys!.compile());
    });
    // The user ids come from the index (SQLite: alone), in list order: no row is read for the 40,000 skipped, nothing sorted.
    expect(plan, plan).toMatch(h.dialect === 'postgres' ? /Index (Only )?Scan using user_tenants_by_name/ : /USING COVERING INDEX user_tenants_by_name/);
    expect(plan, plan).not.toMatch(h.dialect === 'postgres' ? /\bSort\b/ : /TEMP B-TREE/);
    // PostgreSQL then reads just those rows, by primary key, in the same statement: the ids as one
    // array read first, in its order (no sort index to walk, no hash join of the whole tenant, even in
    // a generic plan, which does not know the limit). SQLite reads them by id in a second statement.
    if (h.dialect === 'postgres') {
      const rowsPlan = await server.db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        return queryPlan(trx, h.dialect, middle.rows!.compile());
      });
      // (How it joins the 20 ids to their rows depends on the table's size: at 100,000 members a nested
      // loop over the primary key, see bench/users-scale.test.ts; this table is empty.)
      expect(rowsPlan, rowsPlan).toMatch(/Sort Key: k\.ordinality[\s\S]*InitPlan[\s\S]*Index Only Scan using user_tenants_by_name[\s\S]*Function Scan on unnest/);
      expect(rowsPlan, rowsPlan).not.toMatch(/Seq Scan/);
    } else expect(middle.rows).toBeNull();
    const last = membersPageQueries(server.db, admin.tenantId, { ...list, page: total / 20 - 1 }, Date.now()).page(total);
    expect(last.reversed).toBe(true);
    expect(last.keys).toBeNull(); // the last page is the first 20 rows in reverse order
  });

  it('answers a deep page in five round trips: the session, the caller at once, the total, the page in one statement, its details at once', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    await seedMembers(server, admin.tenantId, 30, 'trip');
    const expected = (await listUsers(server, admin, '?pageSize=5&pageOffset=2')).items.map((u) => u.id);
    const count = await countStatements(server.db, async () => {
      const res = await listUsers(server, admin, '?pageSize=5&pageOffset=2');
      expect(res.items.map((u) => u.id)).toEqual(expected);
    });
    const tables = count.sql.map((text) => /from (?:"(\w+)"|(unnest))/.exec(text)?.slice(1).find(Boolean));
    expect(count.writes).toBe(0);
    // The session; the caller's user, membership and roles; the counter; the page (on PostgreSQL the ids
    // and rows in one statement; SQLite, in the process, reads the rows by id after); the page's users,
    // roles, groups and invitations.
    const page = h.dialect === 'postgres' ? ['unnest'] : ['user_tenants', 'user_tenants'];
    expect(tables).toEqual(['sessions', 'users', 'user_tenants', 'user_roles', 'member_counts', ...page, 'users', 'user_roles', 'group_users', 'invitations']);
    if (h.dialect === 'postgres') expect(count.sql[5]).toMatch(/^select "user_tenants"\.\* from unnest\(array\(\(select "user_id" from "user_tenants" where/);
    // "At once": the caller's three reads are all sent in one turn of the event loop, before the first
    // answer (a PostgreSQL answer comes back on a later turn; SQLite answers in the same one anyway).
    let turn = 0;
    let ticking = true;
    const tick = () => {
      turn += 1;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const turns: number[] = [];
    const stop = observeStatements(server.db, () => turns.push(turn));
    try {
      await listUsers(server, admin, '?pageSize=5&pageOffset=2');
    } finally {
      stop();
      ticking = false;
    }
    expect(new Set(turns.slice(1, 4)).size).toBe(1);
    if (h.dialect === 'postgres') expect(turns[1]).toBeGreaterThan(turns[0]!);
  });

  it('counts from the counters of migration 040, which follow joins, removals, MFA and breached-password changes, per tenant', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const other = await tenantWithAdmin(server, 'other');
    await seedMembers(server, admin.tenantId, 40, 'cnt');
    await seedMembers(server, other.tenantId, 9, 'cnt-other');
    const db = server.db;
    const counted = async (who: TenantAdmin) => {
      const stats = (await listUsers(server, who, '?pageSize=1'))._metadata.totalItems;
      const mfa = (await listUsers(server, who, '?preset=mfa-unenrolled&pageSize=1'))._metadata.totalItems;
      const breached = (await listUsers(server, who, '?preset=breached-passwords&pageSize=1'))._metadata.totalItems;
      return { total: stats, mfa, breached };
    };
    const actual = async (who: TenantAdmin) => {
      const n = async (where: string) => Number((await sql<{ n: number | string }>`select count(*) as n from user_tenants where tenant_id = ${who.tenantId} and ${sql.raw(where)}`.execute(db)).rows[0]!.n);
      return { total: await n('1 = 1'), mfa: await n('mfa_enrolled = 0'), breached: await n('breached = 1') };
    };
    expect(await counted(admin)).toEqual(await actual(admin));
    expect(await counted(admin)).toEqual({ total: 41, mfa: 41 - 10, breached: 14 });
    expect(await counted(other)).toEqual({ total: 10, mfa: 10 - 3, breached: 3 });

    // A device enrolled, one removed; a password found breached; a member removed; a user deleted.
    const now = Date.now();
    await db.insertInto('mfa_devices').values({ id: 'dev-new', user_id: 'cnt-0001', type: 'authenticator', status: 'active', secret: null, email: null, last_used_step: null, created_at: now, verified_at: now }).execute();
    await db.deleteFrom('mfa_devices').where('id', '=', 'dev-cnt-0004').execute();
    await db.updateTable('users').set({ is_breached_password: 1 }).where('id', '=', 'cnt-0001').execute();
    await db.deleteFrom('user_tenants').where('tenant_id', '=', admin.tenantId).where('user_id', '=', 'cnt-0003').execute();
    await db.deleteFrom('mfa_devices').where('user_id', '=', 'cnt-0008').execute();
    await db.deleteFrom('user_tenants').where('user_id', '=', 'cnt-0008').execute();
    await db.deleteFrom('users').where('id', '=', 'cnt-0008').execute();
    expect(await counted(admin)).toEqual(await actual(admin));
    expect(await counted(admin)).toEqual({ total: 39, mfa: 39 - 9, breached: 14 });
    // The team stats read the same counters.
    const stats = (await callAs(server, admin, 'GET', AdminPaths.teamStats)).body;
    expect(stats).toMatchObject({ totalUsers: 39, mfaUnenrolled: 30, breachedPasswords: 14 });
    // The other tenant's counts never moved.
    expect(await counted(other)).toEqual({ total: 10, mfa: 7, breached: 3 });
  });
});
