import { defineConfig } from 'vitest/config';
import { resolve } from 'node:path';
import { isolatedLoaderFiles } from './vitest.config';

/** The loader's test files that still run each in a fresh module graph (see vitest.config.ts). */
export default defineConfig({
  resolve: { conditions: ['dev-source', 'browser'] },
  test: { name: 'loader-isolated', include: isolatedLoaderFiles, root: resolve(import.meta.dirname, '..'), environment: 'happy-dom' },
});
