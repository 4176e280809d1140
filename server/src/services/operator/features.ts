/**
 * Entitlement features (issue 13): what plans, flags and direct grants give, and the permission
 * keys each gates (a permission linked to a feature is entitled only with the feature; seed 000
 * section 6). The key is unique (409 ER-04003). Deleting a feature removes it from every plan, its
 * flag and every direct grant (the audit record lists what it was unlinked from).
 */
import type { Feature } from '@gatehouse/shared/wire';
import type { FeatureBody } from '@gatehouse/shared/wire';
import type { z } from 'zod';
import type { Clock } from '../../clock';
import { newId } from '../../crypto';
import type { Db } from '../../db';
import { deleteFeature, featureUsage, findFeature, findFeatureByKey, insertFeature, listFeatures, updateFeature, type FeatureRow } from '../../db/queries/features';
import { isUniqueViolation } from '../../db/unique-violation';
import type { AdminCaller } from '../admin/access';
import { OperatorAuditActions, recordOperatorAudit } from './audit';
import { OperatorErrors } from './errors';

type Body = z.infer<typeof FeatureBody>;

export interface FeatureService {
  list(): Promise<Feature[]>;
  get(id: string): Promise<Feature>;
  create(caller: AdminCaller, body: Body): Promise<Feature>;
  update(caller: AdminCaller, id: string, patch: Partial<Body>): Promise<Feature>;
  remove(caller: AdminCaller, id: string): Promise<void>;
}

function toWire(row: FeatureRow): Feature {
  return {
    id: row.id,
    key: row.key,
    name: row.name,
    description: row.description,
    linkedPermissions: JSON.parse(row.linked_permissions) as string[],
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

const unique = (keys: string[] | undefined) => (keys ? [...new Set(keys.map((k) => k.trim()))].filter(Boolean) : undefined);
const audited = ({ createdAt: _c, updatedAt: _u, ...rest }: Feature) => rest;

export function createFeatureService(deps: { db: Db; clock: Clock }): FeatureService {
  const { db, clock } = deps;

  async function read(executor: Db, id: string): Promise<Feature> {
    const row = await findFeature(executor, id);
    if (!row) throw OperatorErrors.notFound('Feature');
    return toWire(row);
  }

  async function assertKeyFree(executor: Db, key: string, exceptId?: string) {
    const taken = await findFeatureByKey(executor, key);
    if (taken && taken.id !== exceptId) throw OperatorErrors.keyTaken('a feature with the key', key);
  }

  const keyRace = (key: string | undefined) => (error: unknown) => {
    throw isUniqueViolation(error) && key ? OperatorErrors.keyTaken('a feature with the key', key) : error;
  };

  return {
    list: async () => (await listFeatures(db)).map(toWire),
    get: (id) => read(db, id),

    async create(caller, body) {
      const id = newId();
      await db
        .transaction()
        .execute(async (trx) => {
          await assertKeyFree(trx, body.key);
          const now = clock.now();
          await insertFeature(trx, { id, key: body.key, name: body.name, description: body.description ?? '', linked_permissions: JSON.stringify(unique(body.linkedPermissions) ?? []), created_at: now, updated_at: now });
          const feature = await read(trx, id);
          await recordOperatorAudit(trx, clock, caller, OperatorAuditActions.featureCreated, `Feature "${feature.key}" created`, { featureId: id, new: audited(feature) });
        })
        .catch(keyRace(body.key));
      return read(db, id);
    },

    async update(caller, id, patch) {
      await db
        .transaction()
        .execute(async (trx) => {
          const before = await read(trx, id);
          if (patch.key !== undefined && patch.key !== before.key) await assertKeyFree(trx, patch.key, id);
          const permissions = unique(patch.linkedPermissions);
          await updateFeature(trx, id, { key: patch.key, name: patch.name, description: patch.description, linked_permissions: permissions ? JSON.stringify(permissions) : undefined, updated_at: clock.now() });
          const after = await read(trx, id);
          await recordOperatorAudit(trx, clock, caller, OperatorAuditActions.featureUpdated, `Feature "${after.key}" updated`, { featureId: id, old: audited(before), new: audited(after) });
        })
        .catch(keyRace(patch.key));
      return read(db, id);
    },

    async remove(caller, id) {
      await db.transaction().execute(async (trx) => {
        const before = await read(trx, id);
        const usage = await featureUsage(trx, id);
        await deleteFeature(trx, id);
        await recordOperatorAudit(trx, clock, caller, OperatorAuditActions.featureDeleted, `Feature "${before.key}" deleted`, { featureId: id, old: audited(before), unlinked: usage });
      });
    },
  };
}
