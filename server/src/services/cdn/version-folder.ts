/**
 * One published version of a bundle, `<cdnDir>/<bundle>/<version>/` (issue 18): reading and
 * verifying its `files.json` against the bytes on disk, and deriving the manifest descriptor the
 * loader needs from it. Everything here treats the folder as hostile: a path in files.json must stay
 * inside the folder, every file must be listed and match its sha384, the .br/.gz copies must decode
 * to the file, and nothing may be a symbolic link.
 */
import { createHash } from 'node:crypto';
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip } from 'node:zlib';
import { CDN_BUNDLES, CDN_VERSION_MAX_LENGTH, CDN_VERSION_PATTERN, type CdnBundle, type CdnVersionDescriptor } from '@gatehouse/shared/wire';

const unbrotli = promisify(brotliDecompress);
const ungzip = promisify(gunzip);

/** The file each bundle's loader imports first (scripts/build-cdn.mjs). */
export const BUNDLE_ENTRIES: Record<CdnBundle, string> = {
  loader: 'gatehouse.js',
  runtime: 'runtime.js',
  'login-box': 'remoteEntry.js',
  'admin-portal': 'remoteEntry.js',
  checkout: 'remoteEntry.js',
};
/** Bundles not needed before sign-in: the manifest names their files.json instead of inlining hashes. */
const FILE_LIST_BUNDLES = new Set<CdnBundle>(['admin-portal', 'checkout']);

export const FILES_JSON = 'files.json';
const LAZY_FILES_JSON = 'lazy-files.json';
const SIBLINGS = ['.br', '.gz'] as const;
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;
const SRI = /^sha384-[A-Za-z0-9+/]{64}$/;
const MAX_FILES = 5000;

/** Why a folder is not a valid published version; the message names the file. */
export class VersionFolderError extends Error {}

export function isBundle(name: string): name is CdnBundle {
  return (CDN_BUNDLES as readonly string[]).includes(name);
}

export function isVersion(name: string): boolean {
  return name.length <= CDN_VERSION_MAX_LENGTH && CDN_VERSION_PATTERN.test(name);
}

export const sri = (bytes: Uint8Array) => 'sha384-' + createHash('sha384').update(bytes).digest('base64');

/** What a verified folder holds. */
export interface VerifiedVersion {
  bundle: CdnBundle;
  version: string;
  /** files.json as parsed: path relative to cdnDir → sha384. */
  files: Record<string, string>;
  /** Its exact bytes (compared when the same version is published again). */
  filesJson: Buffer;
  descriptor: CdnVersionDescriptor;
  /** Sum over every file (files.json included) of its .br size, else its own. */
  wireBytes: number;
}

/** Every regular file under `dir` (relative, `/`-separated), dot entries left out; a link or odd entry refuses. */
async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(path.join(dir, prefix), { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (!SEGMENT.test(entry.name)) throw new VersionFolderError(`${rel}: a file name may hold only letters, digits, '.', '_' and '-'`);
    if (entry.isSymbolicLink()) throw new VersionFolderError(`${rel}: symbolic links are not published`);
    if (entry.isDirectory()) found.push(...(await listFiles(dir, rel)));
    else if (entry.isFile()) found.push(rel);
    else throw new VersionFolderError(`${rel}: not a regular file`);
    if (found.length > MAX_FILES) throw new VersionFolderError(`more than ${MAX_FILES} files`);
  }
  return found;
}

function parseFileMap(bytes: Buffer, name: string, prefix: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new VersionFolderError(`${name} is not JSON`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new VersionFolderError(`${name} must be an object of path: sha384`);
  const map: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (!key.startsWith(prefix) || !key.slice(prefix.length).split('/').every((s) => SEGMENT.test(s))) throw new VersionFolderError(`${name}: "${key.slice(0, 200)}" is not a path inside ${prefix}`);
    if (typeof value !== 'string' || !SRI.test(value)) throw new VersionFolderError(`${name}: "${key}" needs a sha384-… integrity`);
    map[key] = value;
  }
  return map;
}

/**
 * Verifies `dir` as version `version` of `bundle`: files.json lists every file (entry included),
 * each matches its hash, each .br/.gz decodes to its file. Returns the descriptor for the manifest.
 */
export async function verifyVersionFolder(dir: string, bundle: CdnBundle, version: string): Promise<VerifiedVersion> {
  const prefix = `${bundle}/${version}/`;
  const info = await lstat(dir).catch(() => null);
  if (!info) throw new VersionFolderError(`${prefix} does not exist`);
  if (!info.isDirectory()) throw new VersionFolderError(`${prefix} is not a folder`);
  const onDisk = await listFiles(dir);
  if (!onDisk.includes(FILES_JSON)) throw new VersionFolderError(`${prefix}${FILES_JSON} is missing`);
  const filesJson = await readFile(path.join(dir, FILES_JSON));
  const files = parseFileMap(filesJson, `${prefix}${FILES_JSON}`, prefix);
  const listed = new Set(Object.keys(files).map((k) => k.slice(prefix.length)));
  if (listed.has(FILES_JSON)) throw new VersionFolderError(`${prefix}${FILES_JSON} cannot list itself`);

  const present = new Set(onDisk);
  let wireBytes = 0;
  for (const rel of [...listed, FILES_JSON]) {
    if (!present.has(rel)) throw new VersionFolderError(`${prefix}${rel} is listed in files.json but missing`);
    const bytes = await readFile(path.join(dir, rel));
    if (rel !== FILES_JSON && sri(bytes) !== files[prefix + rel]) throw new VersionFolderError(`${prefix}${rel} does not match its sha384 in files.json`);
    let sent = bytes.length;
    for (const suffix of SIBLINGS) {
      if (!present.has(rel + suffix)) continue;
      const packed = await readFile(path.join(dir, rel + suffix));
      // At most the file's own size: a sibling that would decode to more (a compression bomb) is refused, not inflated.
      const limit = { maxOutputLength: Math.max(1, bytes.length) };
      const decoded = await (suffix === '.br' ? unbrotli(packed, limit) : ungzip(packed, limit)).catch(() => null);
      if (!decoded || !decoded.equals(bytes)) throw new VersionFolderError(`${prefix}${rel}${suffix} does not decode to ${rel}`);
      if (suffix === '.br') sent = packed.length;
    }
    wireBytes += sent;
  }
  for (const rel of onDisk) {
    const base = SIBLINGS.some((s) => rel.endsWith(s)) ? rel.slice(0, -3) : rel;
    if (base !== FILES_JSON && !listed.has(base)) throw new VersionFolderError(`${prefix}${rel} is not listed in files.json`);
  }

  const entry = prefix + BUNDLE_ENTRIES[bundle];
  if (!files[entry]) throw new VersionFolderError(`${prefix}${FILES_JSON} does not list the entry ${BUNDLE_ENTRIES[bundle]}`);
  const descriptor: CdnVersionDescriptor = { version, entry, integrity: files[entry]! };
  const modules = Object.keys(files).filter((k) => k !== entry && /\.m?js$/.test(k));
  if (FILE_LIST_BUNDLES.has(bundle)) {
    descriptor.fileList = prefix + FILES_JSON;
    descriptor.fileListIntegrity = sri(filesJson);
  } else if (files[prefix + LAZY_FILES_JSON]) {
    const lazy = parseFileMap(await readFile(path.join(dir, LAZY_FILES_JSON)), `${prefix}${LAZY_FILES_JSON}`, prefix);
    for (const [key, hash] of Object.entries(lazy)) if (files[key] !== hash) throw new VersionFolderError(`${prefix}${LAZY_FILES_JSON}: "${key}" differs from files.json`);
    descriptor.files = Object.fromEntries(modules.filter((k) => !(k in lazy)).map((k) => [k, files[k]!]));
    descriptor.lazyFileList = prefix + LAZY_FILES_JSON;
    descriptor.lazyFileListIntegrity = files[prefix + LAZY_FILES_JSON]!;
  } else {
    descriptor.files = Object.fromEntries(modules.map((k) => [k, files[k]!]));
  }
  return { bundle, version, files, filesJson, descriptor, wireBytes };
}

/**
 * Remembers verified folders: a published folder is immutable, so it is hashed once. The key holds
 * files.json's inode, size and time, so a folder replaced behind our back is verified again.
 */
export function createVersionCache(cdnDir: string) {
  const verified = new Map<string, { stamp: string; result: VerifiedVersion }>();
  const folderOf = (bundle: CdnBundle, version: string) => path.join(cdnDir, bundle, version);
  return {
    folderOf,
    async get(bundle: CdnBundle, version: string): Promise<VerifiedVersion> {
      if (!isVersion(version)) throw new VersionFolderError(`"${version.slice(0, 80)}" is not a version`);
      const dir = folderOf(bundle, version);
      const info = await lstat(path.join(dir, FILES_JSON)).catch(() => null);
      const stamp = info ? `${info.ino}:${info.size}:${info.mtimeMs}` : '';
      const known = verified.get(dir);
      if (known && known.stamp === stamp) return known.result;
      const result = await verifyVersionFolder(dir, bundle, version);
      verified.set(dir, { stamp, result });
      return result;
    },
    forget(bundle: CdnBundle, version: string): void {
      verified.delete(folderOf(bundle, version));
    },
  };
}
export type VersionCache = ReturnType<typeof createVersionCache>;
