import { readdirSync, readlinkSync } from 'node:fs';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { freshSqliteFiles } from '../test/sqlite-file';

/** The temporary files SQLite holds open (it deletes each as soon as it opens it: only /proc still names them). */
function openTemporaryFiles(): string[] {
  const fds = readdirSync('/proc/self/fd');
  return fds
    .map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return '';
      }
    })
    .filter((target) => /etilqs_/.test(target));
}

describe('SQLite temporary storage', () => {
  const open = freshSqliteFiles('gh-temp-');

  it('keeps the statement journal of a large statement inside a transaction in memory: no temporary file', async () => {
    const { db } = await open();
    await sql`create table wide (id integer primary key, body text not null unique)`.execute(db);
    await sql`insert into wide (body) select printf('%0400d', value) from generate_series(1, 600)`.execute(db).catch(async () => {
      // generate_series is an extension some builds lack: a recursive count instead.
      await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 600) insert into wide (body) select printf('%0400d', i) from n`.execute(db);
    });
    const during = await db.transaction().execute(async (trx) => {
      await sql`insert into wide (body) values ('first')`.execute(trx);
      // A statement that rewrites every page of the table (about 240 KiB) and may abort (the unique
      // body): SQLite journals those pages so it can undo the statement alone. With temporary storage
      // on disk the journal spilled to a temporary file past 64 KiB.
      await sql`update wide set body = body || 'x' where id > 0`.execute(trx);
      return openTemporaryFiles();
    });
    expect(during).toEqual([]);
    expect(Number((await sql<{ n: number }>`select count(*) as n from wide where body like '%x'`.execute(db)).rows[0]!.n)).toBe(601);
  });
});
