/** Builds the admin-portal as a module-federation remote exposing `./mount` (single-spa parcel lifecycles). */
import { defineConfig } from 'vite';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { federation } from '@module-federation/vite';
import { ASSET_VERSION, bundleBuild, resolveConditions } from '../vite.config.ts';

// Provided by the runtime (loader stage 2) as singletons; never bundled into the remote.
const hostOnly = { singleton: true, import: false as const, suppressMissingImportWarning: true };

export default defineConfig({
  root: import.meta.dirname,
  base: './',
  resolve: { conditions: resolveConditions },
  define: { 'process.env.NODE_ENV': '"production"' },
  plugins: [
    react(),
    federation({
      name: 'gatehouse_admin_portal',
      filename: 'remoteEntry.js',
      manifest: false,
      dts: false,
      exposes: { './mount': './src/mount.tsx' },
      shared: {
        react: hostOnly,
        'react/jsx-runtime': hostOnly,
        'react-dom': hostOnly,
        'react-dom/client': hostOnly,
        '@gatehouse/shared': hostOnly,
      },
      experiments: { externalRuntime: true },
    }),
  ],
  build: { ...bundleBuild(resolve(import.meta.dirname, '../dist/cdn/admin-portal', ASSET_VERSION)), rollupOptions: { input: {} } },
});
