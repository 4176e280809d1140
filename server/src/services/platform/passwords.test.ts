import { afterEach, describe, expect, it } from 'vitest';
import { ARGON2_CONCURRENCY, ARGON2_PARAMETERS, argon2Jobs, hashPassword, setPasswordHashCostForTests, verifyPassword } from './passwords';

/** The parameters an encoded argon2 hash records: `$argon2id$v=19$m=…,t=…,p=…$salt$hash`. */
function parametersOf(encoded: string): string {
  const match = /^\$(argon2id)\$v=19\$(m=\d+,t=\d+,p=\d+)\$/.exec(encoded);
  if (!match) throw new Error(`not an argon2id hash: ${encoded}`);
  return match[2]!;
}

describe('password hashing cost', () => {
  afterEach(() => setPasswordHashCostForTests('test'));

  it('hashes with the OWASP argon2id parameters (m=19 MiB, t=2, p=1) in a process that never lowered them', async () => {
    // A second instance of the module (another id for the module runner), as the built server loads
    // it: the test setup file lowered the cost of the first one only.
    const fresh = (await import(/* @vite-ignore */ `./passwords?${'fresh'}`)) as typeof import('./passwords');
    expect(fresh.hashPassword).not.toBe(hashPassword);
    const encoded = await fresh.hashPassword('correct horse battery');
    expect(parametersOf(encoded)).toBe('m=19456,t=2,p=1');
    expect(ARGON2_PARAMETERS).toEqual({ algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 });
    expect(await fresh.verifyPassword(encoded, 'correct horse battery')).toBe(true);
    expect(await fresh.verifyPassword(encoded, 'correct horse battery!')).toBe(false);
  });

  it('hashes with the production parameters again once a test switches back to them', async () => {
    setPasswordHashCostForTests('production');
    expect(parametersOf(await hashPassword('correct horse battery'))).toBe('m=19456,t=2,p=1');
  });

  it("the server's test suites hash with a cheaper but real argon2id, and a hash of either cost verifies", async () => {
    const cheap = await hashPassword('correct horse battery');
    expect(parametersOf(cheap)).toBe('m=1024,t=1,p=1');
    setPasswordHashCostForTests('production');
    const full = await hashPassword('correct horse battery');
    setPasswordHashCostForTests('test');
    expect(await verifyPassword(full, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(cheap, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(cheap, 'wrong horse battery')).toBe(false);
  });

  it('refuses to lower the cost outside a Vitest worker, so no configuration can', () => {
    const vitest = process.env.VITEST;
    delete process.env.VITEST;
    try {
      expect(() => setPasswordHashCostForTests('test')).toThrow(/test suites only/);
    } finally {
      process.env.VITEST = vitest;
    }
  });

  // Hashes run on libuv's thread pool (4 threads unless UV_THREADPOOL_SIZE says otherwise), and so do
  // token signatures (keys.ts). With all 8 hashes on the pool at once, a signature asked for after
  // them ended after the first hash (3 runs of 3 on this machine); with the limit, before any. That
  // order is not asserted: on a loaded machine a thread may wait for a core.
  it('runs at most ARGON2_CONCURRENCY hashes on the pool (one thread less than it has) and queues the rest in order', async () => {
    setPasswordHashCostForTests('production'); // tens of milliseconds per hash
    const stored = await hashPassword('correct horse battery');
    const order: number[] = [];
    const seen: { running: number; queued: number }[] = [];
    const hashes = Array.from({ length: 8 }, (_, i) =>
      (i % 2 ? hashPassword(`password ${i}`) : verifyPassword(stored, `guess ${i}`)).then(() => {
        order.push(i);
        seen.push(argon2Jobs());
      }),
    );
    expect(argon2Jobs()).toEqual({ running: ARGON2_CONCURRENCY, queued: 8 - ARGON2_CONCURRENCY });
    expect(ARGON2_CONCURRENCY).toBeLessThan(Number(process.env.UV_THREADPOOL_SIZE) || 4);
    await Promise.all(hashes);
    expect(seen.every((s) => s.running <= ARGON2_CONCURRENCY)).toBe(true);
    expect(argon2Jobs()).toEqual({ running: 0, queued: 0 });
    // Queued jobs start first come, first served: the last one asked for is among the last to end.
    expect(order.indexOf(7)).toBeGreaterThanOrEqual(8 - ARGON2_CONCURRENCY);
  });

  it('a hash that fails frees its slot: the hashes queued behind it still run', async () => {
    const results = await Promise.all(Array.from({ length: ARGON2_CONCURRENCY * 3 }, (_, i) => verifyPassword(i % 2 ? 'not an argon2 hash' : null, 'anything')));
    expect(results).toEqual(Array.from({ length: ARGON2_CONCURRENCY * 3 }, () => false));
    expect(parametersOf(await hashPassword('correct horse battery'))).toBe('m=1024,t=1,p=1');
  });
});
