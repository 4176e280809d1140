import { createHook } from 'node:async_hooks';

/**
 * Runs `work` and reports the node:crypto sign and verify jobs it made (async_hooks type SIGNREQUEST,
 * the same for both), and which of them called back into the event loop: only jobs of the callback
 * form, which run on libuv's thread pool, do. The synchronous form makes a job that never calls back.
 */
export async function signJobsDuring<T>(work: () => Promise<T>): Promise<{ result: T; jobs: Set<number>; calledBack: Set<number> }> {
  const jobs = new Set<number>();
  const calledBack = new Set<number>();
  const hook = createHook({
    init: (id, type) => void (type === 'SIGNREQUEST' && jobs.add(id)),
    before: (id) => void (jobs.has(id) && calledBack.add(id)),
  }).enable();
  try {
    return { result: await work(), jobs, calledBack };
  } finally {
    hook.disable();
  }
}
