import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDb } from './index';
import { checkpointOnThread, DEFAULT_AUTOCHECKPOINT_PAGES, MAIN_AUTOCHECKPOINT_PAGES, type Checkpoints } from './sqlite-checkpoints';

/** Waits (at most 10 s) until `done` holds. */
async function until(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('SQLite checkpoints on their own thread', () => {
  let dir = '';
  let file: SqliteDatabase.Database | undefined;
  let checkpoints: Checkpoints | undefined;
  afterEach(async () => {
    await checkpoints?.stop();
    file?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    checkpoints = undefined;
    file = undefined;
  });

  const open = () => {
    dir = mkdtempSync(path.join(tmpdir(), 'gh-checkpoints-'));
    const filePath = path.join(dir, 'gatehouse.db');
    file = new SqliteDatabase(filePath);
    file.pragma('journal_mode = WAL');
    file.pragma('synchronous = NORMAL');
    file.exec('create table t (id integer primary key, body text not null)');
    return filePath;
  };
  const write = (rows: number) => {
    const insert = file!.prepare('insert into t (body) values (?)');
    for (let i = 0; i < rows; i++) insert.run('x'.repeat(2000));
  };
  const frames = (filePath: string) => (statSync(`${filePath}-wal`).size - 32) / (4096 + 24);

  it('copies the log into the file from its thread while the connection that writes never checkpoints below its safety net, and the log starts over', async () => {
    const filePath = open();
    checkpoints = checkpointOnThread(file!, filePath, { startPages: 50, watchMs: 20 });
    expect(file!.pragma('wal_autocheckpoint', { simple: true })).toBe(MAIN_AUTOCHECKPOINT_PAGES);
    expect(checkpoints.state().thread).toBe('waiting');
    write(100); // about 100 pages in the log, each commit its own
    await until(() => checkpoints!.state().checkpoints > 0 && checkpoints!.state().backfilled > 0);
    expect(checkpoints.state().thread).toBe('running');
    const grown = frames(filePath);
    expect(grown).toBeGreaterThanOrEqual(50);
    // After a complete checkpoint the next commits overwrite the log from its start: it does not grow.
    await until(() => checkpoints!.state().backfilled === grown);
    write(20);
    expect(frames(filePath)).toBe(grown);
    // A second connection sees every row (from the file and the log).
    const reader = new SqliteDatabase(filePath, { readonly: true });
    expect(reader.prepare('select count(*) as n from t').get()).toEqual({ n: 120 });
    reader.close();
    await checkpoints.stop();
    expect(checkpoints.state().thread).toBe('stopped');
  });

  it('gives the checkpoints back to the connection that writes when the thread fails', async () => {
    const filePath = open();
    checkpoints = checkpointOnThread(file!, filePath, { startPages: 10, watchMs: 20, modulePath: path.join(dir, 'no-such-module.js') });
    write(20);
    await until(() => checkpoints!.state().thread === 'failed');
    expect(file!.pragma('wal_autocheckpoint', { simple: true })).toBe(DEFAULT_AUTOCHECKPOINT_PAGES);
  });

  it('starts no thread for a log that stays small', async () => {
    const filePath = open();
    checkpoints = checkpointOnThread(file!, filePath, { startPages: 1_000, watchMs: 20 });
    write(20);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(checkpoints.state()).toEqual({ thread: 'waiting', checkpoints: 0, backfilled: 0 });
  });

  it('leaves a new database with an empty log after its migrations, so a process that writes little starts no thread', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'gh-checkpoints-'));
    const opened = await openDb({ dataDir: dir, databaseUrl: null, databaseSchema: null });
    try {
      await migrate(opened.db, 'sqlite');
      expect(statSync(path.join(dir, 'gatehouse.db-wal')).size).toBe(0);
    } finally {
      await opened.close();
    }
  });
});
