import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  resolve: { conditions: ['dev-source', 'browser'] },
  test: {
    name: 'admin-portal',
    root: new URL('.', import.meta.url).pathname,
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup-i18n.ts'],
    // Process CSS so `styles.css?inline` yields the real stylesheet in tests.
    css: { include: [/\.css(\?|$)/] },
    // As in shared/vitest.config.ts: modules stay loaded between files, so a file keeps no state in them.
    isolate: false,
  },
});
