/**
 * What the portal and the checkout read about a tenant's billing: the summary (currentPlanId,
 * externallyManaged, paymentMethodId), the rules that apply to it, the payment providers (seed 001
 * section 7: Stripe, status '1' when active) and the vendor's public configuration (publishableKey).
 */
import { BillingErrorCodes, BillingErrorMessages, ErrorCodes, PAYMENT_PROVIDER_STRIPE, type BillingSummary, type TenantBillingConfiguration, type VendorPublicBillingConfiguration } from '@gatehouse/shared/wire';
import type { Db } from '../../db';
import { findCurrentSubscription, findEffectivePlanId } from '../../db/queries/tenant-plan';
import { AppError } from '../../errors';
import type { AdminCaller } from '../admin/access';
import type { BillingConfigurationService } from './configuration';

export interface BillingOverviewService {
  /** The summary of `tenantId`: the caller's own tenant, or any tenant for a super user. */
  summary(caller: AdminCaller, tenantId: string): Promise<BillingSummary>;
  tenantConfiguration(caller: AdminCaller): Promise<TenantBillingConfiguration>;
  paymentProviders(): Promise<{ id: string; providerType: 'Stripe'; status: '0' | '1' }[]>;
  publicConfiguration(): Promise<VendorPublicBillingConfiguration>;
}

/** Path values a client sends when it has no tenant id at hand. */
const UNDEFINED_IDS = new Set(['', 'undefined', 'null']);

export function createBillingOverview(deps: { db: Db; configuration: BillingConfigurationService }): BillingOverviewService {
  const { db, configuration } = deps;
  return {
    async summary(caller, tenantId) {
      if (UNDEFINED_IDS.has(tenantId.trim())) throw new AppError(BillingErrorCodes.tenantIdNotDefined, 400, BillingErrorMessages.tenantIdNotDefined, { field: 'tenantId' });
      if (tenantId !== caller.tenantId && !caller.superUser) throw new AppError(ErrorCodes.forbidden, 403, BillingErrorMessages.notAuthorized);
      const [effective, current] = await Promise.all([findEffectivePlanId(db, tenantId), findCurrentSubscription(db, tenantId)]);
      return { currentPlanId: effective.planId, externallyManaged: current?.externally_managed === 1, paymentMethodId: current?.payment_method_id ?? null };
    },
    async tenantConfiguration(caller) {
      const v = await configuration.vendor();
      return { tenantId: caller.tenantId, allowPlanDowngrade: v.allowPlanDowngrade, allowPlanCancellation: v.allowPlanCancellation, trialEndOption: v.trialEndOption, defaultPlanId: v.defaultPlanId };
    },
    async paymentProviders() {
      const v = await configuration.vendor();
      return [{ id: 'stripe', providerType: PAYMENT_PROVIDER_STRIPE, status: v.active ? '1' : '0' }];
    },
    async publicConfiguration() {
      const v = await configuration.vendor();
      return { publishableKey: v.active ? v.publishableKey : null };
    },
  };
}
