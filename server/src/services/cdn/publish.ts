/**
 * Publishing a bundle version into the CDN folder and pruning old ones (issue 18). A version folder
 * is immutable once published: publishing it again with the same bytes changes nothing, with other
 * bytes is refused. The copy is made beside its place under a dot name (never served), verified
 * there, and renamed into place, so readers see the whole folder or none of it.
 */
import { randomBytes } from 'node:crypto';
import { cp, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { CdnBundle } from '@gatehouse/shared/wire';
import { isBundle, isVersion, verifyVersionFolder, VersionFolderError, type VerifiedVersion } from './version-folder';

/** Semver order, newest first (a pre-release before its release). */
export function compareVersionsDesc(a: string, b: string): number {
  const parse = (v: string) => {
    const [core, pre] = [v.split('-')[0]!, v.includes('-') ? v.slice(v.indexOf('-') + 1) : null];
    return { nums: core.split('.').map(Number), pre };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < 3; i++) if (x.nums[i] !== y.nums[i]) return y.nums[i]! - x.nums[i]!;
  if (x.pre === y.pre) return 0;
  if (x.pre === null) return -1;
  if (y.pre === null) return 1;
  const xs = x.pre.split('.');
  const ys = y.pre.split('.');
  for (let i = 0; i < Math.max(xs.length, ys.length); i++) {
    const [p, q] = [xs[i], ys[i]];
    if (p === undefined) return 1;
    if (q === undefined) return -1;
    if (p === q) continue;
    const [pn, qn] = [/^\d+$/.test(p) ? Number(p) : null, /^\d+$/.test(q) ? Number(q) : null];
    if (pn !== null && qn !== null) return qn - pn;
    if (pn !== null) return 1;
    if (qn !== null) return -1;
    return q < p ? -1 : 1;
  }
  return 0;
}

/** The published versions of a bundle (folders with a version name), newest first. */
export async function publishedVersions(cdnDir: string, bundle: CdnBundle): Promise<Array<{ version: string; publishedAt: number }>> {
  const entries = await readdir(path.join(cdnDir, bundle), { withFileTypes: true }).catch(() => []);
  const found: Array<{ version: string; publishedAt: number }> = [];
  for (const e of entries) {
    if (!e.isDirectory() || !isVersion(e.name)) continue;
    const info = await stat(path.join(cdnDir, bundle, e.name)).catch(() => null);
    if (info) found.push({ version: e.name, publishedAt: Math.floor(info.mtimeMs) });
  }
  return found.sort((a, b) => compareVersionsDesc(a.version, b.version));
}

export type PublishOutcome = { outcome: 'published' | 'unchanged'; bundle: CdnBundle; version: string; files: number; wireBytes: number };

/**
 * Publishes the folder `source`, which must be `<…>/<bundle>/<version>` as the build leaves it in
 * dist/cdn. Throws VersionFolderError for a bad folder and `conflict` for a version published with
 * other bytes; the CDN folder is left exactly as it was in both cases.
 */
export async function publishVersion(cdnDir: string, source: string, conflict: (message: string) => Error): Promise<PublishOutcome> {
  const dir = path.resolve(source);
  const version = path.basename(dir);
  const bundle = path.basename(path.dirname(dir));
  if (!isBundle(bundle)) throw new VersionFolderError(`${dir}: the folder must be <bundle>/<version> with a bundle of loader, runtime, login-box, admin-portal, checkout (found "${bundle.slice(0, 80)}")`);
  if (!isVersion(version)) throw new VersionFolderError(`${dir}: "${version.slice(0, 80)}" is not a version (semver, at most 64 characters)`);
  const incoming = await verifyVersionFolder(dir, bundle, version);
  const target = path.join(cdnDir, bundle, version);
  const same = (existing: VerifiedVersion) => existing.filesJson.equals(incoming.filesJson);
  if (await stat(target).catch(() => null)) {
    const existing = await verifyVersionFolder(target, bundle, version).catch((error: Error) => {
      throw conflict(`${bundle} ${version} is already published but does not verify (${error.message}); it is left as it is`);
    });
    if (!same(existing)) throw conflict(`${bundle} ${version} is already published with other bytes; a published version never changes: publish a new version`);
    return { outcome: 'unchanged', bundle, version, files: Object.keys(incoming.files).length, wireBytes: existing.wireBytes };
  }
  await mkdir(path.join(cdnDir, bundle), { recursive: true });
  const temp = path.join(cdnDir, bundle, `.publish-${version}-${randomBytes(6).toString('hex')}`);
  try {
    // Dot entries (the build's .vite records) are not published.
    await cp(dir, temp, { recursive: true, errorOnExist: true, force: false, verbatimSymlinks: true, filter: (src) => !path.basename(src).startsWith('.') || src === dir });
    const copied = await verifyVersionFolder(temp, bundle, version).catch((error: Error) => {
      throw new VersionFolderError(`the copy did not verify (the folder changed while it was copied?): ${error.message}`);
    });
    if (!same(copied)) throw new VersionFolderError('the folder changed while it was copied');
    const won = await rename(temp, target).then(
      () => true,
      async (error: NodeJS.ErrnoException) => {
        // Another publish of the same version got there first: unchanged if it has the same bytes.
        if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
        const existing = await verifyVersionFolder(target, bundle, version);
        if (!same(existing)) throw conflict(`${bundle} ${version} was just published with other bytes`);
        return false;
      },
    );
    if (!won) return { outcome: 'unchanged', bundle, version, files: Object.keys(incoming.files).length, wireBytes: incoming.wireBytes };
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
  return { outcome: 'published', bundle, version, files: Object.keys(incoming.files).length, wireBytes: incoming.wireBytes };
}

/** Removes a version folder: renamed out of view first (a dot name is never served), then deleted. */
export async function removeVersion(cdnDir: string, bundle: CdnBundle, version: string): Promise<void> {
  const gone = path.join(cdnDir, bundle, `.prune-${version}-${randomBytes(6).toString('hex')}`);
  await rename(path.join(cdnDir, bundle, version), gone);
  await rm(gone, { recursive: true, force: true });
}
