import { defineConfig } from 'vitest/config';
import { resolve } from 'node:path';

// The scale checks (bench/users-scale.test.ts, bench/audits-scale.test.ts): slow, so not part of `npm test` or `npm run budgets`.
// --expose-gc: the audits export check measures what stays live after a full GC.
export default defineConfig({
  resolve: { conditions: ['dev-source'] },
  ssr: { resolve: { conditions: ['dev-source'] } },
  test: { name: 'users-scale', include: ['bench/users-scale.test.ts', 'bench/audits-scale.test.ts'], root: resolve(import.meta.dirname, '..'), environment: 'node', globalSetup: ['server/src/test/global-setup.ts'], testTimeout: 1_800_000, hookTimeout: 120_000, maxWorkers: 1, execArgv: ['--expose-gc'] },
});
