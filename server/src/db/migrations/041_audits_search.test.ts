import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { migrateTo } from '../index';
import { countTenantAudits, pageTenantAudits } from '../queries/audits';
import { describeMigration, migrateToBefore } from '../../test/migration-db';

const HOUR = 3_600_000;

/**
 * Migration 041: the hourly counts and the description index cover the records written before it
 * (SQLite: the FTS5 trigram index is rebuilt from them; PostgreSQL: the pg_trgm index exists when the
 * extension is available, as in the test database).
 */
describeMigration(`migration 041_audits_search`, (dialect, m) => {
  const base = Math.floor(Date.now() / HOUR) * HOUR - 10 * HOUR;
  const record = (id: string, tenantId: string, action: string, at: number, description: string) => ({
    id, tenant_id: tenantId, user_id: null, email: null, action, description, ip: null, user_agent: null, severity: 'Info', json: null, created_at: at,
  });

  beforeAll(async () => {
    await migrateToBefore(m.opened.db, dialect, '041_audits_search');
    await (m.opened.db as any)
      .insertInto('audits')
      .values([
        record('r1', 't1', 'Role created', base + 10, 'Role Auditor created'),
        record('r2', 't1', 'Role created', base + HOUR + 10, 'Role Viewer created'),
        record('r3', 't1', 'Group deleted', base + HOUR + 20, 'Group Auditors deleted'),
        record('r4', 't2', 'Role created', base + 30, 'Role Auditor created'),
      ])
      .execute();
    await migrateTo(m.opened.db, dialect, '041_audits_search');
  });

  it('counts the records written before it by tenant, action, severity and hour', async () => {
    const rows = await m.opened.db.selectFrom('audit_hours').selectAll().orderBy('tenant_id').orderBy('action').orderBy('hour').execute();
    expect(rows.map((r) => [r.tenant_id, r.action, r.severity, Number(r.hour) - base / HOUR, Number(r.n)])).toEqual([
      ['t1', 'Group deleted', 'Info', 1, 1],
      ['t1', 'Role created', 'Info', 0, 1],
      ['t1', 'Role created', 'Info', 1, 1],
      ['t2', 'Role created', 'Info', 0, 1],
    ]);
    expect(await countTenantAudits(m.opened.db, 't1', { action: 'Role created', createdAtFrom: base - HOUR })).toBe(2);
  });

  it('finds the records written before it by a description substring, each tenant its own', async () => {
    const found = await pageTenantAudits(m.opened.db, 't1', { description: 'AUDITOR' }, 'desc', 0, 20);
    expect(found.rows.map((r) => r.id)).toEqual(['r3', 'r1']);
    expect(found.total).toBe(2);
    expect((await pageTenantAudits(m.opened.db, 't2', { description: 'auditor' }, 'desc', 0, 20)).rows.map((r) => r.id)).toEqual(['r4']);
    if (dialect === 'postgres') {
      const available = (await sql<{ n: number }>`select count(*)::int as n from pg_available_extensions where name = 'pg_trgm'`.execute(m.opened.db)).rows[0]!.n;
      const index = (await sql<{ n: number }>`select count(*)::int as n from pg_indexes where schemaname = current_schema() and indexname = 'audits_description_trgm'`.execute(m.opened.db)).rows[0]!.n;
      expect(index).toBe(available);
    }
  });
});
