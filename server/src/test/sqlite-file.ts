/** A SQLite database of its own in a new temporary directory, for tests of how openDb sets the file up. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import type { Config } from '../config';
import { openDb, type OpenedDb } from '../db';

/** Registers the clean-up (close, remove the directory of every database the test opened) after each test; returns the opener. */
export function freshSqliteFiles(prefix: string): (settings?: Partial<Pick<Config, 'sqliteSynchronous'>>) => Promise<OpenedDb> {
  const opened: { dir: string; db?: OpenedDb }[] = [];
  afterEach(async () => {
    for (const { dir, db } of opened.splice(0)) {
      await db?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
  return async (settings = {}) => {
    const entry: { dir: string; db?: OpenedDb } = { dir: mkdtempSync(path.join(tmpdir(), prefix)) };
    opened.push(entry);
    entry.db = await openDb({ dataDir: entry.dir, databaseUrl: null, databaseSchema: null, ...settings });
    return entry.db;
  };
}
