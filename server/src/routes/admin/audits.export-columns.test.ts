import { AuditColumnNames, AuditPaths, type AuditRecord } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { csvCell, EXPORT_BATCH } from '../../services/admin/audits';
import { callAs, tenantWithAdmin } from '../../test/admin-helpers';
import { describeDialects } from '../../test/harness';

describeDialects('audits export, every column', (h) => {
  it('writes each column of each record as the list shows it, across keyset batches (the export reads only the columns it shows)', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const now = Date.now();
    const n = EXPORT_BATCH + 50;
    await server.db
      .insertInto('audits')
      .values(
        Array.from({ length: n }, (_, i) => ({
          id: `col-${String(i).padStart(4, '0')}`,
          tenant_id: admin.tenantId,
          user_id: null,
          email: i % 7 === 0 ? null : `u${i}@cols.test`,
          action: i % 5 === 0 ? '=SUM(A1)' : 'Role created',
          description: `Record "${i}", café`,
          ip: i % 3 === 0 ? null : `10.0.0.${i % 250}`,
          user_agent: i % 4 === 0 ? null : 'Mozilla/5.0 test',
          severity: i % 2 ? 'Info' : 'High',
          json: i % 6 === 0 ? null : `{"i":${i}}`,
          created_at: now - 60_000 - Math.floor(i / 3) * 1000,
        })),
      )
      .execute();
    const headerProps = AuditColumnNames.map((name) => ({ name, displayName: name }));
    const res = await callAs(server, admin, 'POST', AuditPaths.exportCsv, { body: { sortDirection: 'desc', headerProps } });
    expect(res.status).toBe(200);
    const lines = (res.body as string).split('\r\n').slice(1, -1);
    // The same records through the list (newest first, 100 a page): each line is their cells.
    const records: AuditRecord[] = [];
    for (let page: AuditRecord[] = []; records.length === 0 || page.length === 100; records.push(...page)) {
      page = (await callAs(server, admin, 'GET', `${AuditPaths.audits}?count=100&offset=${records.length}`)).body.data;
    }
    expect(lines).toEqual(records.map((r) => AuditColumnNames.map((name) => csvCell(r[name])).join(',')));
    expect(lines.length).toBeGreaterThan(n);
  });
});
