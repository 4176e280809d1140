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
    fileParallelism: false,
  },
});
