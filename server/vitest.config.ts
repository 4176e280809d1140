import { defineConfig } from 'vitest/config';

/** Server tests: routes over HTTP against real databases (SQLite, and PostgreSQL when DATABASE_URL is set). */
export default defineConfig({
  root: import.meta.dirname,
  resolve: { conditions: ['dev-source'] },
  ssr: { resolve: { conditions: ['dev-source'] } },
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    globalSetup: ['src/test/global-setup.ts'],
    // Fixture passwords hashed with a cheaper argon2id: the production cost was about a third of the
    // route suites' time (the production parameters are proven in services/platform/passwords.test.ts).
    setupFiles: ['src/test/password-cost.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file builds its own servers and databases and keeps no state in modules, so a worker
    // reuses the loaded module graph across files: importing the app for each of ~70 files took
    // more than a third of the suite's time.
    isolate: false,
  },
});
