import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/**
 * Test files that still need a fresh module graph each (the `login-box-isolated` project,
 * vitest.isolated.config.ts): run after another file in the same worker, they fail (the lazily
 * loaded steps and stylesheets, and the WebAuthn and SSO stubs, keep module state between files).
 * The rest keep their modules loaded between files (isolate: false): a file restores the globals
 * it changes and keeps no state in modules.
 */
export const isolatedLoginBoxFiles = [
  'src/lazy-step.test.tsx',
  'src/screens/mfa/factors/factors.test.tsx',
  'src/screens/passkeys/passkeys.test.tsx',
  'src/screens/sso/sso.test.tsx',
];

export default defineConfig({
  plugins: [react()],
  resolve: { conditions: ['dev-source', 'browser'] },
  test: {
    name: 'login-box',
    root: import.meta.dirname,
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    exclude: isolatedLoginBoxFiles,
    isolate: false,
  },
});
