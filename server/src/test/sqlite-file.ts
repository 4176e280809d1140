/** A SQLite database of its own in a new temporary directory, for tests of how openDb sets the file up. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import type { Config } from '../config';
import { openDb, type OpenedDb } from '../db';

/** Registers the clean-up (close, remove the directory) after each test; returns the opener. */
export function freshSqliteFiles(prefix: string): (settings?: Partial<Pick<Config, 'sqliteSynchronous'>>) => Promise<OpenedDb> {
  let dir = '';
  let opened: OpenedDb | undefined;
  afterEach(async () => {
    await opened?.close();
    opened = undefined;
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = '';
  });
  return async (settings = {}) => {
    dir = mkdtempSync(path.join(tmpdir(), prefix));
    opened = await openDb({ dataDir: dir, databaseUrl: null, databaseSchema: null, ...settings });
    return opened;
  };
}
