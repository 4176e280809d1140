import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { withStatementCache } from './statement-cache';

let dir = '';
let file: SqliteDatabase.Database;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-statement-cache-'));
  file = new SqliteDatabase(path.join(dir, 'test.db'));
  file.exec('create table t (id integer primary key, name text); insert into t (name) values (\'a\'), (\'b\'), (\'c\');');
});

afterEach(() => {
  if (file.open) file.close();
  rmSync(dir, { recursive: true, force: true });
});

it('prepares the same SQL once, however often it runs', async () => {
  const prepare = vi.spyOn(file, 'prepare');
  const db = new Kysely<{ t: { id: number; name: string } }>({ dialect: new SqliteDialect({ database: withStatementCache(file) }) });
  for (const name of ['a', 'b', 'a']) expect(await db.selectFrom('t').select('id').where('name', '=', name).executeTakeFirst()).toBeDefined();
  await db.updateTable('t').set({ name: 'z' }).where('id', '=', 3).execute();
  await db.updateTable('t').set({ name: 'y' }).where('id', '=', 3).execute();
  expect(prepare).toHaveBeenCalledTimes(2);
  expect((await db.selectFrom('t').select('name').where('id', '=', 3).executeTakeFirstOrThrow()).name).toBe('y');
});

it('never hands out a statement an open iteration still holds: the same SQL meanwhile gets a fresh one', () => {
  const cache = withStatementCache(file);
  const sql = 'select name from t order by id';
  const streaming = cache.prepare(sql);
  const rows = streaming.iterate([]);
  expect(rows.next().value).toEqual({ name: 'a' });
  const again = cache.prepare(sql);
  expect(again).not.toBe(streaming);
  expect(again.all([])).toEqual([{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
  expect([...rows]).toEqual([{ name: 'b' }, { name: 'c' }]);
  // Finished, the fresh statement is the cached one from now on.
  expect(cache.prepare(sql)).toBe(again);
});

it('keeps at most its size of statements, dropping the least recently used', () => {
  const prepare = vi.spyOn(file, 'prepare');
  const cache = withStatementCache(file, 2);
  cache.prepare('select 1');
  cache.prepare('select 2');
  cache.prepare('select 1');
  cache.prepare('select 3'); // drops 'select 2', the least recently used
  expect(cache.cached).toBe(2);
  cache.prepare('select 1');
  expect(prepare).toHaveBeenCalledTimes(3);
  cache.prepare('select 2');
  expect(prepare).toHaveBeenCalledTimes(4);
});

it('a cached statement sees a schema change made after it was prepared', () => {
  const cache = withStatementCache(file);
  const sql = 'select * from t where id = ?';
  expect(cache.prepare(sql).all([1])).toEqual([{ id: 1, name: 'a' }]);
  cache.prepare('alter table t add column note text').run([]);
  cache.prepare('update t set note = ? where id = ?').run(['new', 1]);
  expect(cache.prepare(sql).all([1])).toEqual([{ id: 1, name: 'a', note: 'new' }]);
});

it('closing closes the database', () => {
  const cache = withStatementCache(file);
  cache.prepare('select 1');
  cache.close();
  expect(file.open).toBe(false);
});

it('answers the rows better-sqlite3 answers: the same keys in the same order, the same values, repeated names included', () => {
  const cache = withStatementCache(file);
  file.exec("create table u (id integer primary key, name text, note text, data blob); insert into u values (1, 'x', null, x'00ff'), (2, 'a', 'n', null);");
  const sql = 'select t.*, u.name, u.note, u.data, u.id * 2.5 as half, 7 as "we""ird" from t join u on u.id = t.id order by t.id';
  const expected = file.prepare(sql).all() as Record<string, unknown>[];
  const rows = cache.prepare(sql).all([]) as Record<string, unknown>[];
  expect(rows).toEqual(expected);
  expect(rows.map((r) => Object.keys(r))).toEqual(expected.map((r) => Object.keys(r)));
  // The last of two columns named `name` wins, in the first one's place.
  expect(rows[0]).toEqual({ id: 1, name: 'x', note: null, data: Buffer.from([0, 255]), half: 2.5, 'we"ird': 7 });
  expect([...cache.prepare(sql).iterate([])]).toEqual(expected);
});

it('answers a column named __proto__ as a property of the row, never as its prototype', () => {
  const cache = withStatementCache(file);
  const [row] = cache.prepare("select x'00' as \"__proto__\", 1 as id").all([]) as Record<string, unknown>[];
  expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
  expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toEqual(Buffer.from([0]));
  expect(Object.keys(row!)).toEqual(['__proto__', 'id']);
});

it('reads the names again after a schema change through it, even one that keeps the number of columns', () => {
  const cache = withStatementCache(file);
  const sql = 'select * from t where id = ?';
  expect(cache.prepare(sql).all([1])).toEqual([{ id: 1, name: 'a' }]);
  cache.prepare('alter table t rename column name to label').run([]);
  expect(cache.prepare(sql).all([1])).toEqual([{ id: 1, label: 'a' }]);
  expect([...cache.prepare(sql).iterate([2])]).toEqual([{ id: 2, label: 'b' }]);
});

it('reads the names again when another connection changed the columns', () => {
  const cache = withStatementCache(file);
  const sql = 'select * from t where id = ?';
  expect(cache.prepare(sql).all([1])).toEqual([{ id: 1, name: 'a' }]);
  const other = new SqliteDatabase(path.join(dir, 'test.db'));
  try {
    other.exec("alter table t add column note text; update t set note = 'seen' where id = 1;");
  } finally {
    other.close();
  }
  expect(cache.prepare(sql).all([1])).toEqual([{ id: 1, name: 'a', note: 'seen' }]);
});
