/**
 * The live manifest (issue 18): the build's cdn-manifest.json with each bundle's default taken from
 * its rollout, plus previous, canary, hashed tenant pins and the descriptors of the versions those
 * name. Every named version is verified (once per folder) before a manifest goes live; one that
 * fails is refused and the last good manifest stays, logged once per distinct problem.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { CDN_ROLLOUT_REFRESH, type CdnManifest, type CdnManifestBundle, type CdnVersionDescriptor } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Db } from '../../db';
import { MANIFEST_FILE, readBaseManifest, readRollouts, type BundleRollout } from './rollouts';
import type { VersionCache } from './version-folder';

const brotli = promisify(brotliCompress);
const gzip9 = promisify(gzip);

/** `pins` key: base64url (no padding) of SHA-256 of the UTF-8 tenant id; tenant ids are not published. */
export const pinKey = (tenantId: string) => createHash('sha256').update(tenantId, 'utf8').digest('base64url');

/** Renders the manifest of these rollouts; throws (naming the bundle and version) when one does not verify. */
export async function renderManifest(baseVersion: string, rollouts: BundleRollout[], versions: VersionCache): Promise<CdnManifest> {
  const describe = async (bundle: BundleRollout['bundle'], version: string, role: string): Promise<CdnVersionDescriptor> => {
    try {
      return (await versions.get(bundle, version)).descriptor;
    } catch (error) {
      throw new Error(`${bundle} ${version} (${role}): ${(error as Error).message}`);
    }
  };
  const manifest: CdnManifest = { version: baseVersion, bundles: {} };
  for (const r of rollouts) {
    const out: CdnManifestBundle = { ...(await describe(r.bundle, r.default, 'default')) };
    if (r.previous) {
      await describe(r.bundle, r.previous, 'previous');
      out.previous = r.previous;
    }
    const named: Record<string, CdnVersionDescriptor> = {};
    if (r.canary) {
      named[r.canary.version] ??= await describe(r.bundle, r.canary.version, 'canary');
      out.canary = { version: r.canary.version, percent: r.canary.percent };
    }
    if (r.pins.length) {
      out.pins = {};
      for (const pin of r.pins) {
        named[pin.version] ??= await describe(r.bundle, pin.version, 'pinned');
        out.pins[pinKey(pin.tenantId)] = pin.version;
      }
    }
    if (Object.keys(named).length) out.versions = named;
    manifest.bundles[r.bundle] = out;
  }
  return manifest;
}

/** The manifest as served: its bytes in each coding, with a validator. */
export interface ServedManifest {
  /** Null for the file on disk served as it is (no rendered manifest verified yet). */
  manifest: CdnManifest | null;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
  /** A tag of the content (the same bytes in every process). */
  tag: string;
}

async function serve(manifest: CdnManifest | null, identity: Buffer = Buffer.from(JSON.stringify(manifest))): Promise<ServedManifest> {
  const [br, gz] = await Promise.all([brotli(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT } }), gzip9(identity, { level: 9 })]);
  return { manifest, identity, br, gzip: gz, tag: createHash('sha256').update(identity).digest('base64url').slice(0, 22) };
}

/**
 * The live manifest, re-read at most every CDN_ROLLOUT_REFRESH seconds (and at once after a change
 * made by this process). `current()` answers the last good one while a newer one fails. Until one
 * verifies (a process that starts on a broken rollout), the last good one is cdn-manifest.json as
 * the build or the last CLI change wrote it (both write only what verified), served as it is; the
 * browser's SRI still guards every file. It throws only when that file is missing too.
 */
export function createLiveManifest(deps: { db: Db; clock: Clock; cdnDir: string; versions: VersionCache; log: (message: string) => void }) {
  let good: ServedManifest | null = null;
  let checkedAt = -Infinity;
  let pending: Promise<void> | null = null;
  let lastProblem = '';
  let firstError: Error | null = null;
  let onDisk: { stamp: string; served: ServedManifest } | null = null;

  async function fromDisk(): Promise<ServedManifest> {
    const file = path.join(deps.cdnDir, MANIFEST_FILE);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) throw firstError ?? new Error(`${MANIFEST_FILE} is missing`);
    const stamp = `${info.ino}:${info.size}:${info.mtimeMs}`;
    if (onDisk?.stamp !== stamp) onDisk = { stamp, served: await serve(null, await readFile(file)) };
    return onDisk.served;
  }

  async function refresh(): Promise<void> {
    try {
      const base = await readBaseManifest(deps.cdnDir);
      const manifest = await renderManifest(base.version, await readRollouts(deps.db, base), deps.versions);
      const body = JSON.stringify(manifest);
      if (!good || good.identity.toString('utf8') !== body) good = await serve(manifest);
      lastProblem = '';
      firstError = null;
    } catch (error) {
      const problem = (error as Error).message;
      // Logged once per problem, not per request: the next refresh usually meets the same one.
      if (problem !== lastProblem) deps.log(`cdn: the manifest was refused${good ? ', the last good one stays live' : ''}: ${problem}`);
      lastProblem = problem;
      firstError = error as Error;
    } finally {
      checkedAt = deps.clock.now();
    }
  }

  return {
    async current(): Promise<ServedManifest> {
      if (deps.clock.now() - checkedAt >= CDN_ROLLOUT_REFRESH * 1000) await (pending ??= refresh().finally(() => (pending = null)));
      return good ?? fromDisk();
    },
    /** Renders now, for a change this process just made (the next request sees it). */
    async refreshNow(): Promise<void> {
      await pending;
      await (pending = refresh().finally(() => (pending = null)));
    },
    /** The problem that refused the newest manifest, '' when it went live. */
    problem: () => lastProblem,
  };
}
export type LiveManifest = ReturnType<typeof createLiveManifest>;
