import { defineConfig } from 'vitest/config';

/** Standalone config until the root vitest projects list includes `server`. */
export default defineConfig({
  root: import.meta.dirname,
  resolve: { conditions: ['dev-source'] },
  ssr: { resolve: { conditions: ['dev-source'] } },
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
