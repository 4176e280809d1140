/**
 * The rollout state of each bundle (issue 18): default, previous default, canary, tenant pins. It
 * lives in the database (migration 042) so every server process agrees; a bundle without a row
 * serves the version the build's cdn-manifest.json names. Every change writes an operator audit
 * row with the old and new rollout, in the same transaction.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CDN_BUNDLES, type CdnBundle } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Db } from '../../db';
import { auditTenantOf } from '../../db/queries/audits';
import { findCdnRollout, firstSuperUser, listCdnPins, listCdnRollouts, saveCdnRollout, type CdnRolloutValues } from '../../db/queries/cdn-rollouts';
import type { AdminCaller } from '../admin/access';
import { recordAudit, type AuditActor } from '../admin/audit-log';
import { OperatorAuditActions, type OperatorAuditAction } from '../operator/audit';
import { CdnErrors } from './errors';
import { isBundle, isVersion } from './version-folder';

export const MANIFEST_FILE = 'cdn-manifest.json';

export interface BundleRollout {
  bundle: CdnBundle;
  default: string;
  previous: string | null;
  canary: { version: string; percent: number } | null;
  pins: Array<{ tenantId: string; version: string }>;
  /** The row's revision; 0 while the bundle has no row (it follows the build). */
  revision: number;
}

/** What the build's cdn-manifest.json says: its version and each bundle's default. */
export interface BaseManifest {
  version: string;
  defaults: Partial<Record<CdnBundle, string>>;
}

/** Thrown for a cdn-manifest.json that is missing, not JSON, or names an unknown bundle or a bad version. */
export class BaseManifestError extends Error {}

/** Reads `<cdnDir>/cdn-manifest.json`; only the versions count (descriptors come from the folders). */
export async function readBaseManifest(cdnDir: string): Promise<BaseManifest> {
  const text = await readFile(path.join(cdnDir, MANIFEST_FILE), 'utf8').catch(() => null);
  if (text === null) throw new BaseManifestError(`${MANIFEST_FILE} is missing in the CDN folder (run npm run build)`);
  let parsed: { version?: unknown; bundles?: Record<string, { version?: unknown }> };
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new BaseManifestError(`${MANIFEST_FILE} is not JSON`);
  }
  if (!parsed || typeof parsed !== 'object' || typeof parsed.version !== 'string' || !parsed.bundles || typeof parsed.bundles !== 'object') throw new BaseManifestError(`${MANIFEST_FILE} needs a version and bundles`);
  const defaults: BaseManifest['defaults'] = {};
  for (const [name, entry] of Object.entries(parsed.bundles)) {
    if (!isBundle(name)) throw new BaseManifestError(`${MANIFEST_FILE} names an unknown bundle "${name.slice(0, 80)}"`);
    const version = entry?.version;
    if (typeof version !== 'string' || !isVersion(version)) throw new BaseManifestError(`${MANIFEST_FILE}: ${name} has no valid version`);
    defaults[name] = version;
  }
  return { version: parsed.version.slice(0, 64), defaults };
}

/** Every bundle the build or a rollout names, in CDN_BUNDLES order. */
export async function readRollouts(db: Db, base: BaseManifest): Promise<BundleRollout[]> {
  const [rows, pins] = await Promise.all([listCdnRollouts(db), listCdnPins(db)]);
  const result: BundleRollout[] = [];
  for (const bundle of CDN_BUNDLES) {
    const row = rows.find((r) => r.bundle === bundle);
    const fallback = base.defaults[bundle];
    if (!row && !fallback) continue;
    result.push({
      bundle,
      default: row?.default_version ?? fallback!,
      previous: row?.previous_version ?? null,
      canary: row?.canary_version ? { version: row.canary_version, percent: row.canary_percent ?? 1 } : null,
      pins: pins.filter((p) => p.bundle === bundle).map((p) => ({ tenantId: p.tenant_id, version: p.version })),
      revision: row?.revision ?? 0,
    });
  }
  return result;
}

/** One bundle's rollout, read in `db` (a transaction when changing it). */
export async function readRollout(db: Db, base: BaseManifest | null, bundle: CdnBundle): Promise<BundleRollout> {
  const [row, pins] = await Promise.all([findCdnRollout(db, bundle), listCdnPins(db, bundle)]);
  const fallback = base?.defaults[bundle];
  if (!row && !fallback) throw CdnErrors.invalidManifest(base ? `names no version of ${bundle}, so it has no default yet` : 'is missing or invalid, so a bundle without a rollout has no default');
  return {
    bundle,
    default: row?.default_version ?? fallback!,
    previous: row?.previous_version ?? null,
    canary: row?.canary_version ? { version: row.canary_version, percent: row.canary_percent ?? 1 } : null,
    pins: pins.map((p) => ({ tenantId: p.tenant_id, version: p.version })),
    revision: row?.revision ?? 0,
  };
}

/** Who made a change: an operator over the API, or the CLI (audited in the first super user's tenant). */
export type CdnActor = AdminCaller | 'cli';

/** The public view of a rollout, as audit rows record it. */
export const rolloutView = (r: BundleRollout) => ({ default: r.default, previous: r.previous, canary: r.canary, pins: r.pins });

async function actorFor(db: Db, actor: CdnActor): Promise<AuditActor | AdminCaller | null> {
  if (actor !== 'cli') return actor;
  const operator = await firstSuperUser(db);
  const tenantId = operator ? await auditTenantOf(db, operator.id, operator.last_tenant_id) : null;
  return tenantId ? { tenantId, userId: null, email: null, ip: null, userAgent: 'gatehouse CLI' } : null;
}

/** Writes the change's audit row; the CLI's is skipped only when no super user with a tenant exists. */
export async function auditCdn(db: Db, clock: Clock, actor: CdnActor, action: OperatorAuditAction, description: string, json: Record<string, unknown>): Promise<boolean> {
  const who = await actorFor(db, actor);
  if (!who) return false;
  await recordAudit(db, who, { action, description: actor === 'cli' ? `${description} (from the command line)` : description, json }, clock.now());
  return true;
}

/**
 * Changes one bundle's rollout: `change` gets the current rollout (read in the transaction) and
 * returns the new values, or null for no change. Retried when another change wins the revision.
 */
export async function changeRollout(
  deps: { db: Db; clock: Clock },
  base: BaseManifest | null,
  bundle: CdnBundle,
  actor: CdnActor,
  action: OperatorAuditAction,
  change: (current: BundleRollout, trx: Db) => Promise<{ values: CdnRolloutValues; description: string; after?: (trx: Db) => Promise<void> } | null>,
): Promise<{ before: BundleRollout; after: BundleRollout; changed: boolean; audited: boolean }> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const outcome = await deps.db.transaction().execute(async (trx) => {
      const before = await readRollout(trx, base, bundle);
      const next = await change(before, trx);
      if (!next) return { before, after: before, changed: false, audited: false };
      if (!(await saveCdnRollout(trx, bundle, before.revision, next.values, deps.clock.now()))) return null;
      await next.after?.(trx);
      const after = await readRollout(trx, base, bundle);
      const audited = await auditCdn(trx, deps.clock, actor, action, next.description, { bundle, old: rolloutView(before), new: rolloutView(after) });
      return { before, after, changed: true, audited };
    });
    if (outcome) return outcome;
  }
  throw CdnErrors.versionConflict(`${bundle}: the rollout kept changing under this change; try again`);
}

export const valuesOf = (r: BundleRollout): CdnRolloutValues => ({ default_version: r.default, previous_version: r.previous, canary_version: r.canary?.version ?? null, canary_percent: r.canary?.percent ?? null });

