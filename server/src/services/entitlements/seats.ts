/**
 * Seat limits ("Limits are typed", issue 13): a plan's seat_limit caps the users of a tenant. A
 * seat is a member whose membership is not disabled and not past a temporary expiry, or a person
 * invited and not joined yet (an open invitation); a disabled member frees their seat.
 */
import { BillingErrorCodes } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Db } from '../../db';
import { countSeats, findPlanLimits, lockTenantRow } from '../../db/queries/entitlement-context';
import { findEffectivePlanId } from '../../db/queries/tenant-plan';
import { AppError } from '../../errors';

export interface Seats {
  /** The tenant's plan, its seat limit (null: none) and the seats in use. */
  read(tenantId: string): Promise<{ planId: string | null; limit: number | null; used: number }>;
  /**
   * With `trx` (the transaction that adds the users), the tenant's row is locked first, so
   * concurrent joins into one tenant count one after the other and cannot pass the limit together.
   */
  assertAvailable(tenantId: string, adding: number, joiningUserId?: string, trx?: Db): Promise<void>;
}

/** 403 ER-03009: the sentence names the limit; context { limit, used }. */
export function seatLimitError(limit: number, used: number): AppError {
  const users = limit === 1 ? '1 user' : `${limit} users`;
  return new AppError(BillingErrorCodes.seatLimitReached, 403, `Your plan allows ${users}; remove a user or change plan to add more`, { limit, used });
}

export function createSeats(deps: { db: Db; clock: Clock }): Seats {
  const { db, clock } = deps;
  async function limitOf(tenantId: string, on: Db = db): Promise<{ planId: string | null; limit: number | null }> {
    const { planId } = await findEffectivePlanId(on, tenantId);
    if (!planId) return { planId: null, limit: null };
    return { planId, limit: (await findPlanLimits(on, planId))?.seat_limit ?? null };
  }
  return {
    async read(tenantId) {
      const { planId, limit } = await limitOf(tenantId);
      return { planId, limit, used: await countSeats(db, tenantId, clock.now()) };
    },
    async assertAvailable(tenantId, adding, joiningUserId, trx) {
      if (adding <= 0) return;
      const on = trx ?? db;
      const { limit } = await limitOf(tenantId, on);
      if (limit === null) return;
      if (trx) await lockTenantRow(trx, tenantId);
      const used = await countSeats(on, tenantId, clock.now(), joiningUserId);
      if (used + adding > limit) throw seatLimitError(limit, used);
    },
  };
}
