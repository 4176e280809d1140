/** CDN folders as scripts/build-cdn.mjs leaves them (issue 18), for the rollout tests. */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { CdnBundle } from '@gatehouse/shared/wire';
import type { GatehouseServer } from '../app';
import { BUNDLE_ENTRIES } from '../services/cdn/version-folder';
import { superUser, type TenantAdmin } from './admin-helpers';

export const sri = (bytes: Buffer | string) => 'sha384-' + createHash('sha384').update(bytes).digest('base64');

/**
 * Writes `<root>/<bundle>/<version>/`: its entry, one chunk, each with .br and .gz, and files.json.
 * `body` changes the bytes (another build of the same version).
 */
export function writeVersion(root: string, bundle: CdnBundle, version: string, body = ''): { dir: string; files: Record<string, string> } {
  const dir = path.join(root, bundle, version);
  mkdirSync(path.join(dir, 'assets'), { recursive: true });
  const content: Record<string, string> = {
    [BUNDLE_ENTRIES[bundle]]: `export const version = ${JSON.stringify(version)}; import './assets/chunk.js';${body}\n`,
    'assets/chunk.js': `export const chunk = ${JSON.stringify(`${bundle} ${version}`)};\n`.repeat(20),
  };
  const files: Record<string, string> = {};
  for (const [rel, text] of Object.entries(content)) {
    const file = path.join(dir, rel);
    writeFileSync(file, text);
    writeFileSync(file + '.br', brotliCompressSync(Buffer.from(text)));
    writeFileSync(file + '.gz', gzipSync(Buffer.from(text)));
    files[`${bundle}/${version}/${rel}`] = sri(text);
  }
  writeFileSync(path.join(dir, 'files.json'), JSON.stringify(files) + '\n');
  return { dir, files };
}

/** A CDN folder whose cdn-manifest.json names `defaults` (each version written). */
export function cdnDirWith(defaults: Partial<Record<CdnBundle, string>>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'gatehouse-cdn-'));
  for (const [bundle, version] of Object.entries(defaults)) writeVersion(root, bundle as CdnBundle, version);
  writeFileSync(path.join(root, 'cdn-manifest.json'), JSON.stringify({ version: '7.78.0', bundles: Object.fromEntries(Object.entries(defaults).map(([b, v]) => [b, { version: v }])) }, null, 2));
  return root;
}

/** A version folder's files as the publish route takes them: each by its path inside the folder, in base64. */
export function uploadOf(dir: string, rel = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) Object.assign(out, uploadOf(dir, p));
    else out[p] = readFileSync(path.join(dir, p)).toString('base64');
  }
  return out;
}

/** The publish body of writeVersion(bundle, version), built in a temporary folder that is removed. */
export function versionUpload(bundle: CdnBundle, version: string): { bundle: CdnBundle; version: string; files: Record<string, string> } {
  const root = mkdtempSync(path.join(tmpdir(), 'gatehouse-build-'));
  try {
    return { bundle, version, files: uploadOf(writeVersion(root, bundle, version).dir) };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** Every path under `dir` with its bytes (base64): what "the CDN folder is exactly as it was" compares. */
export function snapshotOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const p = path.join(rel, e.name);
      if (e.isDirectory()) walk(p);
      else out[p] = readFileSync(path.join(dir, p)).toString('base64');
    }
  };
  walk('');
  return out;
}

/**
 * A server on a fresh CDN folder (the login box's 1.0.0 as default, no rollout state left by another
 * test of the database), an empty folder for builds, and a super user: what every CDN publishing test starts from.
 */
export async function cdnOperatorServer(start: (env: Record<string, string>) => Promise<GatehouseServer>): Promise<{ server: GatehouseServer; operator: TenantAdmin; cdnDir: string; builds: string }> {
  const cdnDir = cdnDirWith({ 'login-box': '1.0.0' });
  const builds = mkdtempSync(path.join(tmpdir(), 'gatehouse-build-'));
  const server = await start({ GATEHOUSE_CDN_DIR: cdnDir });
  await server.db.deleteFrom('cdn_pins').execute();
  await server.db.deleteFrom('cdn_rollouts').execute();
  return { server, operator: await superUser(server), cdnDir, builds };
}
