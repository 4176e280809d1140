import { defineConfig } from 'vitest/config';
import { resolve } from 'node:path';

// End-to-end tests: the built server and bundles in Debian's Chromium. Run after `npm run build`.
// Files run in parallel: each starts its own server (own SQLite data directory, own port) and its
// own browser, so they share nothing. Most of their time is spent waiting (timers of the seed's
// redirect delays, TOTP time steps), so three workers keep two cores busy.
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
    fileParallelism: true,
    // E2E_WORKERS to try another count: 5 measured slower than 3 on 2 cores (CPU-bound by then).
    maxWorkers: Number(process.env.E2E_WORKERS ?? 3),
    // No module state is kept between files (each builds its own server and browser in beforeAll),
    // so a worker keeps playwright and the helpers loaded instead of importing them per file.
    isolate: false,
  },
});
