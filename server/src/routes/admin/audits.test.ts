import { AdminPaths, AUDIT_COLUMNS, AuditPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { insertAudit } from '../../db/queries/audits';
import { csvCell, EXPORT_BATCH } from '../../services/admin/audits';
import { recordAudit } from '../../services/admin/audit-log';
import { auditsOf, callAs, memberWithoutPermissions, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { describeDialects, movableClock } from '../../test/harness';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 5, 10, 12, 0, 0);

/** `n` records of the tenant, one a minute going back from `NOW`; every 10th is High, actions and IPs cycle. */
async function seed(server: GatehouseServer, tenantId: string, n: number, extra: (i: number) => Record<string, unknown> = () => ({})) {
  for (let start = 0; start < n; start += 500) {
    const rows = [];
    for (let i = start; i < Math.min(n, start + 500); i++) {
      rows.push({
        id: `a-${tenantId.slice(0, 8)}-${String(i).padStart(6, '0')}`,
        tenant_id: tenantId,
        user_id: null,
        email: `user${i % 3}@example.com`,
        action: ['Role created', 'Group deleted', 'User locked'][i % 3]!,
        description: `Record number ${i}`,
        ip: `10.0.${i % 2}.${i % 250}`,
        user_agent: 'Mozilla/5.0 test',
        severity: i % 10 === 0 ? 'High' : 'Info',
        json: null,
        created_at: NOW - i * 60_000,
        ...extra(i),
      });
    }
    for (const row of rows) await insertAudit(server.db, row);
  }
}

const list = (server: GatehouseServer, who: TenantAdmin, query = '') => callAs(server, who, 'GET', `${AuditPaths.audits}${query}`);

describeDialects('admin audits', (h) => {
  it('lists the records of one millisecond in the order they were written, newest first, both ways', async () => {
    const server = await h.start({}, { clock: movableClock(NOW) });
    const admin = await tenantWithAdmin(server);
    const actor = { tenantId: admin.tenantId, userId: null, email: 'same-ms@example.com', ip: null, userAgent: null };
    const at = NOW + 1_234;
    for (let i = 1; i <= 6; i++) await recordAudit(server.db, actor, { action: 'Role created', description: `Same millisecond ${i}` }, at);
    const newest = await list(server, admin, '?description=same%20millisecond');
    expect(newest.body.data.map((r: { description: string }) => r.description)).toEqual([6, 5, 4, 3, 2, 1].map((i) => `Same millisecond ${i}`));
    const oldest = await list(server, admin, '?description=same%20millisecond&sortBy=createdAt&sortDirection=asc');
    expect(oldest.body.data.map((r: { description: string }) => r.description)).toEqual([1, 2, 3, 4, 5, 6].map((i) => `Same millisecond ${i}`));
    // Ids stay 32 hex digits: the time, the count within it, 16 random.
    const ids = newest.body.data.map((r: { id: string }) => r.id) as string[];
    for (const id of ids) expect(id).toMatch(new RegExp(`^${at.toString(16).padStart(12, '0')}[0-9a-f]{20}$`));
    expect(new Set(ids.map((id) => id.slice(16))).size).toBe(6);
  });

  it('lists the newest 20 records first, pages with offset and count, and answers the total of matches', async () => {
    const server = await h.start({}, { clock: movableClock(NOW) });
    const admin = await tenantWithAdmin(server);
    const own = (await list(server, admin)).body.total as number; // the sign-up may have written some
    await seed(server, admin.tenantId, 45);

    const first = await list(server, admin);
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(45 + own);
    expect(first.body.data).toHaveLength(20);
    const times = first.body.data.map((r: { createdAt: string }) => Date.parse(r.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const seeded = await list(server, admin, '?description=record%20number&offset=40&count=10');
    expect(seeded.body.total).toBe(45);
    expect(seeded.body.data.map((r: { description: string }) => r.description)).toEqual(['Record number 40', 'Record number 41', 'Record number 42', 'Record number 43', 'Record number 44']);
    expect(seeded.body.data[0]).toMatchObject({ email: 'user1@example.com', action: 'Group deleted', ip: '10.0.0.40', severity: 'High', userAgent: 'Mozilla/5.0 test', tenantId: admin.tenantId, createdAt: new Date(NOW - 40 * 60_000).toISOString() });

    const oldestFirst = await list(server, admin, '?description=record&sortBy=createdAt&sortDirection=asc&count=2');
    expect(oldestFirst.body.data.map((r: { description: string }) => r.description)).toEqual(['Record number 44', 'Record number 43']);
  });

  it('filters by column type: time range, severity, email, action, IP exact or prefix, text substring with LIKE characters literal', async () => {
    const server = await h.start({}, { clock: movableClock(NOW) });
    const admin = await tenantWithAdmin(server);
    const own = (await list(server, admin)).body.total as number; // the admin's own sign-in records, at NOW
    await seed(server, admin.tenantId, 30, (i) => (i === 7 ? { description: 'Discount 100% off_now' } : {}));
    const total = async (query: string) => {
      const res = await list(server, admin, query);
      expect(res.status, query).toBe(200);
      return res.body.total as number;
    };
    expect(await total(`?createdAtFrom=${NOW - 9 * 60_000}&createdAtTo=${NOW}`)).toBe(10 + own);
    expect(await total(`?createdAtFrom=${encodeURIComponent(new Date(NOW - 4 * 60_000).toISOString())}&createdAtTo=${encodeURIComponent(new Date(NOW - 60_000).toISOString())}`)).toBe(4);
    expect(await total('?severity=High')).toBe(3);
    expect(await total('?email=USER2@example.com')).toBe(10);
    expect(await total('?action=User%20locked&severity=Info')).toBe(9);
    expect(await total('?ip=10.0.1.7')).toBe(1);
    expect(await total('?ip=10.0.1.*')).toBe(15);
    expect(await total('?description=100%25%20OFF_')).toBe(1);
    expect(await total('?description=%25')).toBe(1);
    expect(await total('?description=_')).toBe(1);
    expect(await total('?userAgent=mozilla')).toBeGreaterThanOrEqual(30);

    for (const bad of ['?severity=Low', '?count=0', '?count=101', '?offset=-1', '?sortBy=email', '?sortDirection=up', '?createdAtFrom=yesterday']) {
      const res = await list(server, admin, bad);
      expect(res.status, bad).toBe(400);
    }
  });

  it('answers stats: total, today (UTC) and High severity within the last seven days', async () => {
    const clock = movableClock(NOW);
    const server = await h.start({}, { clock });
    const admin = await tenantWithAdmin(server);
    const before = (await callAs(server, admin, 'GET', AuditPaths.stats)).body;
    // Today: 3 (one High); 3 days ago: 2 High; 10 days ago: 1 High.
    const at = [NOW - 1000, NOW - 2000, NOW - 3000, NOW - 3 * DAY, NOW - 3 * DAY - 1, NOW - 10 * DAY];
    const high = [true, false, false, true, true, true];
    for (const [i, t] of at.entries()) {
      await insertAudit(server.db, { id: `s-${i}`, tenant_id: admin.tenantId, user_id: null, email: null, action: 'x', description: 'x', ip: null, user_agent: null, severity: high[i] ? 'High' : 'Info', json: null, created_at: t });
    }
    const stats = await callAs(server, admin, 'GET', AuditPaths.stats);
    expect(stats.status).toBe(200);
    expect(stats.body).toEqual({ total: before.total + 6, totalToday: before.totalToday + 3, severeThisWeek: before.severeThisWeek + 3 });
  });

  it('answers the unfiltered total and stats.total from the tenant counter (migration 023), not a count of the rows; filtered totals count', async () => {
    const server = await h.start({}, { clock: movableClock(NOW) });
    const admin = await tenantWithAdmin(server);
    await seed(server, admin.tenantId, 12);
    const exact = (await list(server, admin)).body.total as number;
    expect(exact).toBe((await auditsOf(server, admin.tenantId)).length);
    // Skew the counter: the calls that read it show the skew, the filtered one does not.
    await server.db.updateTable('audit_counts').set({ n: 1_000_000 }).where('tenant_id', '=', admin.tenantId).execute();
    expect((await list(server, admin)).body.total).toBe(1_000_000);
    expect((await list(server, admin, '?offset=5')).body.total).toBe(1_000_000);
    expect((await callAs(server, admin, 'GET', AuditPaths.stats)).body.total).toBe(1_000_000);
    expect((await list(server, admin, '?severity=High')).body.total).toBe(2);
  });

  it('answers the column metadata with name, displayName, type, sortable, filterable and showInTable', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const res = await callAs(server, admin, 'GET', AuditPaths.metadata);
    expect(res.status).toBe(200);
    expect(res.body.columns).toEqual(AUDIT_COLUMNS);
    expect(res.body.columns.map((c: { type: string }) => c.type)).toEqual(expect.arrayContaining(['Timestamp', 'Email', 'AlphaNumeric', 'IpAddress', 'Severity', 'Json']));
  });

  it('records who changed what from where: an admin change appears in the list with email, IP and user agent', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const created = await callAs(server, admin, 'POST', AdminPaths.groups, { body: { name: 'Auditors' }, headers: { 'user-agent': 'AuditTest/1.0' } });
    expect(created.status).toBe(201);
    const res = await list(server, admin, '?action=Group%20created');
    expect(res.body.total).toBe(1);
    expect(res.body.data[0]).toMatchObject({ email: admin.email, action: 'Group created', severity: 'Info', userAgent: 'AuditTest/1.0', tenantId: admin.tenantId });
    expect(res.body.data[0].description).toContain('Auditors');
  });

  it('exports audits.csv with the headerProps columns, every matching record across keyset batches, and formulas neutralised', async () => {
    const server = await h.start({}, { clock: movableClock(NOW) });
    const admin = await tenantWithAdmin(server);
    const n = EXPORT_BATCH * 2 + 5;
    await seed(server, admin.tenantId, n, (i) =>
      i === 0 ? { description: '=HYPERLINK("http://evil.test","x")', email: '@admin' } : i === 1 ? { description: 'line one\nline, "two"' } : i === 2 ? { description: '+1-2', action: '-cmd' } : {},
    );
    const res = await callAs(server, admin, 'POST', AuditPaths.exportCsv, {
      body: { sortBy: 'createdAt', sortDirection: 'desc', offset: 0, filters: { userAgent: 'Mozilla' }, headerProps: [{ name: 'createdAt', displayName: 'Time' }, { name: 'email', displayName: 'User' }, { name: 'action', displayName: 'Action' }, { name: 'description', displayName: 'Description' }] },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="audits.csv"');
    const text = res.body as string;
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('"Time","User","Action","Description"');
    expect(lines.at(-1)).toBe('');
    expect(lines[1]).toBe(`"${new Date(NOW).toISOString()}","'@admin","Role created","'=HYPERLINK(""http://evil.test"",""x"")"`);
    expect(lines[2]).toBe(`"${new Date(NOW - 60_000).toISOString()}","user1@example.com","Group deleted","line one\nline, ""two"""`);
    expect(lines[3]).toContain(`"'-cmd","'+1-2"`);
    // Every record once, in order, across the batch boundaries.
    const ids = text.match(/Record number \d+/g)!.map((m) => Number(m.split(' ')[2]));
    expect(ids).toEqual(Array.from({ length: n }, (_, i) => i).filter((i) => i > 2));

    const defaults = await callAs(server, admin, 'POST', AuditPaths.exportCsv, { body: { filters: { severity: 'High' } } });
    const rows = (defaults.body as string).split('\r\n').filter(Boolean);
    expect(rows[0]).toBe(AUDIT_COLUMNS.filter((c) => c.showInTable).map((c) => `"${c.displayName}"`).join(','));
    expect(rows).toHaveLength(1 + Math.ceil(n / 10));

    expect((await callAs(server, admin, 'POST', AuditPaths.exportCsv, { body: { headerProps: [{ name: 'password', displayName: 'x' }] } })).status).toBe(400);
    expect((await callAs(server, admin, 'POST', AuditPaths.exportCsv, { body: { offset: 20 } })).status).toBe(400);
  });

  it('writes every column of every record as csvCell does, in both directions and across batches: nulls, quotes, formulas, tabs, CRs, line breaks, Unicode, times', async () => {
    const server = await h.start({}, { clock: movableClock(NOW) });
    const admin = await tenantWithAdmin(server);
    const tricky = ['=1+1', '+x', '-', '@at', '\tTab', '\rCR', 'a "quoted" word', 'two\r\nlines', 'Zoë 日本 🎉', "'already", ' =spaced', ''];
    const n = EXPORT_BATCH + 3;
    // Times from 1970 on: milliseconds 0, 7, 70, 999 and the seconds around them.
    const times = [0, 7, 70, 999, 1000, 59_999, Date.UTC(2000, 1, 29, 23, 59, 59, 999)];
    await seed(server, admin.tenantId, n, (i) => {
      const t = (k: number) => tricky[(i + k) % tricky.length]!;
      return {
        email: i % 5 === 0 ? null : t(0),
        action: t(1) || 'Role created',
        description: `Record number ${i} ${t(2)}`,
        ip: i % 4 === 0 ? null : t(3),
        user_agent: i % 6 === 0 ? null : t(4),
        severity: i % 10 === 0 ? 'High' : t(5) || 'Info',
        json: i % 3 === 0 ? null : JSON.stringify({ note: t(6) }),
        ...(i < times.length ? { created_at: times[i] } : {}),
      };
    });
    const rows = await server.db.selectFrom('audits').selectAll().where('tenant_id', '=', admin.tenantId).where('description', 'like', 'Record number %').execute();
    const columns = AUDIT_COLUMNS.map((c) => ({ name: c.name, displayName: `${c.displayName} "col"` }));
    const field = { createdAt: 'created_at', email: 'email', action: 'action', description: 'description', ip: 'ip', severity: 'severity', userAgent: 'user_agent', json: 'json', tenantId: 'tenant_id' } as const;
    for (const sortDirection of ['desc', 'asc'] as const) {
      const sorted = [...rows].sort((a, b) => (Number(a.created_at) - Number(b.created_at) || (a.id < b.id ? -1 : 1)) * (sortDirection === 'asc' ? 1 : -1));
      const expected = [columns.map((c) => csvCell(c.displayName)), ...sorted.map((row) => columns.map((c) => (c.name === 'createdAt' ? csvCell(new Date(Number(row.created_at)).toISOString()) : csvCell(row[field[c.name as keyof typeof field]] as string | null))))];
      const res = await callAs(server, admin, 'POST', AuditPaths.exportCsv, { body: { sortDirection, filters: { description: 'Record number' }, headerProps: columns } });
      expect(res.status).toBe(200);
      expect(res.body).toBe(expected.map((cells) => `${cells.join(',')}\r\n`).join(''));
    }
  });

  it("shows each admin only their own tenant's records, and refuses members without fe.secure.read.audits", async () => {
    const server = await h.start({}, { clock: movableClock(NOW) });
    const a = await tenantWithAdmin(server);
    const b = await tenantWithAdmin(server);
    await seed(server, b.tenantId, 5, () => ({ description: 'secret of B' }));
    expect((await list(server, a, '?description=secret')).body.total).toBe(0);
    expect((await callAs(server, a, 'POST', AuditPaths.exportCsv, { body: { filters: { description: 'secret' } } })).body).not.toContain('secret of B');
    expect((await list(server, a, `?tenantId=${b.tenantId}`)).status).toBe(404);

    const plain = await memberWithoutPermissions(server, a.tenantId);
    for (const [method, path] of [['GET', AuditPaths.audits], ['GET', AuditPaths.stats], ['GET', AuditPaths.metadata], ['POST', AuditPaths.exportCsv]] as const) {
      const res = await callAs(server, plain, method, path, { tenantId: a.tenantId, ...(method === 'POST' ? { body: {} } : {}) });
      expect(res.status, path).toBe(403);
      expect(res.body.errorCode).toBe('ER-01005');
    }
  });
});
