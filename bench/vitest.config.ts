import { defineConfig } from 'vitest/config';
import { resolve } from 'node:path';

// `npm run budgets`: DESIGN.md's bundle budgets, measured in Chromium against the built server.
export default defineConfig({
  resolve: { conditions: ['dev-source'] },
  ssr: { resolve: { conditions: ['dev-source'] } },
  test: { name: 'budgets', include: ['bench/budgets.test.ts'], root: resolve(import.meta.dirname, '..'), environment: 'node', testTimeout: 90_000, hookTimeout: 60_000 },
});
