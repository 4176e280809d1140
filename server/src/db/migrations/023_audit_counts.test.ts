import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, migrate, migrateTo, openDb, type OpenedDb } from '../index';
import { insertAudit, tenantAuditTotal } from '../queries/audits';
import { migrationProvider } from './index';

/**
 * Migration 023: the per-tenant audit counter that replaces COUNT(*) for the unfiltered audits list
 * and `stats.total`. It counts the records that existed before it, and stays exact afterwards under
 * single inserts, multi-row inserts, concurrent inserts, rolled-back inserts and deletes, per tenant.
 */
for (const dialect of ['sqlite', 'postgres'] as const) {
  const databaseUrl = process.env.DATABASE_URL;
  const skip = dialect === 'postgres' && !databaseUrl && process.env.REQUIRE_POSTGRES !== '1';
  (skip ? describe.skip : describe)(`migration 023_audit_counts [${dialect}]`, () => {
    let opened: OpenedDb;
    let dataDir = '';
    const schema = `gh_${randomBytes(6).toString('hex')}`;
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
      Number((await opened.db.selectFrom('audits').select((eb) => eb.fn.countAll<number | string>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow()).n);

    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'gatehouse-023-'));
      if (dialect === 'postgres' && !databaseUrl) throw new Error('REQUIRE_POSTGRES=1 but DATABASE_URL is not set.');
      opened = await openDb({ dataDir, databaseUrl: dialect === 'postgres' ? databaseUrl! : null, databaseSchema: dialect === 'postgres' ? schema : null });
      const provider = migrationProvider(dialect);
      const names = Object.keys(await provider.getMigrations()).sort();
      const previous = names[names.indexOf('023_audit_counts') - 1]!;
      await migrateTo(opened.db, dialect, previous);
      // Records written before the counter existed: 7 in tenant t1, 3 in t2, none in t3.
      const db = opened.db as any;
      await db.insertInto('audits').values([...Array.from({ length: 7 }, () => record('t1')), ...Array.from({ length: 3 }, () => record('t2'))]).execute();
      await migrate(opened.db, dialect);
    });

    afterAll(async () => {
      await opened?.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (dialect === 'postgres' && databaseUrl) {
        await dropSchema(databaseUrl, schema);
      }
    });

    it('counts the records that existed before the migration, per tenant', async () => {
      expect(await tenantAuditTotal(opened.db, 't1')).toBe(7);
      expect(await tenantAuditTotal(opened.db, 't2')).toBe(3);
      expect(await tenantAuditTotal(opened.db, 't3')).toBe(0);
    });

    it('stays exact under single, multi-row and concurrent inserts, rollbacks and deletes', async () => {
      const db = opened.db;
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
}
