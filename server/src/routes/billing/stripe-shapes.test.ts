/**
 * Our Stripe requests have Stripe's current shapes: the billing flows run over HTTP against
 * stripe-mock, which refuses (400) any parameter Stripe's OpenAPI document does not have; such a
 * refusal would come back from our API as 502 "Internal feature failure". localstripe, which the
 * other tests use for state, emulates an older API and accepts shapes Stripe no longer would.
 */
import { BillingPaths, OperatorPaths } from '@gatehouse/shared/wire';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, pathOf, superUser, tenantWithAdmin } from '../../test/admin-helpers';
import { insertPlan } from '../../test/billing-helpers';
import { describeDialects } from '../../test/harness';
import { peersRequired } from '../../test/localstripe';
import { startStripeMock, stripeMockMissing, type StripeMock } from '../../test/stripe-mock';

const missing = stripeMockMissing();
(missing && !peersRequired() ? describe.skip : describe)('billing request shapes against stripe-mock', () => {
  let mock: StripeMock | null = null;
  beforeAll(async () => {
    mock = await startStripeMock();
  }, 30_000);
  afterAll(async () => {
    await mock?.stop();
  });

  describeDialects('Stripe request shapes', (h) => {
    it("makes every Stripe call of customers, setup intents, subscriptions (with a trial, a card, a plan change, a renewal) and payment methods in a shape Stripe's API accepts", async () => {
      const server = await h.start({ STRIPE_API_URL: mock!.url, RATE_LIMIT_SIGNUP_PER_IP: '1000/60' });
      const operator = await superUser(server);
      const configured = await callAs(server, operator, 'PUT', OperatorPaths.billingConfiguration, {
        body: { secretKey: 'sk_test_123stripemock', publishableKey: 'pk_test_123stripemock', webhookSecret: 'whsec_stripemock', allowPlanDowngrade: true, allowPlanCancellation: true, trialEndOption: 'change_to_default', defaultPlanId: null },
      });
      expect(configured.status).toBe(200);
      const trial = await insertPlan(server, { name: 'Trial', price: 5000, trialDays: 14 });
      const premium = await insertPlan(server, { name: 'Premium', price: 10000 });
      const admin = await tenantWithAdmin(server);

      const customer = await callAs(server, admin, 'POST', BillingPaths.stripeCustomers);
      expect(customer.status, JSON.stringify(customer.body)).toBe(200);
      const intent = await callAs(server, admin, 'POST', BillingPaths.stripeSetupIntents, { body: { paymentMethodId: 'pm_replaced' } });
      expect(intent.status, JSON.stringify(intent.body)).toBe(200);
      expect(intent.body.setupIntentSecret).toEqual(expect.any(String));

      // customers.retrieve, products.create, plans.create, subscriptions.create with trial_end, invoices.list.
      const created = await callAs(server, admin, 'POST', BillingPaths.stripeSubscriptions, { body: { planId: trial } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      // paymentMethods.retrieve/attach, customers.update, subscriptions.retrieve/update with items[].plan.
      const changed = await callAs(server, admin, 'PUT', pathOf(BillingPaths.managedSubscription, { id: created.body.id }), { body: { planId: premium, paymentMethodId: 'pm_from_checkout' } });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      // A move to a paid plan needs a card on file; stripe-mock's fixed customer never has a default one, so the card is named again.
      const planChange = await callAs(server, admin, 'PUT', pathOf(BillingPaths.managedSubscription, { id: created.body.id }), { body: { planId: premium, paymentMethodId: 'pm_from_checkout' } });
      expect(planChange.status, JSON.stringify(planChange.body)).toBe(200);
      // paymentMethods.list and customers.retrieve.
      const methods = await callAs(server, admin, 'GET', BillingPaths.paymentMethods);
      expect(methods.status, JSON.stringify(methods.body)).toBe(200);
      // subscriptions.update with cancel_at_period_end: stripe-mock's fixture has a cancellation pending, so renew is the call the rules let through.
      expect(created.body.cancellation).toEqual({ policy: 'atPeriodEnd' });
      const renew = await callAs(server, admin, 'PUT', pathOf(BillingPaths.renewSubscription, { id: created.body.id }));
      expect(renew.status, JSON.stringify(renew.body)).toBe(200);
    });
  });
});
