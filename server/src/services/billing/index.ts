/** Builds the billing services (issue 13) from the area's context: one Stripe gateway, the vendor's configuration, and the tenant-side services. */
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db';
import { createBillingConfiguration, type BillingConfigurationService } from './configuration';
import { createInvoiceService, type InvoiceService } from './invoices';
import { createBillingOverview, type BillingOverviewService } from './overview';
import { createPaymentMethodService, type PaymentMethodService } from './payment-methods';
import { createPlanService, type PlanService } from './plans';
import { createStripeGateway, type StripeGateway } from './stripe-gateway';
import { createSubscriptionService, type SubscriptionService } from './subscriptions';
import { createWebhookService, type WebhookService } from './webhooks';

export interface BillingServices {
  gateway: StripeGateway;
  configuration: BillingConfigurationService;
  plans: PlanService;
  subscriptions: SubscriptionService;
  invoices: InvoiceService;
  paymentMethods: PaymentMethodService;
  overview: BillingOverviewService;
  webhooks: WebhookService;
}

export function createBilling(deps: { db: Db; clock: Clock; config: Config }): BillingServices {
  const { db, clock, config } = deps;
  const gateway = createStripeGateway(config);
  const configuration = createBillingConfiguration({ db, clock, config, apiBase: gateway.apiBase });
  return {
    gateway,
    configuration,
    plans: createPlanService({ db }),
    subscriptions: createSubscriptionService({ db, clock, gateway, configuration }),
    invoices: createInvoiceService({ db, config }),
    paymentMethods: createPaymentMethodService({ db, clock, gateway, configuration }),
    overview: createBillingOverview({ db, configuration }),
    webhooks: createWebhookService({ db, clock, configuration }),
  };
}
