/** Injectable timers so the flows' delays can be driven deterministically in tests. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The platform's timers. */
export const systemTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};

/** Timers that remember what is pending, so `dispose` can cancel all of it. */
/** Timers that remember what they scheduled, so dispose() can cancel everything. */
export type TrackedTimers = ReturnType<typeof createTrackedTimers>;

export function createTrackedTimers(timers: Timers) {
  const pending = new Map<unknown, () => void>();
  return {
    after(ms: number, callback: () => void): unknown {
      const handle = timers.setTimeout(() => {
        pending.delete(handle);
        callback();
      }, ms);
      pending.set(handle, callback);
      return handle;
    },
    cancel(handle: unknown): void {
      if (handle === undefined || handle === null) return;
      timers.clearTimeout(handle);
      pending.delete(handle);
    },
    /** A promise resolved after `ms`; rejected-free, never settles once cancelled by `cancelAll`. */
    sleep(ms: number): Promise<void> {
      return new Promise((resolve) => this.after(ms, resolve));
    },
    cancelAll(): void {
      for (const handle of pending.keys()) timers.clearTimeout(handle);
      pending.clear();
    },
    get size(): number {
      return pending.size;
    },
  };
}
