import { builtinModules } from 'node:module';
import { defineConfig } from 'vite';

/**
 * Server build: one ESM file, dist/main.js. @gatehouse/shared is bundled from source (dev-source
 * condition), and so are kysely and zod with the packages that import zod: their ESM builds are
 * hundreds of small files, whose loading took ~0.35 s of every start. zod is bundled together with
 * every package that imports it, so there is one copy (one schema registry). Every other package
 * stays an external import resolved from node_modules at run time.
 */
const BUNDLED = /^(@gatehouse\/|kysely(\/|$)|zod(\/|$)|@hono\/zod-openapi(\/|$)|@hono\/zod-validator(\/|$)|@asteasolutions\/zod-to-openapi(\/|$))/;

export default defineConfig({
  root: import.meta.dirname,
  resolve: { conditions: ['dev-source'] },
  ssr: {
    resolve: { conditions: ['dev-source'], externalConditions: ['node'] },
    noExternal: [BUNDLED],
    external: [],
  },
  build: {
    ssr: 'src/main.ts',
    outDir: 'dist',
    target: 'node20',
    emptyOutDir: true,
    sourcemap: true,
    rollupOptions: {
      external: (id) => id.startsWith('node:') || builtinModules.includes(id) || (!id.startsWith('.') && !id.startsWith('/') && !BUNDLED.test(id) && !id.startsWith('\0')),
      output: { entryFileNames: 'main.js', format: 'es' },
    },
  },
});
