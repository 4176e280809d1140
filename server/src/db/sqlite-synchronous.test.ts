import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../config';
import { openDb, type OpenedDb } from './index';

describe('GATEHOUSE_SQLITE_SYNCHRONOUS', () => {
  let dir = '';
  let opened: OpenedDb | undefined;
  afterEach(async () => {
    await opened?.close();
    opened = undefined;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const pragmaOf = async (setting?: 'normal' | 'full') => {
    dir = mkdtempSync(path.join(tmpdir(), 'gh-sync-'));
    opened = await openDb({ dataDir: dir, databaseUrl: null, databaseSchema: null, ...(setting ? { sqliteSynchronous: setting } : {}) });
    const journal = (await sql<{ journal_mode: string }>`pragma journal_mode`.execute(opened.db)).rows[0]!.journal_mode;
    const synchronous = (await sql<{ synchronous: number }>`pragma synchronous`.execute(opened.db)).rows[0]!.synchronous;
    return { journal, synchronous };
  };

  it('opens the file in WAL mode that waits for the disk at checkpoints (NORMAL = 1) by default', async () => {
    expect(await pragmaOf()).toEqual({ journal: 'wal', synchronous: 1 });
    expect(loadConfig({}).sqliteSynchronous).toBe('normal');
  });

  it('waits for the disk at every commit (FULL = 2) when set to full, in any case', async () => {
    expect(loadConfig({ GATEHOUSE_SQLITE_SYNCHRONOUS: 'FULL' }).sqliteSynchronous).toBe('full');
    expect(await pragmaOf('full')).toEqual({ journal: 'wal', synchronous: 2 });
  });

  it('refuses any other value at start, naming the setting', () => {
    expect(() => loadConfig({ GATEHOUSE_SQLITE_SYNCHRONOUS: 'off' })).toThrow(ConfigError);
    expect(() => loadConfig({ GATEHOUSE_SQLITE_SYNCHRONOUS: 'off' })).toThrow(/GATEHOUSE_SQLITE_SYNCHRONOUS/);
  });
});
