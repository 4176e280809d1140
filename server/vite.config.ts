import { builtinModules } from 'node:module';
import { defineConfig } from 'vite';

/**
 * Server build: one ESM file, dist/main.js. @gatehouse/shared is bundled from source (dev-source
 * condition); every other package stays an external import resolved from node_modules at run time.
 */
export default defineConfig({
  root: import.meta.dirname,
  resolve: { conditions: ['dev-source'] },
  ssr: {
    resolve: { conditions: ['dev-source'], externalConditions: ['node'] },
    noExternal: [/^@gatehouse\//],
    external: [],
  },
  build: {
    ssr: 'src/main.ts',
    outDir: 'dist',
    target: 'node20',
    emptyOutDir: true,
    sourcemap: true,
    rollupOptions: {
      external: (id) => id.startsWith('node:') || builtinModules.includes(id) || (!id.startsWith('.') && !id.startsWith('/') && !id.startsWith('@gatehouse/') && !id.startsWith('\0')),
      output: { entryFileNames: 'main.js', format: 'es' },
    },
  },
});
