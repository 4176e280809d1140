import { defineConfig } from 'vitest/config';
import { resolve } from 'node:path';

// The JWT verification bench (bench/jwt-verify.test.ts): one worker, so the two sides share one core; not part of `npm test`.
export default defineConfig({
  resolve: { conditions: ['dev-source'] },
  ssr: { resolve: { conditions: ['dev-source'] } },
  test: {
    name: 'jwt-verify',
    include: ['bench/jwt-verify.test.ts'],
    root: resolve(import.meta.dirname, '..'),
    environment: 'node',
    globalSetup: ['server/src/test/global-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    maxWorkers: 1,
  },
});
