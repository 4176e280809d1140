import { defineConfig } from 'vitest/config';
import { resolve } from 'node:path';

export default defineConfig({
  resolve: { conditions: ['dev-source', 'browser'] },
  test: { name: 'loader', include: ['loader/src/**/*.test.ts'], root: resolve(import.meta.dirname, '..'), environment: 'happy-dom' },
});
