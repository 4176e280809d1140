import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Database as SqliteFile } from 'better-sqlite3';

/**
 * Checkpoints of SQLite's write-ahead log on a thread of their own (issue 17).
 *
 * SQLite's default checkpoints the log into the database file from the connection whose commit
 * takes the log past 1,000 pages: on the event loop, in the middle of a request, with the copy and
 * both fsyncs. That was 4.3% of a password sign-in's main thread (perf, under `walCheckpoint`).
 *
 * Here the server's connection checkpoints only when the log reaches MAIN_AUTOCHECKPOINT_PAGES, a
 * safety net, and a worker thread with a connection of its own runs PASSIVE checkpoints (which never
 * wait for or block a writer; frames a reader still needs stay for the next one) every WATCH_MS once
 * the log has changed. The next commit after a complete checkpoint starts the log over from its
 * beginning, so it stays about as large as what is written between two checkpoints.
 *
 * The thread starts the first time the log holds THREAD_START_PAGES pages: most databases a test
 * opens never get there and never start one. If it fails, the server's connection checkpoints at
 * SQLite's default again. What is durable does not change: a checkpoint copies committed pages,
 * with the file's `synchronous` setting.
 */
export const MAIN_AUTOCHECKPOINT_PAGES = 10_000;
/** SQLite's own default, restored on the server's connection if the thread fails. */
export const DEFAULT_AUTOCHECKPOINT_PAGES = 1_000;
const THREAD_START_PAGES = 1_000;
const WATCH_MS = 200;

const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { statSync } = require('node:fs');
const Database = require(workerData.module);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('synchronous = ' + workerData.synchronous);
db.pragma('busy_timeout = 0');
let seen = -1;
const timer = setInterval(() => {
  let changed;
  try { changed = statSync(workerData.file + '-wal').mtimeMs; } catch { return; }
  if (changed === seen) return;
  let result;
  try { [result] = db.pragma('wal_checkpoint(PASSIVE)'); } catch { return; } // busy or locked: the next round
  seen = changed;
  parentPort.postMessage(result);
}, workerData.watchMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface Checkpoints {
  /** Stops the thread (after its checkpoint in progress) and the watch before it starts. */
  stop(): Promise<void>;
  /** Checkpoints the thread has run, and whether it failed (the server's connection checkpoints then). */
  state(): { thread: 'waiting' | 'running' | 'failed' | 'stopped'; checkpoints: number; backfilled: number };
}

/**
 * Moves `main`'s checkpoints to a thread once its log reaches `startPages` pages. `path` is the
 * database file `main` opened; `modulePath` which better-sqlite3 the thread loads (tests give a
 * wrong one to see the fallback).
 */
export function checkpointOnThread(
  main: SqliteFile,
  path: string,
  options: { startPages?: number; watchMs?: number; modulePath?: string } = {},
): Checkpoints {
  const watchMs = options.watchMs ?? WATCH_MS;
  const pageSize = Number(main.pragma('page_size', { simple: true }));
  const synchronous = Number(main.pragma('synchronous', { simple: true }));
  // A WAL file: a 32-byte header, then a 24-byte header and a page per frame.
  const startBytes = 32 + (options.startPages ?? THREAD_START_PAGES) * (pageSize + 24);
  const state: ReturnType<Checkpoints['state']> = { thread: 'waiting', checkpoints: 0, backfilled: 0 };
  let worker: Worker | null = null;
  let exited: Promise<void> = Promise.resolve();

  main.pragma(`wal_autocheckpoint = ${MAIN_AUTOCHECKPOINT_PAGES}`);

  const fail = () => {
    if (state.thread !== 'running') return;
    state.thread = 'failed';
    worker = null;
    if (main.open) main.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
  };

  const watch = setInterval(() => {
    let size = 0;
    try {
      size = statSync(`${path}-wal`).size;
    } catch {
      return;
    }
    if (size < startBytes) return;
    clearInterval(watch);
    const module = options.modulePath ?? createRequire(import.meta.url).resolve('better-sqlite3');
    const thread = new Worker(THREAD_SOURCE, { eval: true, name: 'gatehouse-checkpoints', workerData: { module, file: path, synchronous, watchMs } });
    thread.unref();
    worker = thread;
    state.thread = 'running';
    exited = new Promise((resolve) => thread.once('exit', () => resolve()));
    thread.on('message', (result: { busy: number; log: number; checkpointed: number }) => {
      state.checkpoints++;
      state.backfilled = result.checkpointed;
    });
    thread.on('error', fail);
    thread.on('exit', fail);
  }, watchMs);
  watch.unref();

  return {
    async stop() {
      clearInterval(watch);
      const thread = worker;
      worker = null;
      if (state.thread === 'running') state.thread = 'stopped';
      if (!thread) return;
      thread.postMessage('stop');
      // A thread that does not end on its own within a second is ended.
      const timeout = setTimeout(() => void thread.terminate(), 1_000);
      await exited;
      clearTimeout(timeout);
    },
    state: () => ({ ...state }),
  };
}
