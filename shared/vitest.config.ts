import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['dev-source', 'browser'] },
  test: {
    name: 'shared',
    root: import.meta.dirname,
    environment: 'node',
    include: ['src/**/*.test.ts'],
  },
});
