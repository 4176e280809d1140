/**
 * Usage of a tenant's plan (issue 13, "Limits are typed"): seats used of the plan's limit and each
 * limited feature's use, which the host app reports. A report past the plan's limit is refused and
 * changes nothing.
 */
import { BillingErrorCodes } from '@gatehouse/shared/wire';
import type { UsageResponse } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Db } from '../../db';
import { listPlanFeatures } from '../../db/queries/entitlement-context';
import { addFeatureUsage, listFeatureUsage } from '../../db/queries/feature-usage';
import { AppError } from '../../errors';
import type { AdminCaller } from '../admin/access';
import { recordAudit } from '../admin/audit-log';
import type { Seats } from './seats';

/** The audit action of a usage report. */
export const USAGE_REPORTED = 'Usage reported';

export interface Usage {
  read(tenantId: string): Promise<UsageResponse>;
  /** `caller`: who reported (an admin or a tenant API token), for the audit row. */
  report(tenantId: string, featureKey: string, quantity: number, caller?: AdminCaller): Promise<UsageResponse>;
}

export function createUsage(deps: { db: Db; clock: Clock; seats: Seats }): Usage {
  const { db, clock, seats } = deps;

  async function read(tenantId: string): Promise<UsageResponse> {
    const seat = await seats.read(tenantId);
    const [planFeatures, used] = await Promise.all([seat.planId ? listPlanFeatures(db, [seat.planId]) : Promise.resolve([]), listFeatureUsage(db, tenantId)]);
    return {
      planId: seat.planId,
      seats: { used: seat.used, limit: seat.limit },
      features: planFeatures.filter((f) => f.limit_value !== null).map((f) => ({ key: f.key, name: f.name, used: used.get(f.key) ?? 0, limit: f.limit_value })),
    };
  }

  return {
    read,
    async report(tenantId, featureKey, quantity, caller) {
      const seat = await seats.read(tenantId);
      const feature = seat.planId ? (await listPlanFeatures(db, [seat.planId])).find((f) => f.key === featureKey) : undefined;
      if (!feature) {
        throw new AppError(BillingErrorCodes.featureLimitReached, 403, `Your plan does not include the feature ${featureKey}; change plan to use it`, { featureKey, limit: 0, used: 0 });
      }
      const before = (await listFeatureUsage(db, tenantId)).get(featureKey) ?? 0;
      if (!(await addFeatureUsage(db, tenantId, featureKey, quantity, feature.limit_value, clock.now()))) {
        const used = (await listFeatureUsage(db, tenantId)).get(featureKey) ?? 0;
        throw new AppError(
          BillingErrorCodes.featureLimitReached,
          403,
          `Your plan allows ${feature.limit_value} of ${feature.name}; ${used} are used, so ${quantity} more would pass the limit`,
          { featureKey, limit: feature.limit_value, used },
        );
      }
      if (caller) {
        const after = (await listFeatureUsage(db, tenantId)).get(featureKey) ?? 0;
        await recordAudit(db, caller, { action: USAGE_REPORTED, description: `Use of ${feature.name} reported: ${quantity > 0 ? '+' : ''}${quantity} (now ${after})`, json: { featureKey, quantity, old: { used: before }, new: { used: after } } }, clock.now());
      }
      return read(tenantId);
    },
  };
}
