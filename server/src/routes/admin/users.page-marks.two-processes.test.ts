/**
 * Page marks of the users list (services/admin/member-marks.ts) with two server processes over one
 * database: a deep page read by offset starts a build on the process that served it, its next deep
 * pages seek the sort's index from a mark, and a member removed through the other process retires
 * them at once (the list's version is the database's): the next deep page is walked by offset again
 * and is the new list's. SQLite keeps no marks.
 */
import { AdminPaths } from '@gatehouse/shared/wire';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { observeStatements } from '../../db/statement-observer';
import { callAs, listUsers, pathOf, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { describeDialects } from '../../test/harness';
import { seedMembers } from '../../test/member-seed';

/** The service's default: lists of at least 10,000 members get marks. */
const MEMBERS = 10_500;
const DEEP = '?pageSize=20&pageOffset=300';

/** The page's ids, and whether its statements seeked the index from a mark (a row-value comparison) or built marks. */
async function deepPage(server: GatehouseServer, admin: TenantAdmin): Promise<{ ids: string[]; fromMark: boolean; built: boolean }> {
  const sql: string[] = [];
  const stop = observeStatements(server.db, (query) => sql.push(query.sql));
  try {
    const ids = (await listUsers(server, admin, DEEP)).items.map((u) => u.id);
    return { ids, fromMark: sql.some((text) => /\("sort_name", "user_id"\) >/.test(text)), built: sql.some((text) => /^\s*with recursive/.test(text)) };
  } finally {
    stop();
  }
}

/** The ids of the list's rows 6,000 to 6,019 by name, straight from the table. */
async function expected(server: GatehouseServer, tenantId: string): Promise<string[]> {
  const rows = await server.db.selectFrom('user_tenants').select('user_id').where('tenant_id', '=', tenantId).orderBy('sort_name').orderBy('user_id').offset(6_000).limit(20).execute();
  return rows.map((r) => r.user_id);
}

describeDialects('users list page marks across two processes', (h) => {
  it('reads deep pages from the marks a deep page built, until a change through another process retires them', async () => {
    const one = await h.start();
    const two = await h.start();
    const admin = await tenantWithAdmin(one);
    for (let batch = 0; batch * 1_000 < MEMBERS; batch++) {
      await seedMembers(one, admin.tenantId, Math.min(1_000, MEMBERS - batch * 1_000), `pm${String(batch).padStart(2, '0')}`, { domain: 'marks.test', createdDaysAgo: (i) => i % 30, lastLoginDaysAgo: () => null });
    }

    const first = await deepPage(one, admin);
    expect(first.ids).toEqual(await expected(one, admin.tenantId));
    expect(first.fromMark).toBe(false);
    if (h.dialect === 'sqlite') {
      // No marks on SQLite: every deep page is walked, nothing built.
      expect(first.built).toBe(false);
      expect((await deepPage(one, admin)).fromMark).toBe(false);
      return;
    }
    // The build runs after the answer, on the process that served it; wait (bounded) for its marks.
    let marked = await deepPage(one, admin);
    for (let tries = 0; !marked.fromMark && tries < 100; tries++) {
      await sleep(20);
      marked = await deepPage(one, admin);
    }
    expect(marked.fromMark).toBe(true);
    expect(marked.ids).toEqual(first.ids);
    // The other process has no marks of its own yet: it walks.
    expect((await deepPage(two, admin)).fromMark).toBe(false);

    // A member before the page leaves, through the other process: one's marks are retired at once.
    const leaving = (await listUsers(two, admin, '?pageSize=1&pageOffset=10')).items[0]!.id;
    expect((await callAs(two, admin, 'DELETE', pathOf(AdminPaths.teamMember, { userId: leaving }))).status).toBe(204);
    const after = await deepPage(one, admin);
    expect(after.fromMark).toBe(false);
    expect(after.ids).toEqual(await expected(one, admin.tenantId));
    expect(after.ids).not.toEqual(first.ids);
  }, 60_000);
});
