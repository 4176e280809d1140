#!/usr/bin/env node
/**
 * Builds every browser bundle into dist/cdn/<bundle>/<version>/ and writes the live
 * dist/cdn/cdn-manifest.json: the versions from ./cdn-manifest.json plus, for each bundle, its
 * entry file and the sha384 integrity of the entry and of every other file it may load.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const cdn = join(root, 'dist/cdn');
const vite = join(root, 'node_modules/.bin/vite');
const source = JSON.parse(readFileSync(join(root, 'cdn-manifest.json'), 'utf8'));

const builds = [
  { bundle: 'loader', config: 'loader/vite.config.ts', env: { GATEHOUSE_TARGET: 'loader' }, entry: 'gatehouse.js' },
  { bundle: 'runtime', config: 'loader/vite.config.ts', env: { GATEHOUSE_TARGET: 'runtime' }, entry: 'runtime.js' },
  { bundle: 'login-box', config: 'login-box/vite.config.ts', entry: 'remoteEntry.js' },
  { bundle: 'admin-portal', config: 'admin-portal/vite.config.ts', entry: 'remoteEntry.js' },
];
const only = process.argv.slice(2);

for (const b of builds) {
  if (only.length && !only.includes(b.bundle)) continue;
  const started = Date.now();
  const run = spawnSync(vite, ['build', '--config', b.config, '--logLevel', 'warn'], { cwd: root, stdio: 'inherit', env: { ...process.env, ...b.env } });
  if (run.status !== 0) {
    console.error(`build-cdn: building ${b.bundle} failed (exit ${run.status}).`);
    process.exit(1);
  }
  console.log(`built ${b.bundle} in ${Date.now() - started} ms`);
}

const sri = (file) => 'sha384-' + createHash('sha384').update(readFileSync(file)).digest('base64');
const walk = (dir) => readdirSync(dir).flatMap((name) => {
  const path = join(dir, name);
  return statSync(path).isDirectory() ? walk(path) : [path];
});

// Bundles never needed before the login form is interactive keep their file hashes in their own
// files.json (fetched with SRI when the bundle is first shown), so the manifest every page fetches
// carries only the hashes of what the login path may load.
const separateFileLists = new Set(['admin-portal']);

const manifest = { version: source.version, bundles: {} };
for (const b of builds) {
  const version = source.bundles[b.bundle]?.version ?? source.version;
  const dir = join(cdn, b.bundle, version);
  const entryPath = join(dir, b.entry);
  const listPath = join(dir, 'files.json');
  const files = {};
  for (const file of walk(dir)) if (file !== entryPath && /\.(m?js|css)$/.test(file)) files[relative(cdn, file)] = sri(file);
  const entry = { version, entry: relative(cdn, entryPath), integrity: sri(entryPath) };
  if (separateFileLists.has(b.bundle)) {
    writeFileSync(listPath, JSON.stringify(files) + '\n');
    manifest.bundles[b.bundle] = { ...entry, fileList: relative(cdn, listPath), fileListIntegrity: sri(listPath) };
  } else {
    manifest.bundles[b.bundle] = { ...entry, files };
  }
}
mkdirSync(cdn, { recursive: true });
writeFileSync(join(cdn, 'cdn-manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
console.log(`wrote dist/cdn/cdn-manifest.json (${Object.keys(manifest.bundles).join(', ')})`);
