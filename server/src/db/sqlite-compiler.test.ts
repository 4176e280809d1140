import Database from 'better-sqlite3';
import { Kysely, sql, type Generated } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { GatehouseSqliteDialect } from './sqlite-compiler';
import { withStatementCache } from './statement-cache';

interface Rows {
  items: { id: number; kind: string; leased: Generated<number> };
}

describe('SQLite compiler', () => {
  let db: Kysely<Rows> | null = null;
  afterEach(async () => {
    await db?.destroy();
    db = null;
  });

  async function items(): Promise<Kysely<Rows>> {
    db = new Kysely<Rows>({ dialect: new GatehouseSqliteDialect({ database: withStatementCache(new Database(':memory:')) }) });
    await sql`create table items (id integer primary key, kind text not null, leased integer not null default 0)`.execute(db);
    await db.insertInto('items').values(Array.from({ length: 10 }, (_, i) => ({ id: i + 1, kind: i % 2 ? 'odd' : 'even' }))).execute();
    return db;
  }

  it('writes an integer limit into the statement text, where a bound one had SQLite prepare the statement again at every run', async () => {
    const k = await items();
    const query = (n: number) => k.selectFrom('items').select('id').where('kind', '=', 'odd').orderBy('id', 'desc').limit(n);
    const compiled = query(3).compile();
    expect(compiled.sql).toMatch(/ limit 3$/);
    expect(compiled.parameters).toEqual(['odd']);
    for (const n of [1, 3, 5, 0]) expect((await query(n).execute()).map((r) => r.id)).toEqual([10, 8, 6, 4, 2].slice(0, n));
    // SQLite's "no limit".
    expect(await query(-1).execute()).toHaveLength(5);
  });

  it('writes the limit of a subquery too, as the outbox and job leases have', async () => {
    const k = await items();
    const lease = k
      .updateTable('items')
      .set({ leased: 1 })
      .where('id', 'in', (eb) => eb.selectFrom('items').select('id').where('leased', '=', 0).orderBy('id').limit(4))
      .returning('id');
    expect(lease.compile().sql).toMatch(/order by "id" limit 4\)/);
    expect((await lease.execute()).map((r) => r.id).sort((a, b) => a - b)).toEqual([1, 2, 3, 4]);
    expect((await lease.execute()).map((r) => r.id).sort((a, b) => a - b)).toEqual([5, 6, 7, 8]);
  });

  it('keeps any other limit a parameter: no value of a caller becomes SQL text', async () => {
    const k = await items();
    for (const odd of [2.5, Number.NaN, Number.MAX_SAFE_INTEGER + 2, '3; drop table items' as unknown as number]) {
      const compiled = k.selectFrom('items').select('id').limit(odd).compile();
      expect(compiled.sql, String(odd)).toMatch(/ limit \?$/);
      expect(compiled.parameters, String(odd)).toEqual([odd]);
    }
    // An expression stays what it is.
    const expression = k.selectFrom('items').select('id').limit(sql<number>`${2} + ${1}`).compile();
    expect(expression.sql).toMatch(/ limit \? \+ \?$/);
    expect(await k.selectFrom('items').select('id').limit(sql<number>`${2} + ${1}`).execute()).toHaveLength(3);
    expect(await k.selectFrom('items').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst()).toEqual({ n: 10 });
  });
});
