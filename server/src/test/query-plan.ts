/** Query plans for scale checks: what the database would do with a compiled Kysely statement. */
import { sql, type CompiledQuery } from 'kysely';
import type { Db } from '../db';

/** The plan, one line per step (SQLite EXPLAIN QUERY PLAN details, PostgreSQL EXPLAIN lines). */
export async function queryPlan(db: Db, dialect: 'sqlite' | 'postgres', compiled: CompiledQuery): Promise<string> {
  const statement = `${dialect === 'postgres' ? 'explain' : 'explain query plan'} ${inline(compiled.sql, compiled.parameters, dialect)}`;
  const rows = (await sql.raw<Record<string, unknown>>(statement).execute(db)).rows;
  return rows.map((r) => String(r['QUERY PLAN'] ?? r.detail)).join('\n');
}

/**
 * Refreshes planner statistics, as a running database does on its own (autovacuum, optimize). On
 * PostgreSQL also vacuums, as autovacuum does after many inserts (13+): it marks pages all-visible,
 * which index-only scans need to skip rows without reading them.
 */
export async function refreshStatistics(db: Db, dialect: 'sqlite' | 'postgres'): Promise<void> {
  await sql.raw(dialect === 'postgres' ? 'vacuum analyze' : 'pragma optimize').execute(db);
}

/** EXPLAIN takes no bind parameters on PostgreSQL: the statement with its values inlined (test data only). */
function inline(text: string, parameters: readonly unknown[], dialect: 'sqlite' | 'postgres'): string {
  const literal = (v: unknown) => (typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`);
  if (dialect === 'postgres') return text.replace(/\$(\d+)/g, (_, n: string) => literal(parameters[Number(n) - 1]));
  let i = 0;
  return text.replace(/\?/g, () => literal(parameters[i++]));
}
