import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../config';
import { freshSqliteFiles } from '../test/sqlite-file';

describe('GATEHOUSE_SQLITE_SYNCHRONOUS', () => {
  const open = freshSqliteFiles('gh-sync-');

  const pragmaOf = async (setting?: 'normal' | 'full') => {
    const opened = await open(setting ? { sqliteSynchronous: setting } : {});
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
