/**
 * The unread count as server-sent events (issue 16 "Delivered without polling faster than once a
 * minute, or by server-sent events"). Per connection: the count on connect, then again whenever it
 * changes — woken at once by a change this process made (notificationChanges), and by a database
 * check every `checkMs` for changes other processes made. A comment line every `heartbeatMs` keeps
 * proxies from closing an idle stream. A stream ends when the client goes, after `lifetimeMs` (the
 * client reconnects, with a fresh token and the permissions it has then), or when the same user
 * opens more than MAX_NOTIFICATION_STREAMS_PER_USER (the oldest is closed).
 */
import { MAX_NOTIFICATION_STREAMS_PER_USER, NotificationStreamEvents } from '@gatehouse/shared/wire';
import type { Db } from '../../db';
import { log } from '../../log';
import { notificationChanges, unreadCount, type NotificationReader } from './notifications';

export interface NotificationStreamOptions {
  /** Database check for changes made by other server processes. */
  checkMs: number;
  heartbeatMs: number;
  /** A stream ends after this; the client reconnects. */
  lifetimeMs: number;
}

export const DEFAULT_STREAM_OPTIONS: NotificationStreamOptions = { checkMs: 5_000, heartbeatMs: 25_000, lifetimeMs: 10 * 60_000 };
/** The second look after an in-process change signal (it may come before its transaction commits). */
const RECHECK_MS = 300;
/** What a client's EventSource-style reconnect waits, sent as the stream's `retry:`. */
const RECONNECT_MS = 5_000;

/** Open streams per user, oldest first: the closers of each. */
const openStreams = new Map<string, Array<() => void>>();

/** How many streams a user holds open in this process (tests). */
export function openStreamCount(userId: string): number {
  return openStreams.get(userId)?.length ?? 0;
}

const encoder = new TextEncoder();

function unreadEvent(unread: number): string {
  return `event: ${NotificationStreamEvents.unread}\ndata: ${JSON.stringify({ unread })}\n\n`;
}

/**
 * The stream's response. `live` false (a client that did not ask for text/event-stream): the first
 * event, then the end — never a response that hangs a plain HTTP client.
 */
export function openNotificationStream(input: { db: Db; reader: NotificationReader; signal: AbortSignal; live: boolean } & Partial<NotificationStreamOptions>): Response {
  const { db, reader, signal, live } = input;
  const options = { ...DEFAULT_STREAM_OPTIONS, ...Object.fromEntries(Object.entries(input).filter(([k, v]) => k in DEFAULT_STREAM_OPTIONS && typeof v === 'number')) } as NotificationStreamOptions;
  const headers = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' };

  let cleanup = () => {};
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      let last = -1;
      let checking: Promise<void> | null = null;
      let again = false;
      const timers: NodeJS.Timeout[] = [];
      const send = (chunk: string) => {
        if (!closed) controller.enqueue(encoder.encode(chunk));
      };
      const close = () => {
        if (closed) return;
        closed = true;
        cleanup();
        try {
          controller.close();
        } catch {
          // Already closed or cancelled by the client.
        }
      };
      const check = async (): Promise<void> => {
        if (checking) {
          again = true;
          return checking;
        }
        checking = (async () => {
          do {
            again = false;
            const unread = await unreadCount(db, reader);
            if (unread !== last && !closed) {
              last = unread;
              send(unreadEvent(unread));
            }
          } while (again && !closed);
        })()
          .catch((err: unknown) => {
            log.warn('notification stream: unread check failed', { reason: err instanceof Error ? err.message : String(err) });
          })
          .finally(() => {
            checking = null;
          });
        return checking;
      };

      send(`retry: ${RECONNECT_MS}\n\n`);
      await check();
      if (!live) return close();

      // A change signalled from inside a transaction may not have committed yet: check at once, and
      // once more shortly after, so the count never waits for the periodic check.
      let recheck: NodeJS.Timeout | undefined;
      const onChange = () => {
        void check();
        if (recheck) return;
        recheck = setTimeout(() => {
          recheck = undefined;
          void check();
        }, RECHECK_MS).unref();
      };
      const unsubscribe = notificationChanges.subscribe(reader.tenantId, onChange);
      const mine = openStreams.get(reader.userId) ?? [];
      openStreams.set(reader.userId, mine);
      mine.push(close);
      cleanup = () => {
        unsubscribe();
        for (const t of timers) clearInterval(t);
        clearTimeout(recheck);
        const i = mine.indexOf(close);
        if (i >= 0) mine.splice(i, 1);
        if (mine.length === 0 && openStreams.get(reader.userId) === mine) openStreams.delete(reader.userId);
        signal.removeEventListener('abort', close);
      };
      while (mine.length > MAX_NOTIFICATION_STREAMS_PER_USER) mine[0]!();
      timers.push(setInterval(() => void check(), options.checkMs).unref());
      timers.push(setInterval(() => send(': keep-alive\n\n'), options.heartbeatMs).unref());
      timers.push(setTimeout(close, options.lifetimeMs).unref());
      if (signal.aborted) close();
      else signal.addEventListener('abort', close, { once: true });
    },
    cancel() {
      cleanup();
      cleanup = () => {};
    },
  });
  return new Response(body, { status: 200, headers });
}
