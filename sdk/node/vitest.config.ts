import { defineConfig } from 'vitest/config';

/**
 * @gatehouse/node tests. The proxy's tests run against a real Gatehouse server over HTTP, so the
 * server's global setup (its migrated template databases) runs for this project too.
 */
export default defineConfig({
  root: import.meta.dirname,
  resolve: { conditions: ['dev-source'] },
  ssr: { resolve: { conditions: ['dev-source'] } },
  test: {
    name: 'sdk-node',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    globalSetup: ['../../server/src/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
