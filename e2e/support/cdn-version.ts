/**
 * A real new version of the built login box for the CDN e2e tests (issue 18): the built one
 * (`<from>/login-box/<base>`) copied under a new version, as the build would leave it.
 */
import { createHash } from 'node:crypto';
import { cpSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

const sri = (bytes: Buffer) => 'sha384-' + createHash('sha384').update(bytes).digest('base64');
const walk = (dir: string): string[] => readdirSync(dir).flatMap((name) => (name.startsWith('.') ? [] : statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)]));

/** Writes `bytes` with its brotli and gzip copies, as the build leaves every CDN file. */
export function writeCoded(path: string, bytes: Buffer): void {
  writeFileSync(path, bytes);
  writeFileSync(path + '.br', brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }));
  writeFileSync(path + '.gz', gzipSync(bytes, { level: 9 }));
}

/**
 * Writes `<sources>/login-box/<version>`: the files of `<from>/login-box/<base>` under the new
 * version's folder with a line naming the version added to its entry (so its bytes differ),
 * files.json and lazy-files.json listing the new paths with their hashes, and every compressed copy
 * written again. Answers the folder.
 */
export function loginBoxVersion(from: string, base: string, sources: string, version: string): string {
  const dir = join(sources, 'login-box', version);
  cpSync(join(from, 'login-box', base), dir, { recursive: true, filter: (src) => !src.split('/').pop()!.startsWith('.') });
  const prefix = (v: string) => `login-box/${v}/`;
  const rename = (list: Record<string, string>) => Object.fromEntries(Object.entries(list).map(([path, hash]) => [path.replace(prefix(base), prefix(version)), hash]));
  writeCoded(join(dir, 'remoteEntry.js'), Buffer.concat([readFileSync(join(dir, 'remoteEntry.js')), Buffer.from(`\n/* login-box ${version} */\n`)]));
  const lazy = rename(JSON.parse(readFileSync(join(dir, 'lazy-files.json'), 'utf8')) as Record<string, string>);
  writeCoded(join(dir, 'lazy-files.json'), Buffer.from(JSON.stringify(lazy) + '\n'));
  const files: Record<string, string> = {};
  for (const file of walk(dir).sort()) if (!/\.(br|gz)$/.test(file) && !file.endsWith('/files.json')) files[`login-box/${version}/${relative(dir, file)}`] = sri(readFileSync(file));
  writeCoded(join(dir, 'files.json'), Buffer.from(JSON.stringify(files) + '\n'));
  return dir;
}
