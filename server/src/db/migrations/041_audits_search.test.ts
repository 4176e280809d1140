import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, migrateTo, openDb, type OpenedDb } from '../index';
import { countTenantAudits, pageTenantAudits } from '../queries/audits';
import { migrationProvider } from './index';

const HOUR = 3_600_000;

/**
 * Migration 041: the hourly counts and the description index cover the records written before it
 * (SQLite: the FTS5 trigram index is rebuilt from them; PostgreSQL: the pg_trgm index exists when the
 * extension is available, as in the test database).
 */
for (const dialect of ['sqlite', 'postgres'] as const) {
  const databaseUrl = process.env.DATABASE_URL;
  const skip = dialect === 'postgres' && !databaseUrl && process.env.REQUIRE_POSTGRES !== '1';
  (skip ? describe.skip : describe)(`migration 041_audits_search [${dialect}]`, () => {
    let opened: OpenedDb;
    let dataDir = '';
    const schema = `gh_${randomBytes(6).toString('hex')}`;
    const base = Math.floor(Date.now() / HOUR) * HOUR - 10 * HOUR;
    const record = (id: string, tenantId: string, action: string, at: number, description: string) => ({
      id, tenant_id: tenantId, user_id: null, email: null, action, description, ip: null, user_agent: null, severity: 'Info', json: null, created_at: at,
    });

    beforeAll(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), 'gatehouse-041-'));
      if (dialect === 'postgres' && !databaseUrl) throw new Error('REQUIRE_POSTGRES=1 but DATABASE_URL is not set.');
      opened = await openDb({ dataDir, databaseUrl: dialect === 'postgres' ? databaseUrl! : null, databaseSchema: dialect === 'postgres' ? schema : null });
      const names = Object.keys(await migrationProvider(dialect).getMigrations()).sort();
      await migrateTo(opened.db, dialect, names[names.indexOf('041_audits_search') - 1]!);
      await (opened.db as any)
        .insertInto('audits')
        .values([
          record('r1', 't1', 'Role created', base + 10, 'Role Auditor created'),
          record('r2', 't1', 'Role created', base + HOUR + 10, 'Role Viewer created'),
          record('r3', 't1', 'Group deleted', base + HOUR + 20, 'Group Auditors deleted'),
          record('r4', 't2', 'Role created', base + 30, 'Role Auditor created'),
        ])
        .execute();
      await migrateTo(opened.db, dialect, '041_audits_search');
    });

    afterAll(async () => {
      await opened?.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (dialect === 'postgres' && databaseUrl) await dropSchema(databaseUrl, schema);
    });

    it('counts the records written before it by tenant, action, severity and hour', async () => {
      const rows = await opened.db.selectFrom('audit_hours').selectAll().orderBy('tenant_id').orderBy('action').orderBy('hour').execute();
      expect(rows.map((r) => [r.tenant_id, r.action, r.severity, Number(r.hour) - base / HOUR, Number(r.n)])).toEqual([
        ['t1', 'Group deleted', 'Info', 1, 1],
        ['t1', 'Role created', 'Info', 0, 1],
        ['t1', 'Role created', 'Info', 1, 1],
        ['t2', 'Role created', 'Info', 0, 1],
      ]);
      expect(await countTenantAudits(opened.db, 't1', { action: 'Role created', createdAtFrom: base - HOUR })).toBe(2);
    });

    it('finds the records written before it by a description substring, each tenant its own', async () => {
      const found = await pageTenantAudits(opened.db, 't1', { description: 'AUDITOR' }, 'desc', 0, 20);
      expect(found.rows.map((r) => r.id)).toEqual(['r3', 'r1']);
      expect(found.total).toBe(2);
      expect((await pageTenantAudits(opened.db, 't2', { description: 'auditor' }, 'desc', 0, 20)).rows.map((r) => r.id)).toEqual(['r4']);
      if (dialect === 'postgres') {
        const available = (await sql<{ n: number }>`select count(*)::int as n from pg_available_extensions where name = 'pg_trgm'`.execute(opened.db)).rows[0]!.n;
        const index = (await sql<{ n: number }>`select count(*)::int as n from pg_indexes where schemaname = current_schema() and indexname = 'audits_description_trgm'`.execute(opened.db)).rows[0]!.n;
        expect(index).toBe(available);
      }
    });
  });
}
