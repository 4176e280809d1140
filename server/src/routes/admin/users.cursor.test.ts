import { AdminPaths, AuditPaths, UserFilterPresets, UserSortFields, type UsersListQuery } from '@gatehouse/shared/wire';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { membersKeysetQueries } from '../../db/queries/admin-users';
import { callAs, listUsers, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { decodeCursorJson, encodeCursorJson, expectCursorsRefused, expectCursorWalk } from '../../test/cursor-walk';
import { describeDialects } from '../../test/harness';
import { seedMembers as seedMembersWith } from '../../test/member-seed';
import { queryPlan } from '../../test/query-plan';

/**
 * Members (test/member-seed.ts) with repeated names and creation days, every 5th without an email (a
 * phone-only account: the dialects sort null emails at opposite ends), every 3rd signed in last 200 days
 * ago (inactive), the others recently.
 */
const seedMembers = (server: GatehouseServer, tenantId: string, n: number, prefix: string) => seedMembersWith(server, tenantId, n, prefix, { domain: 'cursor.test', phoneOnly: (i) => i % 5 === 1, createdDaysAgo: (i) => 400 + (i % 9), lastLoginDaysAgo: (i) => (i % 3 === 2 ? 200 : 1) });

type Page = { items: { id: string; tenantId: string }[]; _metadata: { totalItems: number; totalPages: number }; nextCursor: string | null; prevCursor: string | null };

const page = async (server: GatehouseServer, who: TenantAdmin, query: string): Promise<Page> => (await listUsers(server, who, `?${query}`)) as Page;

const ids = (p: Page) => p.items.map((u) => u.id);

/** Every sort field in both directions, every preset, and a search. */
const CASES: string[] = [
  ...UserSortFields.flatMap((sortBy) => [`sortBy=${sortBy}`, `sortBy=${sortBy}&sortDirection=desc`]),
  ...UserFilterPresets.flatMap((preset) => [`preset=${preset}`, `preset=${preset}&sortBy=email&sortDirection=desc`]),
  'filter=b',
  'filter=b&sortBy=createdAt&sortDirection=desc',
];

describeDialects('users list, cursor pages', (h) => {
  it('walks every page by cursor, forwards and back, as the same slices as the offset pages, in every sort, direction, preset and search', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const other = await tenantWithAdmin(server, 'other');
    await seedMembers(server, admin.tenantId, 61, 'cur');
    await seedMembers(server, other.tenantId, 23, 'oth');
    const pageSize = 7;

    for (const c of CASES) {
      // The offset pages, as today: the reference every cursor page must equal.
      const first = await page(server, admin, `${c}&pageSize=${pageSize}`);
      const pages = first._metadata.totalPages;
      expect(pages, c).toBeGreaterThan(1);
      const slices: string[][] = [];
      for (let p = 0; p < pages; p++) slices.push(ids(await page(server, admin, `${c}&pageSize=${pageSize}&pageOffset=${p}`)));
      const middle = Math.floor(pages / 2);
      await expectCursorWalk({
        label: c,
        slices,
        first,
        // An offset page's cursors lead to its neighbours.
        byOffset: { page: await page(server, admin, `${c}&pageSize=${pageSize}&pageOffset=${middle}`), at: middle },
        ids,
        load: (cursor) => page(server, admin, `${c}&pageSize=${pageSize}&cursor=${cursor}`),
        each: (at) => {
          expect(at._metadata, c).toEqual(first._metadata);
          expect(at.items.every((u) => u.tenantId === admin.tenantId)).toBe(true);
        },
      });
    }
    // The v3 list takes the same cursor.
    const v3 = await callAs(server, admin, 'GET', `${AdminPaths.usersV3}?_limit=5`);
    expect(v3.status).toBe(200);
    const v3Next = await callAs(server, admin, 'GET', `${AdminPaths.usersV3}?_limit=5&cursor=${v3.body.nextCursor}`);
    expect(ids(v3Next.body), 'v3 by cursor').toEqual(ids((await callAs(server, admin, 'GET', `${AdminPaths.usersV3}?_limit=5&_offset=1`)).body));
  });

  it('refuses a malformed, edited or foreign cursor with a 400 that names the cursor parameter', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    await seedMembers(server, admin.tenantId, 12, 'bad');
    const { nextCursor } = await page(server, admin, 'pageSize=5');
    const auditsCursor = (await callAs(server, admin, 'GET', `${AuditPaths.audits}?count=1`)).body.nextCursor as string | null;
    const decoded = decodeCursorJson(nextCursor!);
    await expectCursorsRefused(server, admin, `${AdminPaths.teamMembers}?pageSize=5`, {
      'not base64url': 'cursor=%21%21%21',
      'base64url of nothing we wrote': 'cursor=aGVsbG8',
      'not canonical base64url': `cursor=${nextCursor}A`,
      'JSON of another shape': `cursor=${encodeCursorJson({ way: 'next' })}`,
      'a key of the wrong length': `cursor=${encodeCursorJson([...decoded.slice(0, 4), ['x']])}`,
      'a key of the wrong type': `cursor=${encodeCursorJson([...decoded.slice(0, 4), [1, 2]])}`,
      'an unknown way': `cursor=${encodeCursorJson([...decoded.slice(0, 3), 'sideways', decoded[4]])}`,
      'another version': `cursor=${encodeCursorJson([2, ...decoded.slice(1)])}`,
      'another sort': `sortBy=email&cursor=${nextCursor}`,
      'another direction': `sortDirection=desc&cursor=${nextCursor}`,
      'another search': `filter=b&cursor=${nextCursor}`,
      'another preset': `preset=mfa-unenrolled&cursor=${nextCursor}`,
      'both a cursor and a page offset': `pageOffset=1&cursor=${nextCursor}`,
      ...(auditsCursor ? { 'the audit log\'s cursor': `cursor=${auditsCursor}` } : {}),
      'too long': `cursor=${'A'.repeat(2049)}`,
    });
    // The same cursor, unchanged, with its own list.
    expect((await callAs(server, admin, 'GET', `${AdminPaths.teamMembers}?pageSize=5&cursor=${nextCursor}`)).status).toBe(200);
  });

  it("pages through the caller's own tenant only, whatever tenant a cursor came from", async () => {
    const server = await h.start();
    const a = await tenantWithAdmin(server, 'a');
    const b = await tenantWithAdmin(server, 'b');
    await seedMembers(server, a.tenantId, 30, 'ta');
    await seedMembers(server, b.tenantId, 30, 'tb');
    const fromA = await page(server, a, 'pageSize=6&pageOffset=2');
    // B with A's cursors: the pages of B's list around A's position, never A's rows.
    for (const cursor of [fromA.nextCursor!, fromA.prevCursor!]) {
      const inB = await page(server, b, `pageSize=6&cursor=${cursor}`);
      expect(inB._metadata.totalItems).toBe(31);
      expect(inB.items.length).toBeGreaterThan(0);
      expect(inB.items.every((u) => u.tenantId === b.tenantId && (u.id.startsWith('tb-') || u.id === b.userId))).toBe(true);
    }
    // A forged cursor naming one of A's users as its position: still B's rows only.
    const forged = encodeCursorJson([...decodeCursorJson(fromA.nextCursor!).slice(0, 4), ['', 'ta-0000']]);
    const inB = await page(server, b, `pageSize=50&cursor=${forged}`);
    expect(inB.items.map((u) => u.id)).not.toContain('ta-0000');
    expect(inB.items.every((u) => u.tenantId === b.tenantId)).toBe(true);
  });

  it('documents the cursor parameter and the nextCursor / prevCursor answers of both lists in /openapi.json', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    type Operation = { parameters?: { name: string; in: string }[]; responses: Record<string, { content?: Record<string, { schema: { properties?: Record<string, unknown> } }> }> };
    const doc = (await callAs(server, admin, 'GET', '/openapi.json')).body as { paths: Record<string, Record<string, Operation>> };
    for (const path of [AdminPaths.teamMembers, AdminPaths.usersV3, AuditPaths.audits]) {
      const get = doc.paths[path]!.get!;
      expect(get.parameters?.find((p) => p.name === 'cursor'), path).toMatchObject({ in: 'query' });
      expect(Object.keys(get.responses['200']!.content!['application/json']!.schema.properties ?? {}), path).toEqual(expect.arrayContaining(['nextCursor', 'prevCursor']));
    }
  });

  it('reads a cursor page from the sort index in list order: no sort, nothing skipped', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const list = (q: Partial<UsersListQuery>): UsersListQuery => ({ page: 0, pageSize: 20, sortBy: 'name', sortDirection: 'asc', ...q });
    const cases: [Partial<UsersListQuery>, RegExp][] = [
      [{}, /user_tenants_by_name/],
      [{ sortBy: 'createdAt', sortDirection: 'desc' }, /user_tenants_by_created/],
      [{ sortBy: 'email' }, /user_tenants_by_email/],
      [{ preset: 'mfa-unenrolled' }, /user_tenants_by_mfa/],
    ];
    for (const [q, index] of cases) {
      const key = q.sortBy === 'createdAt' ? [Date.now(), 'u-1'] : ['m', 'u-1'];
      for (const way of ['next', 'prev'] as const) {
        const [range] = membersKeysetQueries(server.db, admin.tenantId, list(q), Date.now(), { way, key });
        // An empty table would be scanned by PostgreSQL whatever its indexes: the plan as for a large one.
        const plan = await server.db.transaction().execute(async (trx) => {
          // and with sorting off: whether the index can give the page in order at all (an empty table's rows are cheap to sort).
          if (h.dialect === 'postgres') await sql`set local enable_seqscan = off`.execute(trx);
          if (h.dialect === 'postgres') await sql`set local enable_sort = off`.execute(trx);
          return queryPlan(trx, h.dialect, range!.selectAll().limit(21).compile());
        });
        expect(plan, `${JSON.stringify(q)} ${way}\n${plan}`).toMatch(index);
        expect(plan, `${JSON.stringify(q)} ${way}\n${plan}`).not.toMatch(h.dialect === 'postgres' ? /\bSort\b/ : /TEMP B-TREE/);
        // The cursor bounds the index range (PostgreSQL: an index condition; SQLite: a search, not a scan from the tenant's start).
        expect(plan, `${JSON.stringify(q)} ${way}\n${plan}`).toMatch(h.dialect === 'postgres' ? /Index Cond: .*ROW\(/ : /SEARCH .*\([a-z_,]+\)[<>]\(\?/);
      }
    }
  });
});
