/**
 * The bell's unread count, framework-free (subscribe/snapshot; React reads it with
 * useSyncExternalStore). It holds the server-sent event stream open through the portal's API client
 * (a fetch with the bearer token: EventSource cannot send one). When the stream fails, or ends
 * sooner than a minute after it opened, it asks the list for the count and tries the stream again a
 * minute later: never more than once a minute (issue 16).
 */
import { NOTIFICATIONS_POLL_MS } from '@gatehouse/shared/admin-paths';
import type { NotificationsApi } from './notifications-api';

export interface UnreadFeed {
  subscribe(listener: () => void): () => void;
  /** The unread count, or null before the first answer. */
  snapshot(): number | null;
  /** Sets the count from an answer the caller already has (the panel's actions answer it). */
  set(unread: number): void;
  start(): void;
  stop(): void;
}

export interface UnreadFeedOptions {
  pollMs?: number;
  /** Wait before reopening a stream the server ended normally after a long life. */
  reconnectMs?: number;
}

/** Reads `event: unread` payloads from a server-sent event stream, calling `onUnread` for each. */
export async function readUnreadEvents(stream: ReadableStream<Uint8Array>, onUnread: (unread: number) => void, signal: { stopped: boolean; reader?: ReadableStreamDefaultReader<Uint8Array> }): Promise<void> {
  const reader = stream.getReader();
  signal.reader = reader;
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done || signal.stopped) return;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf('\n\n');
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event:'))?.slice(6).trim();
      const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n');
      if (event !== 'unread' || !data) continue;
      try {
        const unread = (JSON.parse(data) as { unread?: unknown }).unread;
        if (typeof unread === 'number' && Number.isInteger(unread) && unread >= 0) onUnread(unread);
      } catch {
        // A malformed event is skipped; the next one carries the count again.
      }
    }
  }
}

export function createUnreadFeed(api: NotificationsApi, options: UnreadFeedOptions = {}): UnreadFeed {
  const pollMs = options.pollMs ?? NOTIFICATIONS_POLL_MS;
  const reconnectMs = options.reconnectMs ?? 5_000;
  const listeners = new Set<() => void>();
  let unread: number | null = null;
  let running = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let current: { stopped: boolean; reader?: ReadableStreamDefaultReader<Uint8Array> } | null = null;

  const set = (value: number) => {
    if (value === unread) return;
    unread = value;
    for (const listener of listeners) listener();
  };

  const poll = async () => {
    try {
      set((await api.list(0, 1)).unread);
    } catch {
      // Offline or signed out: the count stays as it was until the next minute.
    }
  };

  const open = async () => {
    if (!running) return;
    const connection = { stopped: false } as { stopped: boolean; reader?: ReadableStreamDefaultReader<Uint8Array> };
    current = connection;
    const openedAt = Date.now();
    let failed = false;
    try {
      await readUnreadEvents(await api.stream(), set, connection);
    } catch {
      failed = true;
    }
    if (!running || connection.stopped) return;
    const lived = Date.now() - openedAt;
    if (failed || lived < pollMs) {
      if (failed) await poll();
      timer = setTimeout(() => void open(), pollMs);
    } else {
      timer = setTimeout(() => void open(), reconnectMs);
    }
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    snapshot: () => unread,
    set,
    start() {
      if (running) return;
      running = true;
      void open();
    },
    stop() {
      running = false;
      clearTimeout(timer);
      if (current) {
        current.stopped = true;
        void current.reader?.cancel().catch(() => undefined);
        current = null;
      }
    },
  };
}
