/**
 * Publishing over the operator API (issue 18): the body's files are written into a fresh staging
 * folder `<tmp>/gatehouse-publish-…/<bundle>/<version>/`, which `cdn.publish` then checks and copies
 * exactly as it does a folder named on the command line. The staging folder is removed in every case.
 * The wire schema (CdnPublishBody) already refused odd names, counts and sizes; every check is made
 * again here, since this is the code that touches the disk.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { base64Bytes, CDN_PUBLISH_MAX_BYTES, CDN_PUBLISH_MAX_FILES, CDN_PUBLISH_PATH, type CdnPublishBody } from '@gatehouse/shared/wire';
import { isBundle, isVersion } from './version-folder';

/** Why an upload is refused before anything is written; `field` is the body field it names. */
export class UploadError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** Writes the upload into a new staging folder and runs `use` on `<staging>/<bundle>/<version>`; always removes the staging folder. */
export async function withStagedUpload<T>(upload: CdnPublishBody, use: (dir: string) => Promise<T>, root = tmpdir()): Promise<T> {
  const { bundle, version, files } = upload;
  if (!isBundle(bundle)) throw new UploadError('bundle', 'not a bundle');
  if (!isVersion(version)) throw new UploadError('version', 'not a version');
  const names = Object.keys(files);
  if (names.length === 0 || names.length > CDN_PUBLISH_MAX_FILES) throw new UploadError('files', `from 1 to ${CDN_PUBLISH_MAX_FILES} files`);
  let total = 0;
  const lower = new Set<string>();
  for (const name of names) {
    if (!CDN_PUBLISH_PATH.test(name)) throw new UploadError(`files.${name.slice(0, 80)}`, 'not a path inside the version folder');
    if (lower.has(name.toLowerCase())) throw new UploadError(`files.${name}`, 'named twice');
    lower.add(name.toLowerCase());
    total += base64Bytes(files[name]!);
  }
  if (total > CDN_PUBLISH_MAX_BYTES) throw new UploadError('files', `at most ${CDN_PUBLISH_MAX_BYTES} bytes decoded`);

  const staging = await mkdtemp(path.join(root, 'gatehouse-publish-'));
  try {
    const dir = path.join(staging, bundle, version);
    await mkdir(dir, { recursive: true });
    for (const name of names) {
      const target = path.resolve(dir, name);
      if (!target.startsWith(dir + path.sep)) throw new UploadError(`files.${name}`, 'not a path inside the version folder');
      try {
        await mkdir(path.dirname(target), { recursive: true });
        // 'wx': never through an existing entry (a name given twice, or a file that is also a folder).
        await writeFile(target, Buffer.from(files[name]!, 'base64'), { flag: 'wx' });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EEXIST' || code === 'EISDIR' || code === 'ENOTDIR') throw new UploadError(`files.${name}`, 'clashes with another file of the upload (a file that is also a folder?)');
        throw error;
      }
    }
    return await use(dir);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
