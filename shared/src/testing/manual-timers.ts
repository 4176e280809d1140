/** Deterministic timers and clock for flow tests: time moves only through `advance`. */
import type { Timers } from '../auth/timers';

/** Lets pending promise chains (fetch stubs, ky, the flows) run to their next timer or end. */
export async function flush(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

export function createManualTimers(start = 1_700_000_000_000) {
  let current = start;
  let nextId = 1;
  const queue = new Map<number, { at: number; callback: () => void }>();
  const timers: Timers = {
    setTimeout(callback, ms) {
      const id = nextId++;
      queue.set(id, { at: current + ms, callback });
      return id;
    },
    clearTimeout(handle) {
      queue.delete(handle as number);
    },
  };
  return {
    timers,
    now: () => current,
    pending: () => queue.size,
    delays: () => [...queue.values()].map((t) => t.at - current),
    /** Moves time forward, firing due timers in order and letting promises settle in between. */
    async advance(ms: number): Promise<void> {
      const target = current + ms;
      for (;;) {
        await flush();
        const due = [...queue.entries()].filter(([, t]) => t.at <= target).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        queue.delete(due[0]);
        current = due[1].at;
        due[1].callback();
      }
      current = target;
      await flush();
    },
  };
}
