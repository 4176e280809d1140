#!/usr/bin/env node
/**
 * Builds every browser bundle into dist/cdn/<bundle>/<version>/ and writes the live
 * dist/cdn/cdn-manifest.json: the versions from ./cdn-manifest.json plus, for each bundle, its
 * entry file and the sha384 integrity of the entry and of every other file it may load.
 * Each version folder gets its files.json: every file of the version (entry included) with its
 * sha384, what `gatehouse cdn publish` and the server verify (issue 18, docs/cdn.md).
 * Then every file under dist/cdn gets a brotli (quality 11) and a gzip (level 9) copy beside it,
 * `<file>.br` and `<file>.gz`, which the server sends by Accept-Encoding (routes/platform/cdn.ts).
 * Integrity hashes are those of the uncompressed files: SRI checks the decoded body.
 * Last, dist/cdn/headers says which cache and CORS headers each path needs, for static hosts.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { extname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

const root = resolve(import.meta.dirname, '..');
const cdn = join(root, 'dist/cdn');
const vite = join(root, 'node_modules/.bin/vite');
const source = JSON.parse(readFileSync(join(root, 'cdn-manifest.json'), 'utf8'));

// `lazy`: the files the bundle imports only later go to a list of their own (see below); for a
// module-federation remote, what its entry imports dynamically (the exposed `./mount`, shared
// modules) is needed at once, so it counts as eager.
const builds = [
  { bundle: 'loader', config: 'loader/vite.config.ts', env: { GATEHOUSE_TARGET: 'loader' }, entry: 'gatehouse.js' },
  { bundle: 'runtime', config: 'loader/vite.config.ts', env: { GATEHOUSE_TARGET: 'runtime' }, entry: 'runtime.js', lazy: 'app' },
  { bundle: 'login-box', config: 'login-box/vite.config.ts', entry: 'remoteEntry.js', lazy: 'remote' },
  { bundle: 'admin-portal', config: 'admin-portal/vite.config.ts', entry: 'remoteEntry.js' },
  { bundle: 'checkout', config: 'checkout/vite.config.ts', entry: 'remoteEntry.js' },
];
const only = process.argv.slice(2);

/**
 * @module-federation/vite decides which named exports a consumer's `import: false` shares need by
 * watching the module graph load, and calls the graph complete once 10 ms pass with every started
 * module parsed. On a machine busy with other work (a fresh CI run compiles SQLite and installs
 * packages beside the build) that pause can come before the graph is done: the share then lacks
 * exports the code imports, and the build stops with MISSING_EXPORT on a `__loadShare__` module
 * (seen twice on fresh clones: react's hooks in the login box, @gatehouse/shared in the checkout).
 * It never yields a wrong bundle, only a failed one, so that one failure is built again, at most
 * twice more; any other failure stops the build at once.
 */
const SHARE_ANALYSIS_RACE = /MISSING_EXPORT[^\n]*__loadShare__/;
const ATTEMPTS = 3;

for (const b of builds) {
  if (only.length && !only.includes(b.bundle)) continue;
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    const run = spawnSync(vite, ['build', '--config', b.config, '--logLevel', 'warn'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...b.env } });
    process.stdout.write(run.stdout ?? '');
    process.stderr.write(run.stderr ?? '');
    if (run.status === 0) break;
    if (attempt < ATTEMPTS && SHARE_ANALYSIS_RACE.test(`${run.stdout}${run.stderr}`)) {
      console.error(`build-cdn: ${b.bundle}: a federation share lacked exports its code imports (the share analysis ended early); building it again (attempt ${attempt + 1} of ${ATTEMPTS}).`);
      continue;
    }
    console.error(`build-cdn: building ${b.bundle} failed (exit ${run.status}).`);
    process.exit(1);
  }
  console.log(`built ${b.bundle} in ${Date.now() - started} ms`);
}

const COMPRESSED = /\.(br|gz)$/;
const sri = (file) => 'sha384-' + createHash('sha384').update(readFileSync(file)).digest('base64');
// Dot folders (Vite's .vite/manifest.json) are build records: never hashed, compressed or served.
const walk = (dir) => readdirSync(dir).flatMap((name) => {
  const path = join(dir, name);
  if (name.startsWith('.')) return [];
  return statSync(path).isDirectory() ? walk(path) : [path];
});

/**
 * The files of a bundle needed as soon as its entry file runs: the entry's static imports,
 * transitively, and for a remote also what the entry itself imports dynamically (its exposed
 * `./mount` and its shared-module map) with their static imports. What those import dynamically
 * (lazy screens, catalogs) is lazy. Read from Vite's build manifest, starting at the chunk that is
 * the entry file: federation marks the exposed module as an entry too, never the remote entry.
 */
function eagerFiles(chunks, entryFile, kind) {
  const eager = new Set();
  const visit = (key) => {
    const chunk = chunks[key];
    if (!chunk || eager.has(chunk.file)) return;
    eager.add(chunk.file);
    for (const next of chunk.imports ?? []) visit(next);
  };
  const entryKey = Object.keys(chunks).find((key) => chunks[key].file === entryFile);
  if (!entryKey) throw new Error(`build-cdn: ${entryFile} is not in the build manifest`);
  visit(entryKey);
  if (kind === 'remote') for (const next of chunks[entryKey].dynamicImports ?? []) visit(next);
  return eager;
}

// Bundles never needed before the login form is interactive keep their file hashes in their own
// files.json (fetched with SRI when the bundle is first shown), and the runtime and the login box
// keep those of their lazily imported files in lazy-files.json (fetched with SRI on the first such
// import, loader/src/assets.ts), so the manifest every page fetches carries only the hashes of what
// the login form needs before it is interactive.
const separateFileLists = new Set(['admin-portal', 'checkout']);

const manifest = { version: source.version, bundles: {} };
for (const b of builds) {
  const version = source.bundles[b.bundle]?.version ?? source.version;
  const dir = join(cdn, b.bundle, version);
  const entryPath = join(dir, b.entry);
  const listPath = join(dir, 'files.json');
  const lazyListPath = join(dir, 'lazy-files.json');
  const files = {};
  for (const file of walk(dir)) {
    // The import map's integrity covers modules only, and the lazy-import gate loads no styles.
    if (file.endsWith('.css')) throw new Error(`build-cdn: ${relative(root, file)} is a CSS file, which SRI would not cover; import styles with ?inline`);
    if (file !== entryPath && /\.m?js$/.test(file)) files[relative(cdn, file)] = sri(file);
  }
  const entry = { version, entry: relative(cdn, entryPath), integrity: sri(entryPath) };
  if (b.lazy) {
    const eager = eagerFiles(JSON.parse(readFileSync(join(dir, '.vite/manifest.json'), 'utf8')), b.entry, b.lazy);
    const now = {};
    const later = {};
    for (const [file, hash] of Object.entries(files)) (eager.has(relative(dir, join(cdn, file))) ? now : later)[file] = hash;
    writeFileSync(lazyListPath, JSON.stringify(later) + '\n');
    manifest.bundles[b.bundle] = { ...entry, files: now, lazyFileList: relative(cdn, lazyListPath), lazyFileListIntegrity: sri(lazyListPath) };
  } else if (!separateFileLists.has(b.bundle)) {
    manifest.bundles[b.bundle] = { ...entry, files };
  }
  // files.json lists every file of the version, the entry and lazy-files.json included (for the
  // admin portal and the checkout it is also the loader's file list: an entry more in the import
  // map's integrity is harmless). Not itself, nor the compressed copies (they decode to a listed file).
  const everything = {};
  for (const file of walk(dir).sort()) if (file !== listPath && !COMPRESSED.test(file)) everything[relative(cdn, file)] = sri(file);
  writeFileSync(listPath, JSON.stringify(everything) + '\n');
  if (separateFileLists.has(b.bundle)) manifest.bundles[b.bundle] = { ...entry, fileList: relative(cdn, listPath), fileListIntegrity: sri(listPath) };
}
mkdirSync(cdn, { recursive: true });
writeFileSync(join(cdn, 'cdn-manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
console.log(`wrote dist/cdn/cdn-manifest.json (${Object.keys(manifest.bundles).join(', ')})`);

const TEXT = new Set(['.js', '.mjs', '.css', '.json', '.map', '.txt', '.html', '.svg']);
const brotli = promisify(brotliCompress);
const gzip9 = promisify(gzip);

/** Writes `<file>.br` and `<file>.gz` beside every file of the CDN folder (stale copies first removed). */
async function compressTree(dir) {
  const all = walk(dir);
  for (const file of all) if (COMPRESSED.test(file)) rmSync(file);
  const sources = all.filter((file) => !COMPRESSED.test(file));
  let raw = 0;
  let br = 0;
  let gz = 0;
  await Promise.all(
    sources.map(async (file) => {
      const bytes = await readFile(file);
      const [b, g] = await Promise.all([
        brotli(bytes, {
          params: {
            [zlib.BROTLI_PARAM_QUALITY]: 11,
            [zlib.BROTLI_PARAM_MODE]: TEXT.has(extname(file)) ? zlib.BROTLI_MODE_TEXT : zlib.BROTLI_MODE_GENERIC,
            [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          },
        }),
        gzip9(bytes, { level: 9 }),
      ]);
      // Written after the file itself, so never older than it (the server checks that for the manifest).
      await Promise.all([writeFile(file + '.br', b), writeFile(file + '.gz', g)]);
      raw += bytes.length;
      br += b.length;
      gz += g.length;
    }),
  );
  return { files: sources.length, raw, br, gz };
}

const HEADERS_FILE = 'headers';

/**
 * dist/cdn/headers, in the `_headers` format of Netlify and Cloudflare Pages (a path pattern, then
 * its headers indented), with paths from the folder's root: versioned files are immutable, the
 * manifest is kept 30 s (CDN_MANIFEST_MAX_AGE), and everything may be loaded from any origin.
 */
function headersFile(bundles) {
  const lines = [
    '# Gatehouse CDN headers (scripts/build-cdn.mjs; docs/cdn.md). Netlify and Cloudflare Pages read this',
    '# file as _headers at the root of the uploaded folder; for other hosts set the same headers per path.',
    '/*',
    '  Access-Control-Allow-Origin: *',
    '  Cross-Origin-Resource-Policy: cross-origin',
    '  X-Content-Type-Options: nosniff',
    '/cdn-manifest.json',
    '  Cache-Control: public, max-age=30',
  ];
  for (const bundle of bundles) lines.push(`/${bundle}/*`, '  Cache-Control: public, max-age=31536000, immutable');
  return lines.join('\n') + '\n';
}

const started = Date.now();
rmSync(join(cdn, HEADERS_FILE), { force: true });
const sizes = await compressTree(cdn);
writeFileSync(join(cdn, HEADERS_FILE), headersFile(builds.map((b) => b.bundle)));
const kb = (n) => (n / 1024).toFixed(1) + ' KB';
console.log(`compressed ${sizes.files} CDN files in ${Date.now() - started} ms: ${kb(sizes.raw)} raw, ${kb(sizes.gz)} gzip, ${kb(sizes.br)} brotli`);
