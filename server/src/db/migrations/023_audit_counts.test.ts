import { beforeAll, expect, it } from 'vitest';
import { migrate } from '../index';
import { insertAudit, tenantAuditTotal } from '../queries/audits';
import { describeMigration, migrateToBefore } from '../../test/migration-db';

/**
 * Migration 023: the per-tenant audit counter that replaces COUNT(*) for the unfiltered audits list
 * and `stats.total`. It counts the records that existed before it, and stays exact afterwards under
 * single inserts, multi-row inserts, concurrent inserts, rolled-back inserts and deletes, per tenant.
 */
describeMigration(`migration 023_audit_counts`, (dialect, m) => {
  const now = Date.now();
  let seq = 0;
  const record = (tenantId: string) => ({
    id: `r-${tenantId}-${seq++}`,
    tenant_id: tenantId,
    user_id: null,
    email: null,
    action: 'Role created',
    description: 'Role created',
    ip: null,
    user_agent: null,
    severity: 'Info',
    json: null,
    created_at: now + seq,
  });
  const rowCount = async (tenantId: string) =>
    Number((await m.opened.db.selectFrom('audits').select((eb) => eb.fn.countAll<number | string>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    await migrateToBefore(m.opened.db, dialect, '023_audit_counts');
    // Records written before the counter existed: 7 in tenant t1, 3 in t2, none in t3.
    const db = m.opened.db as any;
    await db.insertInto('audits').values([...Array.from({ length: 7 }, () => record('t1')), ...Array.from({ length: 3 }, () => record('t2'))]).execute();
    await migrate(m.opened.db, dialect);
  });

  it('counts the records that existed before the migration, per tenant', async () => {
    expect(await tenantAuditTotal(m.opened.db, 't1')).toBe(7);
    expect(await tenantAuditTotal(m.opened.db, 't2')).toBe(3);
    expect(await tenantAuditTotal(m.opened.db, 't3')).toBe(0);
  });

  it('stays exact under single, multi-row and concurrent inserts, rollbacks and deletes', async () => {
    const db = m.opened.db;
    await insertAudit(db, record('t3'));
    expect(await tenantAuditTotal(db, 't3')).toBe(1);

    // One statement with rows of two tenants.
    await db.insertInto('audits').values([...Array.from({ length: 250 }, () => record('t1')), ...Array.from({ length: 5 }, () => record('t3'))]).execute();
    // Concurrent writers (separate connections on PostgreSQL), each in its own transaction.
    await Promise.all(Array.from({ length: 20 }, (_, i) => db.transaction().execute((trx) => insertAudit(trx, record(i % 2 ? 't1' : 't2')))));
    // A rolled-back insert counts nothing.
    await expect(
      db.transaction().execute(async (trx) => {
        await insertAudit(trx, record('t1'));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await db.deleteFrom('audits').where('tenant_id', '=', 't2').where('id', 'in', (await db.selectFrom('audits').select('id').where('tenant_id', '=', 't2').limit(2).execute()).map((r) => r.id)).execute();

    for (const tenantId of ['t1', 't2', 't3']) expect(await tenantAuditTotal(db, tenantId), tenantId).toBe(await rowCount(tenantId));
    expect(await tenantAuditTotal(db, 't1')).toBe(7 + 250 + 10);
    expect(await tenantAuditTotal(db, 't2')).toBe(3 + 10 - 2);
    expect(await tenantAuditTotal(db, 't3')).toBe(6);
  });
});
