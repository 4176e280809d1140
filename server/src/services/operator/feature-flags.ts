/**
 * Feature flags with targeting rules (issue 13): while a flag's treatment for a caller is 'true',
 * it grants the features linked to it. The key is unique (409 ER-04003); rules must fit their
 * operations (400 ER-04005); a feature is linked to one flag at most (the entitlement context
 * carries one `featureFlag` per feature), so linking a feature another flag holds is 409 ER-04006
 * naming that flag.
 */
import type { Rule } from '@gatehouse/shared/entitlements';
import type { FeatureFlag, FeatureFlagBody } from '@gatehouse/shared/wire';
import type { z } from 'zod';
import type { Clock } from '../../clock';
import { newId } from '../../crypto';
import type { Db } from '../../db';
import { findFeaturesByKeys } from '../../db/queries/features';
import { deleteFeatureFlag, findFeatureFlag, findFeatureFlagByKey, findFlagLinks, insertFeatureFlag, listFeatureFlags, listFlagFeatures, setFlagFeatures, updateFeatureFlag, type FeatureFlagRow } from '../../db/queries/feature-flags';
import { isUniqueViolation } from '../../db/unique-violation';
import type { AdminCaller } from '../admin/access';
import { OperatorAuditActions, recordOperatorAudit } from './audit';
import { OperatorErrors } from './errors';
import { assertValidRules } from './rules';

type Body = z.infer<typeof FeatureFlagBody>;

export interface FeatureFlagService {
  list(): Promise<FeatureFlag[]>;
  get(id: string): Promise<FeatureFlag>;
  create(caller: AdminCaller, body: Body): Promise<FeatureFlag>;
  update(caller: AdminCaller, id: string, patch: Partial<Body>): Promise<FeatureFlag>;
  remove(caller: AdminCaller, id: string): Promise<void>;
}

function toWire(row: FeatureFlagRow, links: { flag_id: string; feature_key: string }[]): FeatureFlag {
  return {
    id: row.id,
    key: row.key,
    name: row.name,
    description: row.description,
    on: Number(row.is_on) === 1,
    offTreatment: row.off_treatment,
    defaultTreatment: row.default_treatment,
    rules: JSON.parse(row.rules) as Rule[],
    featureKeys: links.filter((l) => l.flag_id === row.id).map((l) => l.feature_key),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

const audited = ({ createdAt: _c, updatedAt: _u, ...rest }: FeatureFlag) => rest;

export function createFeatureFlagService(deps: { db: Db; clock: Clock }): FeatureFlagService {
  const { db, clock } = deps;

  async function read(executor: Db, id: string): Promise<FeatureFlag> {
    const row = await findFeatureFlag(executor, id);
    if (!row) throw OperatorErrors.notFound('Feature flag');
    return toWire(row, await listFlagFeatures(executor, [id]));
  }

  async function assertKeyFree(executor: Db, key: string, exceptId?: string) {
    const taken = await findFeatureFlagByKey(executor, key);
    if (taken && taken.id !== exceptId) throw OperatorErrors.keyTaken('a feature flag with the key', key);
  }

  /** The ids of the features to link: each must exist, once, and be free of any other flag. */
  async function resolveFeatures(executor: Db, flagId: string, keys: string[]): Promise<string[]> {
    const rows = await findFeaturesByKeys(executor, keys);
    const ids = keys.map((key, i) => {
      if (keys.indexOf(key) !== i) throw OperatorErrors.field(`featureKeys[${i}]`, `"${key}" is listed twice`);
      const row = rows.find((r) => r.key === key);
      if (!row) throw OperatorErrors.field(`featureKeys[${i}]`, `no feature with the key "${key}"`);
      return row.id;
    });
    const held = (await findFlagLinks(executor, ids)).find((link) => link.flag_id !== flagId);
    if (held) {
      const key = rows.find((r) => r.id === held.feature_id)!.key;
      throw OperatorErrors.inUse(`featureKeys[${keys.indexOf(key)}]: feature "${key}" is already linked to the feature flag "${held.flag_key}"; a feature is linked to one flag at most (unlink it there first)`, { field: `featureKeys[${keys.indexOf(key)}]`, featureKey: key, flagKey: held.flag_key });
    }
    return ids;
  }

  /** A unique index refused the write: another operator took the key, or linked one of the features, meanwhile. */
  const race = (flagId: string, key: string | undefined) => async (error: unknown): Promise<never> => {
    if (!isUniqueViolation(error)) throw error;
    const holder = key ? await findFeatureFlagByKey(db, key) : undefined;
    if (key && holder && holder.id !== flagId) throw OperatorErrors.keyTaken('a feature flag with the key', key);
    throw OperatorErrors.inUse('featureKeys: a feature was linked to another flag meanwhile; reload and try again');
  };

  return {
    async list() {
      const rows = await listFeatureFlags(db);
      const links = await listFlagFeatures(db, rows.map((r) => r.id));
      return rows.map((row) => toWire(row, links));
    },
    get: (id) => read(db, id),

    async create(caller, body) {
      assertValidRules(body.rules);
      const id = newId();
      await db
        .transaction()
        .execute(async (trx) => {
          await assertKeyFree(trx, body.key);
          const featureIds = await resolveFeatures(trx, id, body.featureKeys ?? []);
          const now = clock.now();
          await insertFeatureFlag(trx, {
            id,
            key: body.key,
            name: body.name,
            description: body.description ?? '',
            is_on: body.on ? 1 : 0,
            off_treatment: body.offTreatment ?? 'false',
            default_treatment: body.defaultTreatment ?? 'false',
            rules: JSON.stringify(body.rules ?? []),
            created_at: now,
            updated_at: now,
          });
          await setFlagFeatures(trx, id, featureIds);
          const flag = await read(trx, id);
          await recordOperatorAudit(trx, clock, caller, OperatorAuditActions.flagCreated, `Feature flag "${flag.key}" created`, { flagId: id, new: audited(flag) });
        })
        .catch(race(id, body.key));
      return read(db, id);
    },

    async update(caller, id, patch) {
      assertValidRules(patch.rules);
      await db
        .transaction()
        .execute(async (trx) => {
          const before = await read(trx, id);
          if (patch.key !== undefined && patch.key !== before.key) await assertKeyFree(trx, patch.key, id);
          const featureIds = patch.featureKeys ? await resolveFeatures(trx, id, patch.featureKeys) : undefined;
          await updateFeatureFlag(trx, id, {
            key: patch.key,
            name: patch.name,
            description: patch.description,
            is_on: patch.on === undefined ? undefined : patch.on ? 1 : 0,
            off_treatment: patch.offTreatment,
            default_treatment: patch.defaultTreatment,
            rules: patch.rules ? JSON.stringify(patch.rules) : undefined,
            updated_at: clock.now(),
          });
          if (featureIds) await setFlagFeatures(trx, id, featureIds);
          const after = await read(trx, id);
          await recordOperatorAudit(trx, clock, caller, OperatorAuditActions.flagUpdated, `Feature flag "${after.key}" updated`, { flagId: id, old: audited(before), new: audited(after) });
        })
        .catch(race(id, patch.key));
      return read(db, id);
    },

    async remove(caller, id) {
      await db.transaction().execute(async (trx) => {
        const before = await read(trx, id);
        await deleteFeatureFlag(trx, id);
        await recordOperatorAudit(trx, clock, caller, OperatorAuditActions.flagDeleted, `Feature flag "${before.key}" deleted`, { flagId: id, old: audited(before) });
      });
    },
  };
}
