import { afterEach, describe, expect, it, vi } from 'vitest';
import { withRefreshLock } from './refresh-lock';

/** A minimal in-memory implementation of the Web Locks queueing semantics for one lock name. */
function fakeLocks() {
  const queues = new Map<string, Promise<unknown>>();
  return {
    request: (name: string, run: () => Promise<unknown>) => {
      const previous = queues.get(name) ?? Promise.resolve();
      const next = previous.then(run, run);
      queues.set(name, next.catch(() => undefined));
      return next;
    },
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('withRefreshLock', () => {
  it('runs refreshes for the same server one after another, never overlapping', async () => {
    vi.stubGlobal('navigator', { locks: fakeLocks() });
    const events: string[] = [];
    const refresh = (id: string) => async () => {
      events.push(`start ${id}`);
      await new Promise((r) => setTimeout(r, 5));
      events.push(`end ${id}`);
      return id;
    };
    const results = await Promise.all([withRefreshLock('https://id.example', refresh('a')), withRefreshLock('https://id.example', refresh('b'))]);
    expect(results).toEqual(['a', 'b']);
    expect(events).toEqual(['start a', 'end a', 'start b', 'end b']);
  });

  it('still refreshes where Web Locks are unavailable', async () => {
    vi.stubGlobal('navigator', {});
    await expect(withRefreshLock('https://id.example', async () => 42)).resolves.toBe(42);
  });
});
