import { ApiPaths } from '@gatehouse/shared/wire';
import { Kysely, sql, SqliteDialect } from 'kysely';
import SqliteDatabase from 'better-sqlite3';
import { expect, it } from 'vitest';
import type { Database } from '../db/schema';
import { call, describeDialects, signUpAndActivate } from './harness';
import { countStatements } from './statement-counter';

describeDialects('statement counter', (h) => {
  it('counts the statements and writes run on the Db, inside transactions too, but not transaction control', async () => {
    const server = await h.start();
    const key = `counter-test-${Math.random()}`;
    const counted = await countStatements(server.db, () =>
      server.db.transaction().execute(async (trx) => {
        await trx.insertInto('rate_limits').values({ key, window_start: 1, count: 1 }).execute();
        await trx.updateTable('rate_limits').set({ count: 2 }).where('key', '=', key).execute();
        await trx.selectFrom('rate_limits').select('count').where('key', '=', key).executeTakeFirstOrThrow();
        await sql`delete from rate_limits where key = ${key}`.execute(trx);
      }),
    );
    expect(counted.total).toBe(4);
    expect(counted.writes).toBe(3);
    expect(counted.sql[2]).toMatch(/^select/i);
    expect(counted.sql.some((s) => /^(begin|commit)/i.test(s))).toBe(false);
  });

  it('sees the statements server code runs while an HTTP call is answered, and stops counting after', async () => {
    const server = await h.start({ RATE_LIMIT_LOGIN_PER_IP: '1000/600' });
    const { email } = await signUpAndActivate(server);
    // A failed sign-in is counted before it is answered: at least one write, seen through server.fetch.
    const failed = await countStatements(server.db, () => call(server, 'POST', ApiPaths.login, { body: { email, password: 'not the password at all' } }));
    expect(failed.total).toBeGreaterThan(0);
    expect(failed.writes).toBeGreaterThan(0);
    expect(failed.sql).toHaveLength(failed.total);

    const reads = await countStatements(server.db, () => server.db.selectFrom('rate_limits').select('key').execute());
    await server.db.selectFrom('rate_limits').select('key').execute();
    expect(reads).toMatchObject({ total: 1, writes: 0 });
  });

  it('counts raw upserts and CTE writes (after or inside a WITH entry) as writes, and reads as reads', async () => {
    const server = await h.start();
    const key = `counter-raw-${Math.random()}`;
    const counted = await countStatements(server.db, async () => {
      await sql`insert into rate_limits (key, window_start, count) values (${key}, 1, 1) on conflict (key) do update set count = rate_limits.count + 1`.execute(server.db);
      await sql`with hit as (select ${key} as k) update rate_limits set count = 5 where key in (select k from hit)`.execute(server.db);
      await sql`select count from rate_limits where key = ${key}`.execute(server.db);
      // PostgreSQL's data-modifying WITH entry (SQLite has none): a select that writes.
      if (h.dialect === 'postgres') await sql`with bumped as (update rate_limits set count = 6 where key = ${key} returning key) select count(*) from bumped`.execute(server.db);
      await sql`with old as (select ${key} as k) select count(*) from old`.execute(server.db);
    });
    expect(counted).toMatchObject(h.dialect === 'postgres' ? { total: 5, writes: 3 } : { total: 4, writes: 2 });
  });
});

it('refuses a Db that openDb did not build, rather than count nothing', async () => {
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SqliteDatabase(':memory:') }) });
  try {
    await expect(countStatements(db, async () => undefined)).rejects.toThrow(/not opened by openDb/);
  } finally {
    await db.destroy();
  }
});
