import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, openDb, type OpenedDb } from '../../db';
import { movableClock } from '../../test/harness';
import { createTableCache } from './table-cache';

describe('table cache', () => {
  let dir = '';
  let opened: OpenedDb;
  const clock = movableClock(1_000_000);

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'gh-table-cache-'));
    opened = await openDb({ dataDir: dir, databaseUrl: null, databaseSchema: null });
    await migrate(opened.db, 'sqlite');
  });
  afterEach(async () => {
    await opened.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A cache over `feature_flags` whose loader counts its calls and answers the flags' keys. */
  function flagKeys() {
    const cache = createTableCache<string, string[]>({ db: opened.db, clock, max: 10, tables: ['feature_flags'] });
    let loads = 0;
    const get = () =>
      cache.get('keys', async () => {
        loads += 1;
        return (await opened.db.selectFrom('feature_flags').select('key').orderBy('key').execute()).map((r) => r.key);
      });
    return { cache, get, loads: () => loads };
  }

  const insertFlag = (db: typeof opened.db, key: string) =>
    db.insertInto('feature_flags').values({ id: key, key, name: key, description: '', is_on: 1, off_treatment: 'false', default_treatment: 'true', rules: '[]', created_at: 0, updated_at: 0 }).execute();

  it('answers a value it read until 1,000 ms have passed, then reads again', async () => {
    const { get, loads } = flagKeys();
    expect(await get()).toEqual([]);
    clock.advance(999);
    expect(await get()).toEqual([]);
    expect(loads()).toBe(1);
    clock.advance(1);
    await get();
    expect(loads()).toBe(2);
  });

  it('forgets everything at once when this process writes to a watched table: a statement, one in a transaction, raw SQL', async () => {
    const { get, loads } = flagKeys();
    await get();
    await insertFlag(opened.db, 'a');
    expect(await get()).toEqual(['a']);
    await opened.db.transaction().execute((trx) => insertFlag(trx, 'b'));
    expect(await get()).toEqual(['a', 'b']);
    await sql`delete from feature_flags where key = 'a'`.execute(opened.db);
    expect(await get()).toEqual(['b']);
    expect(loads()).toBe(4);
  });

  it('keeps its entries when other tables are written or the watched one is only read', async () => {
    const { get, loads } = flagKeys();
    await get();
    await opened.db.insertInto('features').values({ id: 'f', key: 'flags', name: 'feature_flag', linked_permissions: '[]', created_at: 0, updated_at: 0 }).execute();
    await opened.db.selectFrom('feature_flags').selectAll().execute();
    await get();
    expect(loads()).toBe(1);
  });

  it('does not keep what a load read while a write ran, and shares one load among callers asking at once', async () => {
    const cache = createTableCache<string, number>({ db: opened.db, clock, max: 10, tables: ['feature_flags'] });
    let loads = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = () =>
      cache.get('n', async () => {
        loads += 1;
        await gate;
        return loads;
      });
    const [first, second] = [slow(), slow()];
    await insertFlag(opened.db, 'during');
    release();
    expect(await Promise.all([first, second])).toEqual([1, 1]);
    expect(loads).toBe(1);
    expect(cache.size).toBe(0);
    expect(await cache.get('n', async () => 42)).toBe(42);
    expect(cache.size).toBe(1);
  });

  it('hands out frozen values, so no caller can change what the next one reads', async () => {
    const cache = createTableCache<string, Array<{ key: string }>>({ db: opened.db, clock, max: 10, tables: ['feature_flags'] });
    const value = await cache.get('rows', async () => [{ key: 'a' }]);
    expect(() => value.push({ key: 'b' })).toThrow(TypeError);
    expect(() => {
      value[0]!.key = 'changed';
    }).toThrow(TypeError);
    expect(await cache.get('rows', async () => [])).toEqual([{ key: 'a' }]);
  });

  it('forgets a failed load, so the next caller reads again', async () => {
    const cache = createTableCache<string, number>({ db: opened.db, clock, max: 10, tables: ['feature_flags'] });
    await expect(cache.get('n', async () => Promise.reject(new Error('database gone')))).rejects.toThrow('database gone');
    expect(await cache.get('n', async () => 7)).toBe(7);
  });

  it('stops watching writes once closed, and refuses a lifetime over 1,000 ms', async () => {
    const { cache, get, loads } = flagKeys();
    await get();
    cache.close();
    await insertFlag(opened.db, 'after-close');
    await get();
    expect(loads()).toBe(1);
    expect(() => createTableCache({ db: opened.db, clock, max: 1, tables: ['plans'], ttlMs: 1_001 })).toThrow(RangeError);
  });
});
