/**
 * Shared build settings for the browser bundles, and the Vitest projects list (`npx vitest run`).
 */
import { defineConfig, type UserConfig } from 'vite';

/** Version every bundle is built as; `cdn-manifest.json` decides which one is live. */
export const ASSET_VERSION = '7.78.0';

/** Build settings every browser bundle shares: modern target, no modulepreload polyfill, minified. */
export function bundleBuild(outDir: string): UserConfig['build'] {
  return {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: false,
    minify: true,
    sourcemap: false,
    reportCompressedSize: false,
  };
}

/** Source (not build output) for workspace packages, in tests and builds alike. */
export const resolveConditions = ['dev-source', 'browser', 'module', 'import', 'default'];

export default defineConfig({
  test: {
    projects: ['shared/vitest.config.ts', 'login-box/vitest.config.ts', 'admin-portal/vitest.config.ts', 'loader/vitest.config.ts', 'server/vitest.config.ts'],
  },
});
