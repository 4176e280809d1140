/**
 * Entitlements and feature flags (issue 13): what a tenant and its users are entitled to, from the
 * tenant's plan (db/queries/tenant-plan.ts findEffectivePlanId), direct grants and feature flags
 * whose targeting rules match, evaluated with `@gatehouse/shared/entitlements`. Built before any
 * area (like security), because the access token carries the compact entitlements, `/flags` is
 * evaluated per caller, and adding users checks the plan's seat limit.
 */
import { evaluateFlag, isEntitledToFeature, NO_EXPIRATION, prepareAttributes, type CheckAttributes } from '@gatehouse/shared/entitlements';
import type { UsageResponse, UserEntitlementsResponse } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db';
import type { GrantRow } from '../../db/queries/entitlement-context';
import type { AdminCaller } from '../admin/access';
import { createCachedSource } from './catalogue';
import { buildContext, flagDefinition } from './context';
import { explainFeatures } from './explain';
import { redactContext } from './redact';
import { createSeats } from './seats';
import { createUsage } from './usage';

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
  tokenClaim(subject: EntitlementSubject, known?: { grants?: readonly GrantRow[] }): Promise<{ f: Record<string, number> }>;
  /** GET /flags: the configured flags (environment) and every operator flag evaluated for the caller ('on' | 'off'); anonymous callers get the flags' off/default treatments. */
  flagsFor(subject: EntitlementSubject | null): Promise<Record<string, string>>;
  /**
   * Refuses (AppError 403, BillingErrorCodes.seatLimitReached, a sentence naming the limit) when `adding` more users would pass the seat limit of the tenant's plan.
   * `joiningUserId`: the person joining, not counted twice when they already hold a seat (an open invitation).
   * `trx`: the transaction that adds them; the count then waits for concurrent joins into the tenant (its row is locked).
   */
  assertSeatsAvailable(tenantId: string, adding?: number, options?: { joiningUserId?: string; trx?: Db }): Promise<void>;
  /** GET usage/v1. */
  usage(tenantId: string): Promise<UsageResponse>;
  /** POST usage/v1: adds `quantity` to the feature's use; refuses past the plan's limit (BillingErrorCodes.featureLimitReached); `caller` gets the audit row. */
  reportUsage(tenantId: string, featureKey: string, quantity: number, caller?: AdminCaller): Promise<UsageResponse>;
}

/** The attributes rules read: the token's claims, else the subject's own fields in the claims' shape. */
export function subjectAttributes(subject: EntitlementSubject): CheckAttributes {
  const jwt: Record<string, unknown> = {
    ...(subject.email ? { email: subject.email } : {}),
    ...(subject.emailVerified !== undefined ? { email_verified: subject.emailVerified } : {}),
    ...subject.claims,
    // The tenant the call acts in (`?tenantId=` may differ from the token's own).
    sub: subject.userId,
    tenantId: subject.tenantId,
  };
  return { jwt };
}

const onOff = (treatment: string) => (treatment === 'true' ? 'on' : 'off');

export function createEntitlements(deps: { db: Db; clock: Clock; config: Pick<Config, 'flags'> }): EntitlementsService {
  const { db, clock, config } = deps;
  const seats = createSeats({ db, clock });
  // The vendor's catalogue and tenants' plans, shared by every token this process signs (catalogue.ts).
  const source = createCachedSource({ db, clock });
  const usage = createUsage({ db, clock, seats });

  return {
    async contextFor(subject, options = {}) {
      const built = await buildContext(db, subject.userId, subject.tenantId, { source });
      const attributes = subjectAttributes(subject);
      // Rules are sent decided for this caller where they read the caller: never other tenants' data.
      const response: UserEntitlementsResponse = { ...redactContext(built.context, prepareAttributes(attributes), subject.userId), planId: built.planId };
      if (options.explain) response.explain = explainFeatures(built, attributes, clock.now());
      return response;
    },

    async tokenClaim(subject, known) {
      const { context } = await buildContext(db, subject.userId, subject.tenantId, { permissions: false, source, grants: known?.grants });
      const attributes = subjectAttributes(subject);
      const now = clock.now();
      const f: Record<string, number> = {};
      for (const [key, feature] of Object.entries(context.features)) {
        if (!isEntitledToFeature(key, context, attributes, { now }).isEntitled) continue;
        // Granted directly: its expiry; by a flag or plan targeting rule: no expiry of its own.
        f[key] = feature.expireTime !== null && (feature.expireTime === NO_EXPIRATION || feature.expireTime > now) ? feature.expireTime : NO_EXPIRATION;
      }
      return { f };
    },

    async flagsFor(subject) {
      const { flags } = await source.vendor();
      const result: Record<string, string> = { ...config.flags };
      const attributes = subject ? prepareAttributes(subjectAttributes(subject)) : null;
      for (const row of flags) {
        const flag = flagDefinition(row);
        // Anonymous: no rule is read (they need a user); the flag's default when on, else its off treatment.
        if (!attributes) result[row.key] = onOff(flag.on ? flag.defaultTreatment : flag.offTreatment);
        else result[row.key] = onOff(evaluateFlag(flag, attributes).treatment);
      }
      return result;
    },

    assertSeatsAvailable: (tenantId, adding = 1, options = {}) => seats.assertAvailable(tenantId, adding, options.joiningUserId, options.trx),
    usage: (tenantId) => usage.read(tenantId),
    reportUsage: (tenantId, featureKey, quantity, caller) => usage.report(tenantId, featureKey, quantity, caller),
  };
}
