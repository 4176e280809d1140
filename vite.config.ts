/**
 * Shared build settings for the browser bundles, and the Vitest projects list (`npx vitest run`).
 */
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { federation } from '@module-federation/vite';

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
    // .vite/manifest.json: which file imports which, for scripts/build-cdn.mjs (never served).
    manifest: true,
  };
}

/**
 * Vite routes every `import()` of a bundle through its module-preload helper, which (with
 * `modulePreload: false`) only costs bytes. This plugin puts a small one in its place that lets
 * the runtime's lazy-import gate (loader/src/assets.ts) register a lazily imported file's integrity
 * before the browser fetches it; without the gate (tests, other hosts) it imports at once.
 */
export function lazyImportGate(): Plugin {
  const helperId = '\0vite/preload-helper.js';
  const helper = '(load, _deps, importer) => { const g = globalThis[Symbol.for("gatehouse.lazy-import")]; return g ? g(load, importer || import.meta.url).then(load) : load(); }';
  return {
    name: 'gatehouse-lazy-import-gate',
    enforce: 'pre',
    load: (id) => (id === helperId ? `export const __vitePreload = ${helper};` : null),
    // The helper would be a file of its own (chunk groups never take it), one more request before
    // the login form for a one-line function: each chunk that imports it gets it inline instead.
    generateBundle(_options, bundle) {
      const file = Object.values(bundle).find((c) => c.type === 'chunk' && c.moduleIds.length === 1 && c.moduleIds[0] === helperId);
      if (!file || file.type !== 'chunk') return;
      const name = file.fileName.split('/').pop()!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const statement = new RegExp(`import\\s*\\{\\s*(\\w+)(?:\\s+as\\s+(\\w+))?\\s*\\}\\s*from\\s*["'][^"']*/${name}["'];?`);
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || chunk === file || !chunk.imports.includes(file.fileName)) continue;
        const match = statement.exec(chunk.code);
        if (!match) throw new Error(`lazyImportGate: cannot inline the import() helper into ${chunk.fileName}`);
        chunk.code = chunk.code.replace(match[0], `const ${match[2] ?? match[1]} = ${helper};`);
        chunk.imports = chunk.imports.filter((f) => f !== file.fileName);
      }
      delete bundle[file.fileName];
    },
  };
}

/**
 * The bundler's own helpers (rolldown's runtime: ESM interop) are a chunk of their own that chunk
 * groups never take: one more request before the login form for a few hundred bytes. This puts
 * them into the chunk `host` names, which is loaded first (remoteEntry.js imports it) and already
 * imports them; every other chunk imports them from there. The host's file name already depends
 * on the helpers' file name, so on their content.
 */
export function bundlerHelpersInto(host: string): Plugin {
  const importOf = (file: string) => new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*["']([^"']*/)?${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}["'];?`);
  const bindings = (list: string) =>
    list.split(',').map((part) => part.trim()).filter(Boolean).map((part) => {
      const [imported, local = imported] = part.split(/\s+as\s+/);
      return { imported: imported!, local: local! };
    });
  return {
    name: 'gatehouse-bundler-helpers',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const helpers = chunks.find((c) => c.moduleIds.length === 1 && c.moduleIds[0] === '\0rolldown/runtime.js');
      const target = chunks.find((c) => c.name === host && helpers && c.imports.includes(helpers.fileName));
      if (!helpers || !target) return;
      const name = helpers.fileName.split('/').pop()!;
      const exported = /export\s*\{([^}]*)\}\s*;?\s*$/.exec(helpers.code);
      if (helpers.imports.length || !exported) throw new Error('bundlerHelpersInto: unexpected shape of the bundler helpers chunk');
      const all = bindings(exported[1]!); // { imported: local name inside the helpers, local: exported name }
      const body = helpers.code.slice(0, exported.index);
      const own = importOf(name).exec(target.code);
      if (!own) throw new Error(`bundlerHelpersInto: ${target.fileName} does not import the helpers`);
      const locals = new Map(bindings(own[1]!).map((b) => [b.imported, b.local]));
      const names = all.map((b) => ({ exported: b.local, local: locals.get(b.local) ?? `__gh_helper_${b.local}` }));
      target.code =
        target.code.replace(own[0], `const {${names.map((n) => `${n.exported}: ${n.local}`).join(', ')}} = (() => { ${body}; return {${all.map((b) => `${b.local}: ${b.imported}`).join(', ')}}; })();`) +
        `\nexport {${names.map((n) => `${n.local} as __gh_helper_${n.exported}`).join(', ')}};\n`;
      target.imports = target.imports.filter((f) => f !== helpers.fileName);
      const targetName = target.fileName.split('/').pop()!;
      for (const chunk of chunks) {
        if (chunk === target || chunk === helpers || !chunk.imports.includes(helpers.fileName)) continue;
        const statement = importOf(name).exec(chunk.code);
        if (!statement) throw new Error(`bundlerHelpersInto: cannot point ${chunk.fileName} at ${target.fileName}`);
        const list = bindings(statement[1]!).map((b) => `__gh_helper_${b.imported} as ${b.local}`).join(', ');
        chunk.code = chunk.code.replace(statement[0], `import {${list}} from "${statement[2] ?? './'}${targetName}";`);
        chunk.imports = [...chunk.imports.filter((f) => f !== helpers.fileName), ...(chunk.imports.includes(target.fileName) ? [] : [target.fileName])];
      }
      delete bundle[helpers.fileName];
    },
  };
}

/** Source (not build output) for workspace packages, in tests and builds alike. */
export const resolveConditions = ['dev-source', 'browser', 'module', 'import', 'default'];

// Provided by the runtime (loader stage 2) as singletons; never bundled into a remote.
const hostOnly = { singleton: true, import: false as const, suppressMissingImportWarning: true };

/**
 * The modules `entry` imports statically, transitively: known once the module graph is built
 * (`buildEnd`), before the output is split into chunks, so a chunk group can ask for them.
 */
export function staticImportsOf(entry: string): { plugin: Plugin; has(id: string): boolean } {
  const reachable = new Set<string>();
  const plugin: Plugin = {
    name: 'gatehouse-static-imports',
    buildEnd() {
      reachable.clear();
      const stack = [entry];
      while (stack.length) {
        const id = stack.pop()!;
        if (reachable.has(id)) continue;
        const info = this.getModuleInfo(id);
        if (!info) continue;
        reachable.add(id);
        stack.push(...info.importedIds);
      }
    },
  };
  return { plugin, has: (id) => reachable.has(id) };
}

/**
 * Build config of a bundle that is a module-federation remote exposing `./mount` (single-spa
 * parcel lifecycles): `dir` is the bundle's folder, `bundle` its CDN name.
 */
export function remoteBundleConfig(dir: string, bundle: string): UserConfig {
  const mount = resolve(dir, 'src/mount.tsx');
  const firstPaint = staticImportsOf(mount);
  // Federation's own modules (shared-module proxies, its runtime glue) keep the chunks it expects.
  const ownSource = (id: string) => id.startsWith(resolve(dir, 'src') + '/') || id.includes('/node_modules/');
  return {
    root: dir,
    base: './',
    resolve: { conditions: resolveConditions },
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [
      lazyImportGate(),
      bundlerHelpersInto('federation'),
      firstPaint.plugin,
      react(),
      federation({
        name: `gatehouse_${bundle.replace(/-/g, '_')}`,
        filename: 'remoteEntry.js',
        manifest: false,
        dts: false,
        exposes: { './mount': './src/mount.tsx' },
        shared: { react: hostOnly, 'react/jsx-runtime': hostOnly, 'react-dom': hostOnly, 'react-dom/client': hostOnly, '@gatehouse/shared': hostOnly },
        experiments: { externalRuntime: true },
      }),
    ],
    build: {
      ...bundleBuild(resolve(dir, '../dist/cdn', bundle, ASSET_VERSION)),
      rollupOptions: {
        input: {},
        // `./mount` itself joins the first-paint chunk below, which remoteEntry.js then imports
        // directly: no facade file (one more request before the login form) just to re-export it.
        preserveEntrySignatures: 'allow-extension',
        output: {
          codeSplitting: {
            groups: [
              // Federation's runtime glue, which remoteEntry.js imports first: one file instead of three.
              // With it the shared-modules map remoteEntry.js imports as it starts (a file of its own
              // would cost the first paint one more request).
              {
                name: 'federation',
                priority: 3,
                test: (id: string) => /[\\/]@module-federation[\\/]runtime[\\/]dist[\\/]/.test(id) || id.includes('mf-localSharedImportMap'),
              },
              // Everything `./mount` imports statically runs at its first paint: one file compresses
              // better than several (brotli shares one window) and costs the manifest one hash.
              { name: 'ui', priority: 2, test: (id: string) => firstPaint.has(id) && ownSource(id) },
              // Modules only lazy screens share: one file of their own, never fetched before the first screen.
              { name: 'lazy-ui', priority: 1, test: /[\\/]src[\\/](components[\\/]|context|use-|screens[\\/]recovery[\\/]NewPasswordForm|screens[\\/]mfa[\\/]OneTimeCodeField)/ },
            ],
          },
        },
      },
    },
  };
}

export default defineConfig({
  test: {
    // `npm test` (scripts/test-all.sh) runs these in two groups, and fails on a project in neither.
    projects: ['shared/vitest.config.ts', 'login-box/vitest.config.ts', 'login-box/vitest.isolated.config.ts', 'admin-portal/vitest.config.ts', 'checkout/vitest.config.ts', 'loader/vitest.config.ts', 'loader/vitest.isolated.config.ts', 'server/vitest.config.ts', 'sdk/node/vitest.config.ts', 'sdk/react/vitest.config.ts'],
  },
});
