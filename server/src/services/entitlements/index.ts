/**
 * Entitlements and feature flags (issue 13): what a tenant and its users are entitled to, from the
 * tenant's plan (db/queries/tenant-plan.ts findEffectivePlanId), direct grants and feature flags
 * whose targeting rules match, evaluated with `@gatehouse/shared/entitlements`. Built before any
 * area (like security), because the access token carries the compact entitlements, `/flags` is
 * evaluated per caller, and adding users checks the plan's seat limit.
 *
 * SCAFFOLD (issue 13): the interface is the contract; the entitlements owner replaces the body.
 */
import type { UsageResponse, UserEntitlementsResponse } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db';

/** Who is asking: what the rules' `frontegg.*` and `jwt.*` attributes are read from. */
export interface EntitlementSubject {
  userId: string;
  tenantId: string;
  email?: string | null;
  emailVerified?: boolean;
  /** The access token's claims (flattened to `jwt.*` by the evaluator). */
  claims?: Record<string, unknown>;
}

export interface EntitlementsService {
  /** GET entitlements v2: the subject's features (plan, grants, flags), plans and permissions; with `explain`, what decided each feature. */
  contextFor(subject: EntitlementSubject, options?: { explain?: boolean }): Promise<UserEntitlementsResponse>;
  /** The compact form the access token carries (claim ENTITLEMENTS_CLAIM): `{ f: { [featureKey]: expireTime } }`. */
  tokenClaim(subject: EntitlementSubject): Promise<{ f: Record<string, number> }>;
  /** GET /flags: the configured flags (environment) and every operator flag evaluated for the caller ('on' | 'off'); anonymous callers get the flags' off/default treatments. */
  flagsFor(subject: EntitlementSubject | null): Promise<Record<string, string>>;
  /** Refuses (AppError 403, BillingErrorCodes.seatLimitReached, a sentence naming the limit) when `adding` more users would pass the seat limit of the tenant's plan. */
  assertSeatsAvailable(tenantId: string, adding?: number): Promise<void>;
  /** GET usage/v1. */
  usage(tenantId: string): Promise<UsageResponse>;
  /** POST usage/v1: adds `quantity` to the feature's use; refuses past the plan's limit (BillingErrorCodes.featureLimitReached). */
  reportUsage(tenantId: string, featureKey: string, quantity: number): Promise<UsageResponse>;
}

export function createEntitlements(deps: { db: Db; clock: Clock; config: Config }): EntitlementsService {
  void deps;
  const unbuilt = (): never => {
    throw new Error('entitlements service: not built yet (issue 13 scaffold)');
  };
  return {
    contextFor: async () => unbuilt(),
    tokenClaim: async () => unbuilt(),
    flagsFor: async () => ({ ...deps.config.flags }),
    assertSeatsAvailable: async () => undefined,
    usage: async () => unbuilt(),
    reportUsage: async () => unbuilt(),
  };
}
