import { defineConfig } from 'vitest/config';
import { resolve } from 'node:path';

// End-to-end tests: the built server and bundles in Debian's Chromium. Run after `npm run build`.
export default defineConfig({
  resolve: { conditions: ['dev-source'] },
  ssr: { resolve: { conditions: ['dev-source'] } },
  test: {
    name: 'e2e',
    include: ['e2e/**/*.e2e.test.ts'],
    root: resolve(import.meta.dirname, '..'),
    environment: 'node',
    testTimeout: 90_000,
    hookTimeout: 60_000,
    // Two files at a time: each starts its own server (free loopback port, own data dir) and Chromium,
    // and mostly waits on them, so two keep a 2-core machine busy without starving either.
    maxWorkers: 2,
  },
});
