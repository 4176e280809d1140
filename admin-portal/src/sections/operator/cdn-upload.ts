/**
 * Reading a built version folder picked in the browser (`<input type="file" webkitdirectory>`) into
 * the publish body (OperatorPaths.cdnPublish). The browser names each file by its path from the
 * picked folder (`7.79.0/remoteEntry.js`), so the version is the folder's name and the bundle is
 * what files.json names (`login-box/7.79.0/…`); picking the bundle's folder with one version in it
 * works too. The server checks everything again: this only spares a round trip for the obvious.
 */
import { CDN_BUNDLES, CDN_PUBLISH_MAX_BYTES, CDN_PUBLISH_MAX_FILES, CDN_PUBLISH_PATH } from '@gatehouse/shared/admin-paths';
import type { CdnBundle, CdnPublishBody } from '@gatehouse/shared/wire';

/** What the picked folder holds, shown for confirmation before anything is sent. */
export interface PickedVersion {
  bundle: CdnBundle;
  version: string;
  files: Array<{ path: string; file: File }>;
  bytes: number;
}

/** Why a picked folder cannot be published, as a catalog key and its values. */
export class PickProblem extends Error {
  constructor(
    readonly key: string,
    readonly values: Record<string, string | number> = {},
  ) {
    super(key);
  }
}

const isBundle = (name: string): name is CdnBundle => (CDN_BUNDLES as readonly string[]).includes(name);

/** The version folder in `files` (a FileList from a webkitdirectory input). */
export async function readPickedFolder(list: ArrayLike<File>): Promise<PickedVersion> {
  const all = Array.from(list).map((file) => ({ file, parts: (file.webkitRelativePath || file.name).split('/') }));
  // Dot entries (the build's .vite records) are not published, as `cdn publish` leaves them out.
  const files = all.filter(({ parts }) => !parts.some((p) => p.startsWith('.')));
  if (!files.length) throw new PickProblem('operator.cdn.problem.folderEmpty');
  const top = files[0]!.parts[0]!;
  let depth = 1;
  let bundleFromPath: string | null = null;
  // The bundle's folder picked (login-box/7.79.0/…) rather than the version's.
  if (isBundle(top) && files.every(({ parts }) => parts.length > 2 && parts[1] === files[0]!.parts[1])) {
    bundleFromPath = top;
    depth = 2;
  }
  const version = files[0]!.parts[depth - 1]!;
  const inside = files.map(({ file, parts }) => ({ file, path: parts.slice(depth).join('/') }));
  if (inside.length > CDN_PUBLISH_MAX_FILES) throw new PickProblem('operator.cdn.problem.tooManyFiles', { max: CDN_PUBLISH_MAX_FILES });
  const bad = inside.find((f) => !CDN_PUBLISH_PATH.test(f.path));
  if (bad) throw new PickProblem('operator.cdn.problem.fileName', { name: bad.path || bad.file.name });
  const bytes = inside.reduce((sum, f) => sum + f.file.size, 0);
  if (bytes > CDN_PUBLISH_MAX_BYTES) throw new PickProblem('operator.cdn.problem.tooLarge', { max: CDN_PUBLISH_MAX_BYTES / 1024 / 1024 });
  const listing = inside.find((f) => f.path === 'files.json');
  if (!listing) throw new PickProblem('operator.cdn.problem.noFilesJson');
  let named: string | undefined;
  try {
    named = Object.keys(JSON.parse(await listing.file.text()) as Record<string, unknown>)[0];
  } catch {
    throw new PickProblem('operator.cdn.problem.noFilesJson');
  }
  const [bundle, listedVersion] = (named ?? '').split('/');
  if (!bundle || !isBundle(bundle) || listedVersion !== version || (bundleFromPath && bundleFromPath !== bundle)) throw new PickProblem('operator.cdn.problem.notVersionFolder', { folder: version });
  return { bundle, version, files: inside.sort((a, b) => a.path.localeCompare(b.path)), bytes };
}

/** Base64 of bytes, in slices (String.fromCharCode takes a bounded number of arguments). */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The publish body of a picked folder. */
export async function publishBody(picked: PickedVersion): Promise<CdnPublishBody> {
  const files: Record<string, string> = {};
  for (const { path, file } of picked.files) files[path] = toBase64(new Uint8Array(await file.arrayBuffer()));
  return { bundle: picked.bundle, version: picked.version, files };
}
