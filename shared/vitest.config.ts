import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['dev-source', 'browser'] },
  test: {
    name: 'shared',
    root: import.meta.dirname,
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // A worker keeps the loaded modules between files instead of importing them again for each of
    // them (isolated, the shared and checkout projects took 2.5x the CPU time). So a test file
    // restores what it changes (globals, stubs, timers) and keeps no state in modules.
    isolate: false,
  },
});
