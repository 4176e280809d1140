/**
 * Direct entitlement grants (issue 13): a feature given to a tenant, or to one user of it, with an
 * optional expiry (epoch ms; none: for ever). The feature and tenant must exist, the user must be a
 * member of that tenant, and an expiry must lie in the future (each a 400 naming the field). A grant
 * is not edited: delete it and grant again.
 */
import type { Grant, GrantBody } from '@gatehouse/shared/wire';
import type { z } from 'zod';
import type { Clock } from '../../clock';
import { newId } from '../../crypto';
import type { Db } from '../../db';
import { deleteGrant, findGrant, insertGrant, listGrants, type EntitlementGrantRow } from '../../db/queries/entitlement-grants';
import { findFeatureByKey } from '../../db/queries/features';
import { findTenant, hasMembership } from '../../db/queries/tenants';
import type { AdminCaller } from '../admin/access';
import { OperatorAuditActions, recordOperatorAudit } from './audit';
import { OperatorErrors } from './errors';

/** The most grants one list answers (newest first); narrow it with tenantId and userId. */
export const GRANT_LIST_LIMIT = 500;

export interface GrantService {
  list(filter: { tenantId?: string; userId?: string }): Promise<Grant[]>;
  get(id: string): Promise<Grant>;
  create(caller: AdminCaller, body: z.infer<typeof GrantBody>): Promise<Grant>;
  remove(caller: AdminCaller, id: string): Promise<void>;
}

function toWire(row: EntitlementGrantRow): Grant {
  return {
    id: row.id,
    featureKey: row.feature_key,
    tenantId: row.tenant_id,
    userId: row.user_id,
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
    createdAt: Number(row.created_at),
  };
}

export function createGrantService(deps: { db: Db; clock: Clock }): GrantService {
  const { db, clock } = deps;

  async function read(executor: Db, id: string): Promise<Grant> {
    const row = await findGrant(executor, id);
    if (!row) throw OperatorErrors.notFound('Grant');
    return toWire(row);
  }

  return {
    list: async (filter) => (await listGrants(db, { ...filter, limit: GRANT_LIST_LIMIT })).map(toWire),
    get: (id) => read(db, id),

    async create(caller, body) {
      const id = newId();
      await db.transaction().execute(async (trx) => {
        const now = clock.now();
        const feature = await findFeatureByKey(trx, body.featureKey);
        if (!feature) throw OperatorErrors.field('featureKey', `no feature with the key "${body.featureKey}"`);
        if (!(await findTenant(trx, body.tenantId))) throw OperatorErrors.field('tenantId', 'no such tenant');
        if (body.userId && !(await hasMembership(trx, body.userId, body.tenantId))) throw OperatorErrors.field('userId', 'the user is not a member of that tenant');
        if (body.expiresAt != null && body.expiresAt <= now) throw OperatorErrors.field('expiresAt', 'must be in the future (epoch milliseconds)');
        await insertGrant(trx, { id, feature_id: feature.id, tenant_id: body.tenantId, user_id: body.userId ?? null, expires_at: body.expiresAt ?? null, created_by: caller.userId, created_at: now });
        const grant = await read(trx, id);
        const to = grant.userId ? `user ${grant.userId} of tenant ${grant.tenantId}` : `tenant ${grant.tenantId}`;
        await recordOperatorAudit(trx, clock, caller, OperatorAuditActions.grantCreated, `Feature "${grant.featureKey}" granted to ${to}`, { grantId: id, new: grant });
      });
      return read(db, id);
    },

    async remove(caller, id) {
      await db.transaction().execute(async (trx) => {
        const before = await read(trx, id);
        await deleteGrant(trx, id);
        await recordOperatorAudit(trx, clock, caller, OperatorAuditActions.grantDeleted, `Grant of feature "${before.featureKey}" to tenant ${before.tenantId}${before.userId ? ` (user ${before.userId})` : ''} deleted`, { grantId: id, old: before });
      });
    },
  };
}
