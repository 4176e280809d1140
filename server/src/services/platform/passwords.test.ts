import { afterEach, describe, expect, it } from 'vitest';
import { ARGON2_PARAMETERS, hashPassword, setPasswordHashCostForTests, verifyPassword } from './passwords';

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
});
