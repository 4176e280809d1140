/**
 * Regression: `GET /audits?createdAtFrom=99999999999999999999999` answered 500 on PostgreSQL
 * (`invalid input syntax for type bigint`): any run of digits became a number and reached SQL.
 * The time filters take epoch milliseconds from 0 to 8.64e15 or an ISO 8601 date; anything else is
 * a 400 naming the field, in the list's query and in the CSV export's filters alike.
 */
import { AuditPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { callAs, tenantWithAdmin } from '../../test/admin-helpers';
import { describeDialects } from '../../test/harness';

const BAD = ['99999999999999999999999', '8640000000000001', '-1', 'NaN', '1.5', '1e3', '2026-13-45'];

describeDialects('admin audits: out-of-range time filters', (harness) => {
  it('answers 400 naming createdAtFrom / createdAtTo for huge, negative, NaN and fractional times, never a 500 (audits bigint overflow bug)', async () => {
    const server = await harness.start();
    const admin = await tenantWithAdmin(server);
    for (const field of ['createdAtFrom', 'createdAtTo']) {
      for (const bad of BAD) {
        const res = await callAs(server, admin, 'GET', `${AuditPaths.audits}?${field}=${encodeURIComponent(bad)}`);
        expect(res.status, `${field}=${bad}`).toBe(400);
        expect(res.body.errors.join(' '), `${field}=${bad}`).toContain(`${field}:`);
      }
    }
    const exported = await callAs(server, admin, 'POST', AuditPaths.exportCsv, { body: { filters: { createdAtFrom: BAD[0] } } });
    expect(exported.status).toBe(400);
    expect(exported.body.errors.join(' ')).toContain('filters.createdAtFrom:');

    // The ends of the range and ISO dates still work.
    for (const good of ['0', '8640000000000000', '2026-06-10', '2026-06-10T12:00:00.000Z']) {
      const res = await callAs(server, admin, 'GET', `${AuditPaths.audits}?createdAtFrom=${encodeURIComponent(good)}&createdAtTo=8640000000000000`);
      expect(res.status, good).toBe(200);
    }
  });
});
