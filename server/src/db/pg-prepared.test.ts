import { randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createPostgresPool, dropSchema, openDb } from './index';
import { withPreparedStatements } from './pg-prepared';

const databaseUrl = process.env.DATABASE_URL;

describe.runIf(databaseUrl)('PostgreSQL named prepared statements', () => {
  const schema = `prep_${randomBytes(4).toString('hex')}`;
  let admin: pg.Client;
  let db: Kysely<any>;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.query(`create table ${schema}.things (id int primary key, name text not null)`);
    await admin.query(`insert into ${schema}.things values (1, 'one'), (2, 'two'), (3, 'three')`);
    // One connection, so the statements it prepared can be listed from it.
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 1, options: `-c search_path=${schema}` });
    db = new Kysely<any>({ dialect: new PostgresDialect({ pool: withPreparedStatements(pool, { max: 3 }) }) });
  });
  afterAll(async () => {
    await db?.destroy();
    await admin.end();
    // Under the lock migrations take: a migration test's table listing in another worker reads every schema.
    await dropSchema(databaseUrl!, schema);
  });

  const prepared = async () => (await sql<{ statement: string }>`select statement from pg_prepared_statements order by prepare_time`.execute(db)).rows.map((r) => r.statement);
  const byId = (id: number) => db.selectFrom('things').select(['id', 'name']).where('id', '=', id).executeTakeFirst();

  it('prepares a statement with parameters once per connection and answers as an unnamed one would', async () => {
    expect(await byId(1)).toEqual({ id: 1, name: 'one' });
    expect(await byId(2)).toEqual({ id: 2, name: 'two' });
    const texts = await prepared();
    expect(texts.filter((t) => t.includes('"things"') && t.includes('"id" = $1'))).toHaveLength(1);
  });

  it('never names a value list (its text varies with its length) nor a statement without parameters', async () => {
    expect((await db.selectFrom('things').select('id').where('id', 'in', [1, 2]).orderBy('id').execute()).map((r) => r.id)).toEqual([1, 2]);
    expect((await db.selectFrom('things').select('id').where('id', 'in', [1, 2, 3]).orderBy('id').execute()).map((r) => r.id)).toEqual([1, 2, 3]);
    await sql`select count(*) from things`.execute(db);
    const texts = await prepared();
    expect(texts.some((t) => / in \(/.test(t) || t.includes('count(*)'))).toBe(false);
  });

  it('names at most `max` texts per connection and runs further ones unnamed, with the same answers', async () => {
    await db.selectFrom('things').select('name').where('name', '=', 'two').execute();
    await db.selectFrom('things').select('id').where('id', '>', 1).execute();
    const beyond = await db.selectFrom('things').select('id').where('id', '<', 3).orderBy('id').execute();
    expect(beyond.map((r) => r.id)).toEqual([1, 2]);
    expect(await prepared()).toHaveLength(3);
  });

  it('runs a `select *` again after a migration added a column (its plan went stale), and inside a transaction fails only that transaction', async () => {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 1, options: `-c search_path=${schema}` });
    const own = new Kysely<any>({ dialect: new PostgresDialect({ pool: withPreparedStatements(pool, { max: 10 }) }) });
    onTestFinished(() => own.destroy());
    const all = (id: number) => own.selectFrom('things').selectAll().where('id', '=', id).executeTakeFirst();
    expect(await all(3)).toEqual({ id: 3, name: 'three' });
    await admin.query(`alter table ${schema}.things add column colour text default 'red'`);
    expect(await all(3)).toEqual({ id: 3, name: 'three', colour: 'red' });
    await admin.query(`alter table ${schema}.things add column size int default 7`);
    await expect(own.transaction().execute((trx) => trx.selectFrom('things').selectAll().where('id', '=', 3).executeTakeFirst())).rejects.toThrow(/cached plan/);
    expect(await own.transaction().execute((trx) => trx.selectFrom('things').selectAll().where('id', '=', 3).executeTakeFirst())).toEqual({ id: 3, name: 'three', colour: 'red', size: 7 });
  });

  it('shares what a connection prepared, and its bound, between Dbs over one pool (a pool that outlives a server)', async () => {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 1, options: `-c search_path=${schema}` });
    onTestFinished(() => pool.end());
    // Not destroyed: destroying a Kysely ends its pool, which this test ends itself.
    const over = () => new Kysely<any>({ dialect: new PostgresDialect({ pool: withPreparedStatements(pool, { max: 2 }) }) });
    const [first, second] = [over(), over()];
    const listed = async () => (await pool.query<{ statement: string }>('select statement from pg_prepared_statements')).rows.map((r) => r.statement);
    expect(await first.selectFrom('things').select('name').where('id', '=', 1).executeTakeFirst()).toEqual({ name: 'one' });
    await first.selectFrom('things').select('id').where('name', '=', 'three').execute();
    // The connection has named 2 texts, its bound: the second Db runs the same text again and a
    // third one unnamed, with the same answers.
    expect(await second.selectFrom('things').select('name').where('id', '=', 2).executeTakeFirst()).toEqual({ name: 'two' });
    expect(await second.selectFrom('things').select('id').where('id', '>=', 2).orderBy('id').execute()).toEqual([{ id: 2 }, { id: 3 }]);
    const texts = await listed();
    expect(texts).toHaveLength(2);
    expect(texts.filter((t) => t.includes('"id" = $1'))).toHaveLength(1);
    expect(texts.some((t) => t.includes('>='))).toBe(false);
  });

  it('openDb on a given pool uses it, and closing the Db leaves the pool open for the next one', async () => {
    const config = { databaseUrl: databaseUrl!, databaseSchema: schema, dataDir: '' };
    const pool = await createPostgresPool(config);
    onTestFinished(() => pool.end());
    const pid = async (db: Kysely<any>) => (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]!.pid;
    const first = await openDb(config, { postgresPool: pool });
    const before = await pid(first.db);
    await first.close();
    expect((await pool.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    const second = await openDb(config, { postgresPool: pool });
    onTestFinished(() => second.close());
    expect(await pid(second.db)).toBe(before); // the same connection, still open
    expect(pool.totalCount).toBe(1);
  });
});
