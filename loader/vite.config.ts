/**
 * Two outputs: the stage-1 loader (`gatehouse.js`, a classic IIFE script defining `Gatehouse`)
 * and the stage-2 runtime (`runtime.js`, an ES module). Select with `GATEHOUSE_TARGET`.
 * The runtime is built as an app entry, not in lib mode: lib-mode ES output keeps whitespace.
 */
import { defineConfig, type Plugin } from 'vite';
import { resolve } from 'node:path';
import { ASSET_VERSION, bundleBuild, lazyImportGate, resolveConditions } from '../vite.config.ts';

/**
 * Federation's snapshot handler serves only manifest (mf-manifest.json) remotes, `preloadRemote`
 * and re-registering a remote with `force`; the runtime uses none of them (remoteEntry.js remotes,
 * registered once, federation.ts), and the snapshot plugin is already switched off below. The
 * runtime still constructs the handler, so the build puts the library's own disabled handler in its
 * place (about 2 KB less before the login form): the same hooks object plugins register on, and the
 * manifest cache a forced re-registration would clear.
 */
function withoutFederationSnapshots(): Plugin {
  const id = '\0gatehouse/no-snapshot-handler.js';
  let disabledHandler = '';
  return {
    name: 'gatehouse-no-federation-snapshots',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer?.includes('@module-federation/runtime-core') || !source.endsWith('/plugins/snapshot/SnapshotHandler.js')) return null;
      // The package's exports map hides its files: the disabled handler is found beside the one it replaces.
      disabledHandler = resolve(importer, '..', source.replace('SnapshotHandler.js', 'disabled.js'));
      return id;
    },
    load: (loaded) =>
      loaded === id
        ? `import { DisabledSnapshotHandler } from ${JSON.stringify(disabledHandler)};
export class SnapshotHandler extends DisabledSnapshotHandler { manifestCache = new Map(); }
export const getGlobalRemoteInfo = () => ({});`
        : null,
  };
}

const target = process.env.GATEHOUSE_TARGET === 'runtime' ? 'runtime' : 'loader';
const outDir = resolve(import.meta.dirname, '../dist/cdn', target, ASSET_VERSION);

export default defineConfig({
  // Relative: the runtime's lazy chunks are found next to it, wherever the CDN serves it from.
  base: './',
  plugins: [lazyImportGate(), withoutFederationSnapshots()],
  resolve: { conditions: resolveConditions },
  define: {
    'process.env.NODE_ENV': '"production"',
    // Module federation's documented build-time switches: a browser-only runtime (no Node script
    // loading) without the snapshot plugin, which only serves manifest (mf-manifest.json) remotes;
    // ours are remoteEntry.js modules. About 2.5 KB less over the wire.
    ENV_TARGET: '"web"',
    FEDERATION_OPTIMIZE_NO_SNAPSHOT_PLUGIN: 'true',
    // Remotes and shared modules are both used: said so at build time, the disabled stand-ins drop out.
    FEDERATION_OPTIMIZE_NO_REMOTE: 'false',
    FEDERATION_OPTIMIZE_NO_SHARED: 'false',
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
