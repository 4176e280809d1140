import { AdminPaths, AuditPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { callAs, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { decodeCursorJson, encodeCursorJson, expectCursorsRefused, expectCursorWalk } from '../../test/cursor-walk';
import { describeDialects, movableClock } from '../../test/harness';

const NOW = Date.UTC(2026, 5, 10, 12, 0, 0);
const ACTIONS = ['Role created', 'Group deleted', 'User locked'];

/** `n` records of the tenant, two at each instant (ties broken by id), going back from `NOW`; every 5th High. */
async function seed(server: GatehouseServer, tenantId: string, n: number, prefix: string) {
  const rows = Array.from({ length: n }, (_, i) => ({
    id: `${prefix}-${String((i * 37) % n).padStart(4, '0')}`,
    tenant_id: tenantId,
    user_id: null,
    email: `User${i % 4}@Example.com`,
    action: ACTIONS[i % ACTIONS.length]!,
    description: `Record ${i}`,
    ip: `10.0.${i % 2}.${i % 250}`,
    user_agent: 'Mozilla/5.0 test',
    severity: i % 5 === 0 ? 'High' : 'Info',
    json: null,
    created_at: NOW - 60_000 - Math.floor(i / 2) * 7 * 60_000,
  }));
  for (let start = 0; start < n; start += 97) await server.db.insertInto('audits').values(rows.slice(start, start + 97)).execute();
}

type Page = { data: { id: string; tenantId: string }[]; total: number; nextCursor: string | null; prevCursor: string | null };

async function page(server: GatehouseServer, who: TenantAdmin, query: string): Promise<Page> {
  const res = await callAs(server, who, 'GET', `${AuditPaths.audits}?${query}`);
  expect(res.status, `${query}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body as Page;
}

const ids = (p: Page) => p.data.map((r) => r.id);

const CASES = ['', 'sortDirection=asc', 'severity=High', 'action=Group%20deleted&sortDirection=asc', 'description=record%201', 'email=user1%40example.com', `createdAtFrom=${NOW - 40 * 7 * 60_000}&sortDirection=asc`];

describeDialects('audits list, cursor pages', (h) => {
  it('walks every page by cursor, forwards and back, as the same slices as the offset pages, in both directions and with filters', async () => {
    const server = await h.start({}, { clock: movableClock(NOW) });
    const admin = await tenantWithAdmin(server);
    const other = await tenantWithAdmin(server, 'other');
    await seed(server, admin.tenantId, 113, 'mine');
    await seed(server, other.tenantId, 40, 'oth');
    const count = 9;
    for (const c of CASES) {
      const first = await page(server, admin, `${c}&count=${count}`);
      const pages = Math.ceil(first.total / count);
      expect(pages, c).toBeGreaterThan(1);
      const slices: string[][] = [];
      for (let p = 0; p < pages; p++) slices.push(ids(await page(server, admin, `${c}&count=${count}&offset=${p * count}`)));
      await expectCursorWalk({
        label: c,
        slices,
        first,
        // An offset page's cursors lead to its neighbours.
        byOffset: { page: await page(server, admin, `${c}&count=${count}&offset=${count}`), at: 1 },
        ids,
        load: (cursor) => page(server, admin, `${c}&count=${count}&cursor=${cursor}`),
        each: (at) => {
          expect(at.total, c).toBe(first.total);
          expect(at.data.every((r) => r.tenantId === admin.tenantId)).toBe(true);
        },
      });
    }
  });

  it('refuses a malformed, edited or foreign cursor with a 400 that names the cursor parameter', async () => {
    const server = await h.start({}, { clock: movableClock(NOW) });
    const admin = await tenantWithAdmin(server);
    await seed(server, admin.tenantId, 30, 'bad');
    const { nextCursor } = await page(server, admin, 'count=5');
    const usersCursor = (await callAs(server, admin, 'GET', `${AdminPaths.teamMembers}?pageSize=1`)).body.nextCursor as string | null;
    const decoded = decodeCursorJson(nextCursor!);
    await expectCursorsRefused(server, admin, `${AuditPaths.audits}?count=5`, {
      'not base64url': 'cursor=a.b',
      'base64url of nothing we wrote': 'cursor=aGVsbG8',
      'a time that is not a number': `cursor=${encodeCursorJson([...decoded.slice(0, 4), ['1', 'x']])}`,
      'a time out of range': `cursor=${encodeCursorJson([...decoded.slice(0, 4), [1e300, 'x']])}`,
      'another direction': `sortDirection=asc&cursor=${nextCursor}`,
      'another filter': `severity=High&cursor=${nextCursor}`,
      'both a cursor and an offset': `offset=5&cursor=${nextCursor}`,
      ...(usersCursor ? { "the users list's cursor": `cursor=${usersCursor}` } : {}),
    });
  });

  it("pages through the caller's own tenant only, whatever tenant a cursor came from", async () => {
    const server = await h.start({}, { clock: movableClock(NOW) });
    const a = await tenantWithAdmin(server, 'a');
    const b = await tenantWithAdmin(server, 'b');
    await seed(server, a.tenantId, 40, 'ta');
    await seed(server, b.tenantId, 40, 'tb');
    const fromA = await page(server, a, 'count=6&offset=12');
    for (const cursor of [fromA.nextCursor!, fromA.prevCursor!]) {
      const inB = await page(server, b, `count=6&cursor=${cursor}`);
      expect(inB.data.length).toBeGreaterThan(0);
      expect(inB.data.every((r) => r.tenantId === b.tenantId && !r.id.startsWith('ta-'))).toBe(true);
    }
  });
});
