import type { KeyObject } from 'node:crypto';
import { setImmediate } from 'node:timers';
import { Worker } from 'node:worker_threads';

/**
 * ES256 token signatures made on one worker thread of the process's own, in batches (issue 17).
 *
 * node:crypto's callback form queues every signature on libuv's thread pool: a condition-variable
 * signal that wakes an idle pool thread per token, which cost a token grant's main thread about 9%
 * (perf, `pthread_cond_signal` under `uv_queue_work`), plus a native job and a completion callback
 * per token. Here the main thread gathers the tokens asked for in one turn of its event loop (a
 * grant, a refresh or a sign-in each ask during their request's callbacks; the batch leaves in the
 * loop's check phase, after every request that arrived in that turn has run), posts them as one
 * message, and gets them back as one: one wake-up each way per batch. A batch leaves as soon as it
 * holds BATCH_MAX tokens: the thread then signs while the main thread runs the turn's other
 * requests, and the first answers come back while it does. One message per turn had made the two
 * threads take turns (the main thread read every request, then waited for the whole batch to be
 * signed, then answered them all): at 15,600 grants/s its main thread was busy 0.78 of the time,
 * and vmstat showed the machine's two cores 30 to 47% idle. The thread builds the whole
 * compact JWS (base64url of the payload, the signature as JWS's raw r||s), so the main thread only
 * serializes the payload.
 *
 * Keys go to the thread once per key id (a KeyObject is cloned into it), at most KEYS_KEPT of them.
 * If the thread fails or exits, the tokens it held are signed on the thread pool instead, as is
 * everything for RETRY_AFTER_MS before a new thread is tried: a token is never lost to it.
 */

/** What a caller signs with: the key, its id and the JWS header it goes with (base64url). */
export interface ThreadSigningKey {
  kid: string;
  key: KeyObject;
  header: string;
}

type PoolSign = (key: ThreadSigningKey, payload: string) => Promise<string>;

interface Job {
  payload: string;
  resolve: (token: string) => void;
  reject: (error: Error) => void;
}

interface Batch {
  key: ThreadSigningKey;
  jobs: Job[];
}

/**
 * The most tokens in one message. In runs of client_credentials grants of the same hour (16 and 64
 * connections, three runs each), caps of 2, 4, 6 and 8 gave 17,044 to 19,515 grants/s, one batch
 * per turn 14,921 to 16,742.
 */
const BATCH_MAX = 8;
/** Key ids the thread keeps; the oldest is dropped beyond this (rotations keep one active key). */
const KEYS_KEPT = 8;
/** After the thread fails, the thread pool signs for this long before a new thread is started. */
const RETRY_AFTER_MS = 10_000;

const THREAD_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { sign } = require('node:crypto');
const keys = new Map();
parentPort.on('message', (m) => {
  if (m.type === 'key') { keys.set(m.kid, m); return; }
  if (m.type === 'drop') { keys.delete(m.kid); return; }
  const k = keys.get(m.kid);
  const tokens = m.payloads.map((payload) => {
    try {
      const input = k.header + '.' + Buffer.from(payload).toString('base64url');
      return input + '.' + sign('sha256', Buffer.from(input), { key: k.key, dsaEncoding: 'ieee-p1363' }).toString('base64url');
    } catch {
      return null;
    }
  });
  parentPort.postMessage({ id: m.id, tokens });
});
`;

export interface SignerThread {
  /** The compact JWS of `payload` (JSON text) under `key`: header.payload.signature. */
  sign(key: ThreadSigningKey, payload: string): Promise<string>;
  /** Stops the thread; later calls start a new one. */
  close(): Promise<void>;
  /** What was posted to the thread so far: batches and the tokens in them; what the thread pool signed instead. */
  counts(): { batches: number; tokens: number; onPool: number };
}

/** `now` and `newWorker` (how a thread is made from its source) are for tests. */
export function createSignerThread(poolSign: PoolSign, options: { now?: () => number; newWorker?: (source: string) => Worker } = {}): SignerThread {
  const now = options.now ?? Date.now;
  const newWorker = options.newWorker ?? ((source: string) => new Worker(source, { eval: true, name: 'gatehouse-signer' }));
  let worker: Worker | null = null;
  let failedAt = Number.NEGATIVE_INFINITY;
  let nextId = 0;
  const tally = { batches: 0, tokens: 0, onPool: 0 };
  /** Key ids sent to the current thread, oldest first. */
  const sent = new Map<string, KeyObject>();
  /** Batches posted and not answered yet, by message id. */
  const posted = new Map<number, Batch>();
  /** Tokens asked for in this turn of the event loop, by key (a key id's KeyObject is made again when the key set is re-read). */
  let gathering: Map<KeyObject, Batch> | null = null;

  const onPool = (key: ThreadSigningKey, job: Job) => {
    tally.onPool++;
    poolSign(key, job.payload).then(job.resolve, job.reject);
  };
  const viaPool = (batch: Batch) => {
    for (const job of batch.jobs) onPool(batch.key, job);
  };

  /** Lets the current thread go: what it holds is signed on the pool, and the next thread gets every key again. */
  function release() {
    worker = null;
    sent.clear();
    const held = [...posted.values()];
    posted.clear();
    for (const batch of held) viaPool(batch);
  }

  function fail(thread: Worker) {
    if (worker !== thread) return;
    failedAt = now();
    release();
  }

  function start(): Worker {
    const thread = newWorker(THREAD_SOURCE);
    thread.unref();
    thread.on('message', (m: { id: number; tokens: (string | null)[] }) => {
      const batch = posted.get(m.id);
      if (!batch) return;
      posted.delete(m.id);
      batch.jobs.forEach((job, i) => {
        const token = m.tokens[i];
        // A key the thread could not use: the pool says why (or signs).
        if (typeof token === 'string') job.resolve(token);
        else onPool(batch.key, job);
      });
    });
    thread.on('error', () => fail(thread));
    thread.on('exit', () => fail(thread));
    return thread;
  }

  /** Posts one batch to the thread (started again when it may be), or hands it to the pool. */
  function post(batch: Batch) {
    if (!worker && now() - failedAt >= RETRY_AFTER_MS) {
      // A thread that cannot even be made: the pool signs, this batch too (a full batch is posted
      // from inside a caller's sign(), where a throw would strand the batch's other tokens).
      try {
        worker = start();
      } catch {
        failedAt = now();
      }
    }
    const thread = worker;
    if (!thread) {
      viaPool(batch);
      return;
    }
    try {
      const { kid, key, header } = batch.key;
      if (sent.get(kid) !== key) {
        sent.delete(kid);
        thread.postMessage({ type: 'key', kid, key, header });
        sent.set(kid, key);
        for (const old of sent.keys()) {
          if (sent.size <= KEYS_KEPT) break;
          sent.delete(old);
          thread.postMessage({ type: 'drop', kid: old });
        }
      }
      const id = nextId++;
      thread.postMessage({ type: 'sign', id, kid, payloads: batch.jobs.map((j) => j.payload) });
      posted.set(id, batch);
      tally.batches++;
      tally.tokens += batch.jobs.length;
    } catch {
      // A message the thread could not be given (it is ending): the pool signs.
      sent.clear();
      viaPool(batch);
    }
  }

  /** The check phase: what the turn gathered and did not post yet. */
  function flush() {
    const batches = gathering!;
    gathering = null;
    for (const batch of batches.values()) post(batch);
  }

  return {
    sign(key, payload) {
      return new Promise<string>((resolve, reject) => {
        if (!gathering) {
          gathering = new Map();
          setImmediate(flush);
        }
        let batch = gathering.get(key.key);
        if (!batch) {
          batch = { key, jobs: [] };
          gathering.set(key.key, batch);
        }
        batch.jobs.push({ payload, resolve, reject });
        if (batch.jobs.length >= BATCH_MAX) {
          gathering.delete(key.key);
          post(batch);
        }
      });
    },
    async close() {
      const thread = worker;
      if (!thread) return;
      release();
      await thread.terminate();
    },
    counts: () => ({ ...tally }),
  };
}
