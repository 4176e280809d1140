import { defineConfig } from 'vitest/config';
import { resolve } from 'node:path';

/**
 * Test files that still need a fresh module graph each (the `loader-isolated` project,
 * vitest.isolated.config.ts): run after another file in the same worker, they fail (globals such
 * as fetch or the lazy-import gate stubbed and module state left by a file run before). The rest
 * keep their modules loaded between files (isolate: false): a file restores the globals it changes
 * and keeps no state in modules.
 */
export const isolatedLoaderFiles = [
  'loader/src/assets.test.ts',
  'loader/src/gatehouse.test.ts',
  'loader/src/gatehouse.checkout.test.ts',
  'loader/src/gatehouse.entitlements.test.ts',
  'loader/src/gatehouse.versions.test.ts',
  'loader/src/runtime/lazy-lists.test.ts',
];

export default defineConfig({
  resolve: { conditions: ['dev-source', 'browser'] },
  test: {
    name: 'loader',
    include: ['loader/src/**/*.test.ts'],
    exclude: isolatedLoaderFiles,
    root: resolve(import.meta.dirname, '..'),
    environment: 'happy-dom',
    isolate: false,
  },
});
