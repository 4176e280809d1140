import { defineConfig } from 'vitest/config';
import { resolve } from 'node:path';

// The whole API fuzzed by schemathesis (a pinned PyPI peer in .peers/python) against the built
// server. Run after `npm run build` and `bash scripts/test-bench/peers.sh`.
export default defineConfig({
  resolve: { conditions: ['dev-source'] },
  ssr: { resolve: { conditions: ['dev-source'] } },
  test: {
    name: 'api-fuzz',
    include: ['e2e/api-fuzz/**/*.fuzz.test.ts'],
    root: resolve(import.meta.dirname, '../..'),
    environment: 'node',
    testTimeout: 420_000,
    hookTimeout: 60_000,
  },
});
