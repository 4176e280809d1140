/**
 * Two outputs: the stage-1 loader (`gatehouse.js`, a classic IIFE script defining `Gatehouse`)
 * and the stage-2 runtime (`runtime.js`, an ES module). Select with `GATEHOUSE_TARGET`.
 * The runtime is built as an app entry, not in lib mode: lib-mode ES output keeps whitespace.
 */
import { defineConfig } from 'vite';
import { resolve } from 'node:path';
import { ASSET_VERSION, bundleBuild, lazyImportGate, resolveConditions } from '../vite.config.ts';

const target = process.env.GATEHOUSE_TARGET === 'runtime' ? 'runtime' : 'loader';
const outDir = resolve(import.meta.dirname, '../dist/cdn', target, ASSET_VERSION);

export default defineConfig({
  // Relative: the runtime's lazy chunks are found next to it, wherever the CDN serves it from.
  base: './',
  plugins: [lazyImportGate()],
  resolve: { conditions: resolveConditions },
  define: {
    'process.env.NODE_ENV': '"production"',
    // Module federation's documented build-time switches: a browser-only runtime (no Node script
    // loading) without the snapshot plugin, which only serves manifest (mf-manifest.json) remotes;
    // ours are remoteEntry.js modules. About 2.5 KB less over the wire.
    ENV_TARGET: '"web"',
    FEDERATION_OPTIMIZE_NO_SNAPSHOT_PLUGIN: 'true',
    FEDERATION_DEBUG: 'false',
  },
  build:
    target === 'loader'
      ? { ...bundleBuild(outDir), lib: { entry: resolve(import.meta.dirname, 'src/entry.ts'), formats: ['iife'], name: 'Gatehouse', fileName: () => 'gatehouse.js' } }
      : {
          ...bundleBuild(outDir),
          rollupOptions: {
            input: resolve(import.meta.dirname, 'src/runtime/index.ts'),
            preserveEntrySignatures: 'allow-extension',
            output: { format: 'es', entryFileNames: 'runtime.js', chunkFileNames: 'assets/[name]-[hash].js' },
          },
        },
});
