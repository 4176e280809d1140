import { AuditPaths } from '@gatehouse/shared/wire';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { auditsAfter, auditsPageQuery, countAuditsQuery, type AuditRowFilters } from '../../db/queries/audits';
import { callAs, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { describeDialects, movableClock } from '../../test/harness';
import { queryPlan } from '../../test/query-plan';

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 5, 10, 12, 0, 0);
const ACTIONS = ['Role created', 'Group deleted', 'User locked'];

interface Seeded {
  action: string;
  severity: string;
  created_at: number;
  description: string;
}

/** `n` records of the tenant, one every 7 minutes going back from `NOW` (so over many hours); every 5th High. */
async function seed(server: GatehouseServer, tenantId: string, n: number, description: (i: number) => string): Promise<Seeded[]> {
  const rows = Array.from({ length: n }, (_, i) => ({
    id: `a-${tenantId.slice(0, 8)}-${String(i).padStart(5, '0')}`,
    tenant_id: tenantId,
    user_id: null,
    email: `User${i % 4}@Example.com`,
    action: ACTIONS[i % ACTIONS.length]!,
    description: description(i),
    ip: `10.0.${i % 2}.${i % 250}`,
    user_agent: 'Mozilla/5.0 test',
    severity: i % 5 === 0 ? 'High' : 'Info',
    json: null,
    created_at: NOW - 60_000 - i * 7 * 60_000,
  }));
  // In several statements: PostgreSQL's statement-level triggers count each insert's rows per bucket.
  for (let start = 0; start < n; start += 97) await server.db.insertInto('audits').values(rows.slice(start, start + 97)).execute();
  return rows;
}

const total = async (server: GatehouseServer, who: TenantAdmin, query: string) => {
  const res = await callAs(server, who, 'GET', `${AuditPaths.audits}?${query}`);
  expect(res.status, query).toBe(200);
  return res.body.total as number;
};

describeDialects('audits list, counts and description search at scale', (h) => {
  it('counts a time range with action and severity exactly, whole hours from the hourly counts and the partial hours at both ends from the records', async () => {
    const server = await h.start({}, { clock: movableClock(NOW) });
    const admin = await tenantWithAdmin(server);
    const other = await tenantWithAdmin(server, 'other');
    const mine = await seed(server, admin.tenantId, 400, (i) => `Record ${i}`);
    await seed(server, other.tenantId, 150, (i) => `Record ${i}`);
    const expected = (f: { from?: number; to?: number; action?: string; severity?: string }) =>
      mine.filter((r) => (f.from === undefined || r.created_at >= f.from) && (f.to === undefined || r.created_at <= f.to) && (!f.action || r.action === f.action) && (!f.severity || r.severity === f.severity)).length;

    const oldest = mine[mine.length - 1]!.created_at;
    // Ends on, just before and just after hour boundaries, inside one hour, and open on either side.
    const boundary = Math.floor((NOW - 10 * HOUR) / HOUR) * HOUR;
    const ranges: { from?: number; to?: number }[] = [
      { from: boundary, to: boundary + 5 * HOUR - 1 },
      { from: boundary - 1, to: boundary + 5 * HOUR },
      { from: boundary + 1, to: boundary + 5 * HOUR + 1 },
      { from: boundary + 60_000, to: boundary + 30 * 60_000 },
      { from: boundary + 17 * 60_000 },
      { to: boundary + 17 * 60_000 },
      { from: oldest, to: NOW },
      {},
    ];
    let checked = 0;
    for (const range of ranges) {
      for (const action of [undefined, ACTIONS[1]]) {
        for (const severity of [undefined, 'High']) {
          if (range.from === undefined && range.to === undefined && !action && !severity) continue; // unfiltered: the tenant's counter
          const filter = { ...range, action, severity };
          const query = [range.from !== undefined && `createdAtFrom=${range.from}`, range.to !== undefined && `createdAtTo=${range.to}`, action && `action=${encodeURIComponent(action)}`, severity && `severity=${severity}`].filter(Boolean).join('&');
          // The admin's own sign-up records are at NOW: count them in when the range reaches NOW.
          const own = (await callAs(server, admin, 'GET', `${AuditPaths.audits}?createdAtFrom=${NOW}${action ? `&action=${encodeURIComponent(action)}` : ''}${severity ? `&severity=${severity}` : ''}`)).body.total as number;
          const reachesNow = range.to === undefined || range.to >= NOW;
          expect(await total(server, admin, query), query).toBe(expected(filter) + (reachesNow ? own : 0));
          checked += 1;
        }
      }
    }
    expect(checked).toBe(31);

    // Records deleted (a retention job) leave their hours.
    await server.db.deleteFrom('audits').where('tenant_id', '=', admin.tenantId).where('created_at', '<', boundary).execute();
    const left = mine.filter((r) => r.created_at >= boundary);
    expect(await total(server, admin, `createdAtTo=${NOW - 1}`)).toBe(left.length);
    expect(await total(server, admin, `createdAtTo=${NOW - 1}&action=${encodeURIComponent(ACTIONS[2]!)}`)).toBe(left.filter((r) => r.action === ACTIONS[2]).length);
    // The other tenant's hours are its own.
    expect(await total(server, other, `createdAtTo=${NOW - 1}&severity=High`)).toBe(30);
  });

  it('answers every offset, the back half read from the end and deep ones by ids from the index, as the slice of the whole list', async () => {
    const server = await h.start({}, { clock: movableClock(NOW) });
    const admin = await tenantWithAdmin(server);
    const other = await tenantWithAdmin(server, 'other');
    await seed(server, admin.tenantId, 130, (i) => `Record ${i}`);
    await seed(server, other.tenantId, 40, (i) => `Record ${i}`);
    const cases: { query: string; filters: AuditRowFilters; direction: 'asc' | 'desc' }[] = [
      { query: 'sortDirection=desc', filters: {}, direction: 'desc' },
      { query: 'sortDirection=asc', filters: {}, direction: 'asc' },
      { query: `action=${encodeURIComponent(ACTIONS[1]!)}&sortDirection=asc`, filters: { action: ACTIONS[1] }, direction: 'asc' },
      { query: 'severity=High', filters: { severity: 'High' }, direction: 'desc' },
      { query: 'description=record%201', filters: { description: 'record 1' }, direction: 'desc' },
    ];
    for (const { query, filters, direction } of cases) {
      // The whole list in one keyset statement (the export's), not through the page code under test.
      const ids = (await auditsAfter(server.db, { tenantId: admin.tenantId, filters, direction, after: null, limit: 10_000 })).map((r) => r.id);
      const whole = { total: ids.length };
      expect(whole.total, query).toBeGreaterThan(10);
      for (const offset of [0, 1, 9, Math.floor(whole.total / 2) - 3, Math.floor(whole.total / 2), whole.total - 9, whole.total - 1, whole.total]) {
        const page = (await callAs(server, admin, 'GET', `${AuditPaths.audits}?${query}&count=9&offset=${offset}`)).body;
        expect(page.total, `${query} offset ${offset}`).toBe(whole.total);
        expect(page.data.map((r: { id: string }) => r.id), `${query} offset ${offset}`).toEqual(ids.slice(offset, offset + 9));
        expect(page.data.every((r: { tenantId: string }) => r.tenantId === admin.tenantId)).toBe(true);
      }
    }
  });

  it('counts a filter of time, action and severity from the hourly counts, and reads email and IP filters from their indexes', async () => {
    const server = await h.start({}, { clock: movableClock(NOW) });
    const admin = await tenantWithAdmin(server);
    const counting = countAuditsQuery(server.db, admin.tenantId, { createdAtFrom: NOW - 30 * HOUR - 5, action: ACTIONS[0] }).compile();
    expect(counting.sql).toMatch(/audit_hours/);
    // With any other filter, the records themselves.
    expect(countAuditsQuery(server.db, admin.tenantId, { action: ACTIONS[0], email: 'x@y.z' }).compile().sql).not.toMatch(/audit_hours/);
    // A log where the email and the IP prefix asked for are rare, in the tenant and in the whole
    // table (the other tests' records share it), with the planners' statistics taken: by default
    // estimates PostgreSQL weighs the IP range against the time-ordered scan, and either may win.
    const rare = (i: number) => i % 150 === 0;
    const rows = Array.from({ length: 600 }, (_, i) => ({
      id: `p-${String(i).padStart(5, '0')}`, tenant_id: admin.tenantId, user_id: null,
      email: rare(i) ? 'Rare.Person@Example.com' : `someone${i}@example.com`, action: ACTIONS[i % ACTIONS.length]!, description: `Record ${i}`,
      ip: rare(i) ? `172.31.9.${i % 250}` : `192.168.${i % 200}.${i % 250}`, user_agent: 'Mozilla/5.0 test', severity: 'Info', json: null, created_at: NOW - 60_000 - i * 60_000,
    }));
    for (let start = 0; start < rows.length; start += 97) await server.db.insertInto('audits').values(rows.slice(start, start + 97)).execute();
    await sql`analyze`.execute(server.db);
    const plan = (filters: Parameters<typeof auditsPageQuery>[2]) =>
      server.db.transaction().execute(async (trx) => {
        // A table this small would be scanned by PostgreSQL whatever its indexes: the plan as for a large one.
        if (h.dialect === 'postgres') await sql`set local enable_seqscan = off`.execute(trx);
        return queryPlan(trx, h.dialect, auditsPageQuery(trx, admin.tenantId, filters, 'desc', 0, 20).compile());
      });
    expect(await plan({ email: 'rare.person@example.com' })).toMatch(/audits_by_email/);
    expect(await plan({ ip: '172.31.9.150' })).toMatch(/audits_by_ip/);
    expect(await plan({ ip: '172.31.*' })).toMatch(/audits_by_ip/);
    if (h.dialect === 'sqlite') expect(await plan({ description: 'record 12' })).toMatch(/audits_fts/);
  });

  it('finds a description substring in any case through the trigram index, only among the tenant\'s records, with LIKE characters literal', async () => {
    const server = await h.start({}, { clock: movableClock(NOW) });
    const admin = await tenantWithAdmin(server);
    const other = await tenantWithAdmin(server, 'other');
    await seed(server, admin.tenantId, 300, (i) => (i === 42 ? 'Plan changed to 100%_Gold "quoted" by Zoë' : `Record number ${i}`));
    await seed(server, other.tenantId, 300, (i) => `Record number ${i}`);
    const found = async (who: TenantAdmin, needle: string) => {
      const res = await callAs(server, who, 'GET', `${AuditPaths.audits}?description=${encodeURIComponent(needle)}&count=100`);
      expect(res.status, needle).toBe(200);
      expect(res.body.data.every((r: { tenantId: string }) => r.tenantId === who.tenantId), needle).toBe(true);
      return { total: res.body.total as number, descriptions: res.body.data.map((r: { description: string }) => r.description) as string[] };
    };
    expect(await found(admin, 'NUMBER 17')).toEqual({ total: 11, descriptions: ['Record number 17', ...Array.from({ length: 10 }, (_, k) => `Record number ${170 + k}`)] });
    expect((await found(other, 'number 17')).total).toBe(11);
    expect((await found(admin, '100%_g')).descriptions).toEqual(['Plan changed to 100%_Gold "quoted" by Zoë']);
    expect((await found(admin, '"quoted"')).total).toBe(1);
    expect((await found(admin, '100%x')).total).toBe(0);
    expect((await found(other, 'gold')).total).toBe(0);
    // Under 3 characters there is no trigram: still found, by the scan.
    expect((await found(admin, 'ë')).total).toBe(1);
    expect((await found(admin, '99')).total).toBe(3); // 99, 199, 299

    // A record written now is found at once (the index follows inserts), and a deleted one is gone.
    await server.db.insertInto('audits').values({ id: 'a-late', tenant_id: admin.tenantId, user_id: null, email: null, action: 'Role created', description: 'A late Needle here', ip: null, user_agent: null, severity: 'Info', json: null, created_at: NOW - 1 }).execute();
    expect((await found(admin, 'late needle')).total).toBe(1);
    await server.db.deleteFrom('audits').where('id', '=', 'a-late').execute();
    expect((await found(admin, 'late needle')).total).toBe(0);
  });
});
