import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { isolatedLoginBoxFiles } from './vitest.config';

/** The login box's test files that still run each in a fresh module graph (see vitest.config.ts). */
export default defineConfig({
  plugins: [react()],
  resolve: { conditions: ['dev-source', 'browser'] },
  test: { name: 'login-box-isolated', root: import.meta.dirname, environment: 'happy-dom', include: isolatedLoginBoxFiles },
});
