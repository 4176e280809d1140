/**
 * The CDN rollouts (issue 18): one service behind the operator API and the CLI. Versions are
 * folders in the CDN folder (version-folder.ts, publish.ts); the rollout of each bundle is in the
 * database (rollouts.ts); the live manifest is rendered from both (manifest.ts).
 */
import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CdnBundle, CdnPromoteBody, CdnPublishBody, CdnPruneResponse, CdnVersionsResponse, CdnVersionState } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Db } from '../../db';
import { deleteCdnPin, existingTenantIds, upsertCdnPin } from '../../db/queries/cdn-rollouts';
import { log as serverLog } from '../../log';
import { OperatorAuditActions } from '../operator/audit';
import { CdnErrors } from './errors';
import { createLiveManifest, type LiveManifest } from './manifest';
import { publishedVersions, publishVersion, removeVersion, type PublishOutcome } from './publish';
import { UploadError, withStagedUpload } from './publish-upload';
import { auditCdn, BaseManifestError, changeRollout, MANIFEST_FILE, readBaseManifest, readRollouts, valuesOf, type BaseManifest, type BundleRollout, type CdnActor } from './rollouts';
import { createVersionCache, VersionFolderError } from './version-folder';

export { pinKey } from './manifest';

/** A staged folder's messages name the version folder, not the server's temporary path. */
const stagedMessage = (message: string, dir: string) => message.split(dir).join(path.basename(path.dirname(dir)) + '/' + path.basename(dir));
export type { CdnActor } from './rollouts';

export interface CdnService {
  /** The manifest the server serves at /cdn/cdn-manifest.json. */
  live: LiveManifest;
  versions(bundle?: CdnBundle): Promise<CdnVersionsResponse>;
  promote(actor: CdnActor, bundle: CdnBundle, body: CdnPromoteBody): Promise<CdnVersionsResponse['bundles'][number]>;
  rollback(actor: CdnActor, bundle: CdnBundle): Promise<CdnVersionsResponse['bundles'][number]>;
  removeCanary(actor: CdnActor, bundle: CdnBundle): Promise<void>;
  unpin(actor: CdnActor, bundle: CdnBundle, tenantId: string): Promise<void>;
  prune(actor: CdnActor, keep: number): Promise<CdnPruneResponse>;
  publish(actor: CdnActor, source: string): Promise<PublishOutcome & { audited: boolean }>;
  /**
   * Publishes a version sent over the API: its files are staged in a temporary folder and published
   * by `publish`, with all its checks; a folder that does not verify is a 400 naming `files`.
   */
  publishUpload(actor: CdnActor, upload: CdnPublishBody): Promise<PublishOutcome & { audited: boolean }>;
  /** Writes the live manifest (and its .br/.gz) into the CDN folder for a static host; refused when it does not verify. */
  writeManifest(): Promise<string>;
}

export function createCdnService(deps: { db: Db; clock: Clock; cdnDir: string; log?: (message: string) => void }): CdnService {
  const { db, clock } = deps;
  const cdnDir = path.resolve(deps.cdnDir);
  const versionCache = createVersionCache(cdnDir);
  const live = createLiveManifest({ db, clock, cdnDir, versions: versionCache, log: deps.log ?? ((m) => serverLog.warn(m)) });

  const base = () => readBaseManifest(cdnDir).catch((error) => {
    if (error instanceof BaseManifestError) return null;
    throw error;
  });

  /** The version must be published and verify before any rollout may name it. */
  async function verified(bundle: CdnBundle, version: string) {
    try {
      return await versionCache.get(bundle, version);
    } catch (error) {
      if (!(error instanceof VersionFolderError)) throw error;
      if (/does not exist$/.test(error.message)) throw CdnErrors.versionNotFound(bundle, version);
      throw CdnErrors.invalidVersion(error.message);
    }
  }

  async function describeBundle(r: BundleRollout): Promise<CdnVersionsResponse['bundles'][number]> {
    const published = await publishedVersions(cdnDir, r.bundle);
    const versions = [];
    for (const v of published) {
      const state: CdnVersionState[] = [];
      if (v.version === r.default) state.push('default');
      if (r.canary?.version === v.version) state.push('canary');
      if (r.pins.some((p) => p.version === v.version)) state.push('pinned');
      if (r.previous === v.version) state.push('previous');
      if (!state.length) state.push('unused');
      // A folder that does not verify is listed with 0 bytes: it cannot be promoted anyway.
      const wireBytes = await versionCache.get(r.bundle, v.version).then((x) => x.wireBytes, () => 0);
      versions.push({ version: v.version, state, wireBytes, publishedAt: v.publishedAt });
    }
    return { bundle: r.bundle, default: r.default, previous: r.previous, canary: r.canary, pins: r.pins.map((p) => ({ tenantId: p.tenantId, version: p.version })), versions };
  }

  /** The one publish of the CLI and the API; `refused` maps a folder that does not verify. */
  async function publish(actor: CdnActor, source: string, refused: (error: VersionFolderError) => Error) {
    let outcome: PublishOutcome;
    try {
      outcome = await publishVersion(cdnDir, source, (message) => CdnErrors.versionConflict(message));
    } catch (error) {
      if (error instanceof VersionFolderError) throw refused(error);
      throw error;
    }
    const audited = outcome.outcome === 'published' && (await auditCdn(db, clock, actor, OperatorAuditActions.cdnPublished, `${outcome.bundle} ${outcome.version} published (${outcome.files} files)`, { bundle: outcome.bundle, old: null, new: { version: outcome.version, files: outcome.files, wireBytes: outcome.wireBytes } }));
    return { ...outcome, audited };
  }

  const changed = async <T>(result: T): Promise<T> => {
    await live.refreshNow();
    return result;
  };

  return {
    live,
    async versions(bundle) {
      const rollouts = await readRollouts(db, (await base()) ?? { version: '', defaults: {} });
      const chosen = bundle ? rollouts.filter((r) => r.bundle === bundle) : rollouts;
      if (bundle && !chosen.length) throw CdnErrors.invalidManifest(`names no version of ${bundle}`);
      return { bundles: await Promise.all(chosen.map(describeBundle)) };
    },

    async promote(actor, bundle, body) {
      await verified(bundle, body.version);
      const b = await base();
      const { after } = await changeRollout({ db, clock }, b, bundle, actor, OperatorAuditActions.cdnPromoted, async (current, trx) => {
        if (body.tenants) {
          const tenants = [...new Set(body.tenants)];
          const known = await existingTenantIds(trx, tenants);
          const unknown = tenants.filter((t) => !known.has(t));
          if (unknown.length) throw CdnErrors.field('tenants', `no tenant ${unknown.slice(0, 5).join(', ')}`);
          if (tenants.every((t) => current.pins.some((p) => p.tenantId === t && p.version === body.version))) return null;
          return {
            values: valuesOf(current),
            description: `${bundle} ${body.version} pinned for ${tenants.length} tenant(s)`,
            after: async (tx) => {
              for (const tenantId of tenants) await upsertCdnPin(tx, { bundle, tenant_id: tenantId, version: body.version, created_at: clock.now() });
            },
          };
        }
        if (body.percent !== undefined) {
          if (body.version === current.default) throw CdnErrors.field('version', `${body.version} is already the default of ${bundle}; a canary is another version`);
          if (current.canary?.version === body.version && current.canary.percent === body.percent) return null;
          return { values: { ...valuesOf(current), canary_version: body.version, canary_percent: body.percent }, description: `${bundle} ${body.version} is the canary for ${body.percent}% of users` };
        }
        if (body.version === current.default) return null;
        const canary = current.canary?.version === body.version ? null : current.canary;
        return {
          values: { default_version: body.version, previous_version: current.default, canary_version: canary?.version ?? null, canary_percent: canary?.percent ?? null },
          description: `${bundle} ${body.version} is the default (was ${current.default})`,
        };
      });
      return changed(await describeBundle(after));
    },

    async rollback(actor, bundle) {
      const b = await base();
      const { after } = await changeRollout({ db, clock }, b, bundle, actor, OperatorAuditActions.cdnRolledBack, async (current) => {
        if (!current.previous) throw CdnErrors.noPrevious(bundle);
        await verified(bundle, current.previous);
        // previous is cleared: rolling back twice must not bring the bad version back.
        const canary = current.canary?.version === current.previous ? null : current.canary;
        return {
          values: { default_version: current.previous, previous_version: null, canary_version: canary?.version ?? null, canary_percent: canary?.percent ?? null },
          description: `${bundle} rolled back from ${current.default} to ${current.previous}`,
        };
      });
      return changed(await describeBundle(after));
    },

    async removeCanary(actor, bundle) {
      await changeRollout({ db, clock }, await base(), bundle, actor, OperatorAuditActions.cdnCanaryRemoved, async (current) => {
        if (!current.canary) throw CdnErrors.noCanary(bundle);
        return { values: { ...valuesOf(current), canary_version: null, canary_percent: null }, description: `${bundle} canary ${current.canary.version} removed` };
      });
      await changed(undefined);
    },

    async unpin(actor, bundle, tenantId) {
      await changeRollout({ db, clock }, await base(), bundle, actor, OperatorAuditActions.cdnPinRemoved, async (current) => {
        const pin = current.pins.find((p) => p.tenantId === tenantId);
        if (!pin) throw CdnErrors.noPin(bundle, tenantId);
        return { values: valuesOf(current), description: `${bundle}: tenant ${tenantId} no longer pinned to ${pin.version}`, after: async (tx) => void (await deleteCdnPin(tx, bundle, tenantId)) };
      });
      await changed(undefined);
    },

    async prune(actor, keep) {
      const b = (await base()) ?? { version: '', defaults: {} };
      const rollouts = await readRollouts(db, b);
      const removed: CdnPruneResponse['removed'] = [];
      for (const r of rollouts) {
        // Never one the manifest names, nor the build's own default.
        const named = new Set([r.default, r.previous, r.canary?.version, ...r.pins.map((p) => p.version), b.defaults[r.bundle]].filter(Boolean));
        const published = await publishedVersions(cdnDir, r.bundle);
        for (const v of published.slice(keep)) {
          if (named.has(v.version)) continue;
          await removeVersion(cdnDir, r.bundle, v.version);
          versionCache.forget(r.bundle, v.version);
          removed.push({ bundle: r.bundle, version: v.version });
        }
      }
      if (removed.length) await auditCdn(db, clock, actor, OperatorAuditActions.cdnPruned, `${removed.length} unused CDN version(s) removed, keeping the newest ${keep} of each bundle`, { keep, removed });
      return changed({ removed });
    },

    publish: (actor, source) => publish(actor, source, (error) => CdnErrors.versionConflict(`refused, nothing changed: ${error.message}`)),

    async publishUpload(actor, upload) {
      try {
        return await withStagedUpload(upload, (dir) => publish(actor, dir, (error) => CdnErrors.field('files', `refused, nothing changed: ${stagedMessage(error.message, dir)}`)));
      } catch (error) {
        if (error instanceof UploadError) throw CdnErrors.field(error.field, error.message);
        throw error;
      }
    },

    async writeManifest() {
      await live.refreshNow();
      if (live.problem()) throw CdnErrors.invalidManifest(`not written, it does not verify: ${live.problem()}`);
      const served = await live.current();
      const target = path.join(cdnDir, MANIFEST_FILE);
      // The manifest first, then its .br and .gz: a sibling is never older than its file (routes/platform/cdn.ts).
      for (const [suffix, bytes] of [['', served.identity], ['.br', served.br], ['.gz', served.gzip]] as const) {
        const temp = `${target}${suffix}.${randomBytes(6).toString('hex')}.tmp`;
        try {
          await writeFile(temp, bytes);
          await rename(temp, target + suffix);
        } finally {
          await rm(temp, { force: true });
        }
      }
      return target;
    },
  };
}

export type { BaseManifest };
