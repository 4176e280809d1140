/**
 * A tenant's payment methods, read live from Stripe (type unknown or card, last4, brand, expiry,
 * default), the billing details of one (PATCH `{ id, email, address }`), and setup intents that
 * collect a new card in the checkout. A payment method is the tenant's only when it belongs to the
 * tenant's Stripe customer; any other id is "not found".
 */
import type { BillingAddress, BillingDetailsBody, PaymentMethod } from '@gatehouse/shared/wire';
import type Stripe from 'stripe';
import type { Clock } from '../../clock';
import type { Db } from '../../db';
import { findCustomerId } from '../../db/queries/billing-customers';
import { Errors } from '../../errors';
import type { AdminCaller } from '../admin/access';
import { recordAudit } from '../admin/audit-log';
import type { BillingConfigurationService } from './configuration';
import { ensureCustomer } from './customers';
import { stripeCall, type StripeClient, type StripeGateway } from './stripe-gateway';

export const BILLING_DETAILS_UPDATED = 'Billing details updated';

export interface PaymentMethodService {
  list(caller: AdminCaller): Promise<PaymentMethod[]>;
  updateBillingDetails(caller: AdminCaller, id: string, body: BillingDetailsBody): Promise<PaymentMethod>;
  /** create_customer on first need; idempotent. */
  ensureCustomer(caller: AdminCaller): Promise<{ customerId: string }>;
  /** A SetupIntent for the tenant's customer; `paymentMethodId` names the card it replaces (kept in its metadata). */
  setupIntent(caller: AdminCaller, body: { paymentMethodId?: string }): Promise<{ setupIntentSecret: string }>;
}

function addressOf(a: Stripe.Address | null | undefined): BillingAddress | null {
  if (!a) return null;
  return { line1: a.line1 ?? null, line2: a.line2 ?? null, city: a.city ?? null, state: a.state ?? null, postalCode: a.postal_code ?? null, country: a.country ?? null };
}

function toWire(pm: Stripe.PaymentMethod, defaultId: string | null): PaymentMethod {
  const card = pm.type === 'card' ? pm.card : undefined;
  return {
    id: pm.id,
    type: pm.type === 'card' ? 'card' : 'unknown',
    isDefault: pm.id === defaultId,
    last4: card?.last4 ?? null,
    expMonth: card?.exp_month ?? null,
    expYear: card?.exp_year ?? null,
    brand: card?.brand ?? null,
    billingDetails: { id: pm.id, email: pm.billing_details?.email ?? null, address: addressOf(pm.billing_details?.address) },
  };
}

export function createPaymentMethodService(deps: { db: Db; clock: Clock; gateway: StripeGateway; configuration: BillingConfigurationService }): PaymentMethodService {
  const { db, clock, gateway, configuration } = deps;
  const stripeFor = async (): Promise<StripeClient> => {
    const vendor = await configuration.vendor();
    return gateway.client(vendor.active ? vendor.secretKey : null);
  };
  const defaultOf = async (stripe: StripeClient, customerId: string) => {
    const customer = await stripeCall(() => stripe.customers.retrieve(customerId));
    if ('deleted' in customer && customer.deleted) return null;
    const pm = (customer as Stripe.Customer).invoice_settings?.default_payment_method;
    return typeof pm === 'string' ? pm : (pm?.id ?? null);
  };

  return {
    async list(caller) {
      // No customer yet: no card, whether or not Stripe is configured.
      const customerId = await findCustomerId(db, caller.tenantId);
      if (!customerId) return [];
      const stripe = await stripeFor();
      const [methods, defaultId] = await Promise.all([stripeCall(() => stripe.paymentMethods.list({ customer: customerId, type: 'card', limit: 20 })), defaultOf(stripe, customerId)]);
      // The default first: the portal shows the first.
      return methods.data.map((pm) => toWire(pm, defaultId)).sort((a, b) => Number(b.isDefault) - Number(a.isDefault));
    },

    async updateBillingDetails(caller, id, body) {
      if (body.id !== undefined && body.id !== id) throw Errors.validation('id: must be the payment method of the path', { field: 'id' });
      const stripe = await stripeFor();
      const customerId = await findCustomerId(db, caller.tenantId);
      if (!customerId) throw Errors.notFound('Payment method not found');
      const pm = await stripeCall(() => stripe.paymentMethods.retrieve(id)).catch(() => null);
      const owner = pm ? (typeof pm.customer === 'string' ? pm.customer : (pm.customer?.id ?? null)) : null;
      if (!pm || owner !== customerId) throw Errors.notFound('Payment method not found');
      const a = body.address;
      const address: Stripe.AddressParam = {};
      for (const [from, to] of [['line1', 'line1'], ['line2', 'line2'], ['city', 'city'], ['state', 'state'], ['postalCode', 'postal_code'], ['country', 'country']] as const) {
        const v = a[from];
        if (typeof v === 'string' && v !== '') address[to] = v;
      }
      const updated = await stripeCall(() => stripe.paymentMethods.update(id, { billing_details: { email: body.email, address } }));
      await recordAudit(
        db,
        caller,
        { action: BILLING_DETAILS_UPDATED, description: 'Billing details of a payment method updated', json: { paymentMethodId: id, old: { email: pm.billing_details?.email ?? null, address: addressOf(pm.billing_details?.address) }, new: { email: body.email, address: body.address } } },
        clock.now(),
      );
      return toWire(updated, await defaultOf(stripe, customerId));
    },

    async ensureCustomer(caller) {
      const stripe = await stripeFor();
      return { customerId: await ensureCustomer({ db, clock }, stripe, caller.tenantId) };
    },

    async setupIntent(caller, body) {
      const stripe = await stripeFor();
      const customerId = await ensureCustomer({ db, clock }, stripe, caller.tenantId);
      const intent = await stripeCall(() =>
        stripe.setupIntents.create({ customer: customerId, usage: 'off_session', metadata: { tenantId: caller.tenantId, ...(body.paymentMethodId ? { replacesPaymentMethodId: body.paymentMethodId } : {}) } }),
      );
      if (!intent.client_secret) throw Errors.generic();
      return { setupIntentSecret: intent.client_secret };
    },
  };
}
