import { BillingErrorCodes, BillingErrorMessages, BillingPaths, OperatorPaths } from '@gatehouse/shared/wire';
import Stripe from 'stripe';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { findEffectivePlanId } from '../../db/queries/tenant-plan';
import { auditsOf, callAs, memberWithoutPermissions, pathOf, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { configureBilling, describeWithLocalstripe, insertPlan } from '../../test/billing-helpers';
import { eventsOf } from '../../test/event-helpers';
import { call, describeDialects } from '../../test/harness';
import { LOCALSTRIPE_SECRET_KEY } from '../../test/localstripe';

/** A card as Stripe.js would make it in the checkout (localstripe's test card numbers). */
async function card(stripeApiUrl: string, number = '4242424242424242'): Promise<string> {
  const u = new URL(stripeApiUrl);
  const stripe = new Stripe(LOCALSTRIPE_SECRET_KEY, { host: u.hostname, port: Number(u.port), protocol: 'http' });
  return (await stripe.paymentMethods.create({ type: 'card', card: { number, exp_month: 12, exp_year: 2034, cvc: '123' } })).id;
}

describeWithLocalstripe('billing subscriptions against localstripe', (peer) => {
  describeDialects('billing subscriptions', (h) => {
    const start = () => h.start({ STRIPE_API_URL: peer().url, RATE_LIMIT_SIGNUP_PER_IP: '1000/60' });

    async function premiumAndFree(server: GatehouseServer) {
      return { premium: await insertPlan(server, { name: 'Premium', price: 10000 }), free: await insertPlan(server, { name: 'Free', price: 0 }) };
    }
    async function subscribe(server: GatehouseServer, admin: TenantAdmin, planId: string) {
      const paymentMethodId = await card(peer().url);
      const res = await callAs(server, admin, 'POST', BillingPaths.stripeSubscriptions, { body: { planId, paymentMethodId } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return { subscription: res.body, paymentMethodId };
    }

    it('subscribes a tenant to Premium with a card: the customer is made once, the Stripe plan made on first use and kept, the subscription active, its invoice listed (100.00 usd) and downloadable as a PDF, the summary names the plan', async () => {
      const server = await start();
      const { premium } = await premiumAndFree(server);
      await configureBilling(server);
      const admin = await tenantWithAdmin(server);

      const { subscription, paymentMethodId } = await subscribe(server, admin, premium);
      expect(subscription).toMatchObject({ planId: premium, status: 'active', cancellation: null, externallyManaged: false, paymentMethodId });
      expect(subscription.externalId).toMatch(/^sub_/);
      const plan = await server.db.selectFrom('plans').select(['stripe_plan_id', 'stripe_product_id']).where('id', '=', premium).executeTakeFirstOrThrow();
      expect(plan.stripe_plan_id).toMatch(/^plan_/);
      expect(plan.stripe_product_id).toMatch(/^prod_/);
      expect(await findEffectivePlanId(server.db, admin.tenantId)).toMatchObject({ planId: premium, source: 'subscription' });

      // Idempotent, at once too: two first calls of another tenant get one customer.
      const fresh = await tenantWithAdmin(server, 'fresh');
      const pair = await Promise.all([callAs(server, fresh, 'POST', BillingPaths.stripeCustomers), callAs(server, fresh, 'POST', BillingPaths.stripeCustomers)]);
      expect(pair.map((r) => r.status)).toEqual([200, 200]);
      expect(pair[0].body.customerId).toBe(pair[1].body.customerId);
      const customer = await callAs(server, admin, 'POST', BillingPaths.stripeCustomers);
      expect(customer.status).toBe(200);
      expect((await callAs(server, admin, 'POST', BillingPaths.stripeCustomers)).body).toEqual(customer.body);
      expect(await server.db.selectFrom('billing_customers').selectAll().where('tenant_id', '=', admin.tenantId).execute()).toHaveLength(1);

      const listed = await callAs(server, admin, 'GET', BillingPaths.managedSubscriptions);
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual([subscription]);

      const invoices = await callAs(server, admin, 'GET', BillingPaths.invoices);
      expect(invoices.status).toBe(200);
      expect(invoices.body).toHaveLength(1);
      expect(invoices.body[0]).toMatchObject({ totalAmount: 100, currency: 'usd', paid: true, subscriptionId: subscription.id });
      const pdf = await call(server, 'GET', pathOf(BillingPaths.invoicePdf, { id: invoices.body[0].id }), { token: admin.accessToken });
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(pdf.headers.get('content-disposition')).toMatch(/^attachment; filename="invoice-[A-Za-z0-9_-]+\.pdf"$/);
      expect(pdf.body.startsWith('%PDF-1.4')).toBe(true);
      expect(pdf.body).toContain('(100.00 USD) Tj');
      expect(pdf.body.trimEnd().endsWith('%%EOF')).toBe(true);

      const summary = await callAs(server, admin, 'GET', pathOf(BillingPaths.summary, { tenantId: admin.tenantId }));
      expect(summary.body).toEqual({ currentPlanId: premium, externallyManaged: false, paymentMethodId });
      const methods = await callAs(server, admin, 'GET', BillingPaths.paymentMethods);
      expect(methods.status).toBe(200);
      expect(methods.body).toEqual([expect.objectContaining({ id: paymentMethodId, type: 'card', isDefault: true, last4: '4242', brand: 'visa', expMonth: 12, expYear: 2034 })]);
      const actions = (await auditsOf(server, admin.tenantId)).map((a) => a.action);
      expect(actions).toContain('Subscription created');
      // Issue 16: the subscription's change raises subscription.updated, the admin acting.
      expect((await eventsOf(server, admin.tenantId, 'subscription.updated'))[0]).toMatchObject({ data: { subscriptionId: subscription.id, planId: premium, status: 'active', previousStatus: null }, actor: { userId: admin.userId } });
    });

    it('refuses a downgrade when the vendor does not allow it (403 ER-03007, nothing changes) and makes it when allowed', async () => {
      const server = await start();
      const { premium, free } = await premiumAndFree(server);
      const operator = await configureBilling(server, { allowPlanDowngrade: false });
      const admin = await tenantWithAdmin(server);
      const { subscription } = await subscribe(server, admin, premium);

      const refused = await callAs(server, admin, 'PUT', pathOf(BillingPaths.managedSubscription, { id: subscription.id }), { body: { planId: free } });
      expect([refused.status, refused.body.errorCode]).toEqual([403, BillingErrorCodes.downgradeNotAllowed]);
      expect((await callAs(server, admin, 'GET', BillingPaths.managedSubscriptions)).body[0].planId).toBe(premium);

      await configureBilling(server, { allowPlanDowngrade: true }, operator);
      const changed = await callAs(server, admin, 'PUT', pathOf(BillingPaths.managedSubscription, { id: subscription.id }), { body: { planId: free } });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      expect(changed.body).toMatchObject({ id: subscription.id, planId: free, status: 'active' });
      expect(await findEffectivePlanId(server.db, admin.tenantId)).toMatchObject({ planId: free });
      const audit = (await auditsOf(server, admin.tenantId)).find((a) => a.action === 'Subscription plan changed');
      expect(JSON.parse(audit!.json!)).toMatchObject({ old: { planId: premium }, new: { planId: free } });
      // An upgrade is always allowed.
      await configureBilling(server, { allowPlanDowngrade: false }, operator);
      expect((await callAs(server, admin, 'PUT', pathOf(BillingPaths.managedSubscription, { id: subscription.id }), { body: { planId: premium } })).status).toBe(200);
    });

    it('cancels at period end and renews, following the seed rules: no second cancel, no renew without a pending cancellation, none when cancellation is not allowed', async () => {
      const server = await start();
      const { premium } = await premiumAndFree(server);
      const operator = await configureBilling(server);
      const admin = await tenantWithAdmin(server);
      const { subscription } = await subscribe(server, admin, premium);
      const cancelPath = pathOf(BillingPaths.cancelSubscription, { id: subscription.id });
      const renewPath = pathOf(BillingPaths.renewSubscription, { id: subscription.id });

      const early = await callAs(server, admin, 'PUT', renewPath);
      expect([early.status, early.body.errorCode]).toEqual([409, BillingErrorCodes.renewNotAllowed]);
      const canceled = await callAs(server, admin, 'PUT', cancelPath);
      expect(canceled.status).toBe(200);
      expect(canceled.body).toMatchObject({ status: 'active', cancellation: { policy: 'atPeriodEnd' } });
      const again = await callAs(server, admin, 'PUT', cancelPath);
      expect([again.status, again.body.errorCode]).toEqual([409, BillingErrorCodes.cancelNotAllowed]);
      const renewed = await callAs(server, admin, 'PUT', renewPath);
      expect(renewed.status).toBe(200);
      expect(renewed.body).toMatchObject({ status: 'active', cancellation: null });

      await configureBilling(server, { allowPlanCancellation: false }, operator);
      const notAllowed = await callAs(server, admin, 'PUT', cancelPath);
      expect([notAllowed.status, notAllowed.body.errorCode]).toEqual([403, BillingErrorCodes.cancelNotAllowed]);
      const actions = (await auditsOf(server, admin.tenantId)).map((a) => a.action);
      expect(actions.filter((a) => a === 'Subscription canceled' || a === 'Subscription renewed')).toEqual(['Subscription renewed', 'Subscription canceled']);
    });

    it('answers the seed\'s errors verbatim: "Subscription not found" for an unknown or another tenant\'s id, "Billing is externally managed" for cancel and renew', async () => {
      const server = await start();
      const { premium } = await premiumAndFree(server);
      await configureBilling(server);
      const admin = await tenantWithAdmin(server);
      const other = await tenantWithAdmin(server, 'other');
      const { subscription } = await subscribe(server, admin, premium);

      for (const path of [BillingPaths.cancelSubscription, BillingPaths.renewSubscription, BillingPaths.managedSubscription]) {
        const res = await callAs(server, other, 'PUT', pathOf(path, { id: subscription.id }), path === BillingPaths.managedSubscription ? { body: { planId: premium } } : {});
        expect([res.status, res.body.errors, res.body.errorCode]).toEqual([404, [BillingErrorMessages.subscriptionNotFound], BillingErrorCodes.subscriptionNotFound]);
      }
      expect((await callAs(server, admin, 'PUT', pathOf(BillingPaths.cancelSubscription, { id: 'nope' }))).body.errors).toEqual([BillingErrorMessages.subscriptionNotFound]);

      await server.db.updateTable('subscriptions').set({ externally_managed: 1 }).where('id', '=', subscription.id).execute();
      for (const path of [BillingPaths.cancelSubscription, BillingPaths.renewSubscription]) {
        const res = await callAs(server, admin, 'PUT', pathOf(path, { id: subscription.id }));
        expect([res.status, res.body.errors]).toEqual([409, [BillingErrorMessages.externallyManaged]]);
      }
      expect((await callAs(server, admin, 'GET', pathOf(BillingPaths.summary, { tenantId: admin.tenantId }))).body.externallyManaged).toBe(true);
    });

    it('answers "Payment provider not configured" until an operator sets the Stripe key; providers and the public configuration follow', async () => {
      const server = await start();
      const { premium } = await premiumAndFree(server);
      const admin = await tenantWithAdmin(server);
      // The file's database is shared by its tests: clear the key an earlier test set.
      const operator = await configureBilling(server);
      const cleared = await callAs(server, operator, 'PUT', OperatorPaths.billingConfiguration, { body: { secretKey: null, allowPlanDowngrade: true, allowPlanCancellation: true, trialEndOption: 'change_to_default', defaultPlanId: null } });
      expect(cleared.body).toMatchObject({ status: '0', secretKeySet: false });
      const before = await callAs(server, admin, 'POST', BillingPaths.stripeSubscriptions, { body: { planId: premium } });
      expect([before.status, before.body.errors, before.body.errorCode]).toEqual([409, [BillingErrorMessages.providerNotConfigured], BillingErrorCodes.providerNotConfigured]);
      expect((await callAs(server, admin, 'POST', BillingPaths.stripeSetupIntents, { body: {} })).body.errors).toEqual([BillingErrorMessages.providerNotConfigured]);
      expect((await callAs(server, admin, 'GET', BillingPaths.paymentProviders)).body).toEqual([{ id: 'stripe', providerType: 'Stripe', status: '0' }]);
      expect((await call(server, 'GET', BillingPaths.vendorPublicConfiguration)).body).toEqual({ publishableKey: null });

      await configureBilling(server, {}, operator);
      expect((await callAs(server, admin, 'GET', BillingPaths.paymentProviders)).body).toEqual([{ id: 'stripe', providerType: 'Stripe', status: '1' }]);
      expect((await call(server, 'GET', BillingPaths.vendorPublicConfiguration)).body).toEqual({ publishableKey: 'pk_test_gatehouse_localstripe' });
      const intent = await callAs(server, admin, 'POST', BillingPaths.stripeSetupIntents, { body: {} });
      expect(intent.status).toBe(200);
      expect(intent.body.setupIntentSecret).toMatch(/^seti_\w+_secret_\w+$/);
      expect((await callAs(server, admin, 'GET', BillingPaths.tenantConfiguration)).body).toEqual({ tenantId: admin.tenantId, allowPlanDowngrade: true, allowPlanCancellation: true, trialEndOption: 'change_to_default', defaultPlanId: null });
    });

    it("sets a card's billing details; another tenant's card is not found and a bad email is a 400 naming the field", async () => {
      const server = await start();
      const { premium } = await premiumAndFree(server);
      await configureBilling(server);
      const admin = await tenantWithAdmin(server);
      const other = await tenantWithAdmin(server, 'other');
      const { paymentMethodId } = await subscribe(server, admin, premium);
      const path = pathOf(BillingPaths.paymentMethodBillingDetails, { id: paymentMethodId });
      const address = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' };

      const bad = await callAs(server, admin, 'PATCH', path, { body: { email: 'not-an-email', address } });
      expect(bad.status).toBe(400);
      expect(bad.body.errors.join(' ')).toContain('email');
      await callAs(server, other, 'POST', BillingPaths.stripeCustomers);
      expect((await callAs(server, other, 'PATCH', path, { body: { email: 'x@example.com', address } })).status).toBe(404);

      const saved = await callAs(server, admin, 'PATCH', path, { body: { id: paymentMethodId, email: 'billing@example.com', address } });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(saved.body.billingDetails).toMatchObject({ email: 'billing@example.com', address: { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' } });
      expect((await callAs(server, admin, 'GET', BillingPaths.paymentMethods)).body[0].billingDetails.email).toBe('billing@example.com');
      expect((await auditsOf(server, admin.tenantId)).map((a) => a.action)).toContain('Billing details updated');
      // A card of another tenant cannot be attached to this one's subscription.
      const stolen = await callAs(server, other, 'POST', BillingPaths.stripeSubscriptions, { body: { planId: premium, paymentMethodId } });
      expect(stolen.status).toBe(400);
      expect(stolen.body.errors.join(' ')).toContain('paymentMethodId');
    });

    it('a subscription without a card on file is refused with 402 ER-03010 (the first invoice cannot be paid), and no live subscription is recorded', async () => {
      const server = await start();
      const { premium } = await premiumAndFree(server);
      await configureBilling(server);
      const admin = await tenantWithAdmin(server);
      const res = await callAs(server, admin, 'POST', BillingPaths.stripeSubscriptions, { body: { planId: premium } });
      expect([res.status, res.body.errorCode]).toEqual([402, BillingErrorCodes.paymentFailed]);
      expect((await findEffectivePlanId(server.db, admin.tenantId)).source).not.toBe('subscription');
      const declined = await callAs(server, admin, 'POST', BillingPaths.stripeSubscriptions, { body: { planId: premium, paymentMethodId: await card(peer().url, '4000000000000002') } });
      expect([declined.status, declined.body.errorCode]).toEqual([402, BillingErrorCodes.paymentFailed]);
    });

    it("starts a trial plan's subscription without a card, with the plan's trial days; an inactive or unknown plan is 404 ER-03008", async () => {
      const server = await start();
      const trial = await insertPlan(server, { name: 'Team', price: 5000, trialDays: 14 });
      const retired = await insertPlan(server, { name: 'Legacy', price: 3000, active: false });
      await configureBilling(server);
      const admin = await tenantWithAdmin(server);
      const before = Date.now();
      const res = await callAs(server, admin, 'POST', BillingPaths.stripeSubscriptions, { body: { planId: trial } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.planId).toBe(trial);
      // Trial days from the plan (to the second, as Stripe keeps times).
      expect(res.body.trialEnd).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 14 * 86_400_000);
      expect(res.body.trialEnd).toBeLessThanOrEqual(Date.now() + 14 * 86_400_000);
      for (const planId of [retired, 'no-such-plan']) {
        const refused = await callAs(server, admin, 'POST', BillingPaths.stripeSubscriptions, { body: { planId } });
        expect([refused.status, refused.body.errorCode]).toEqual([404, BillingErrorCodes.planNotFound]);
        expect((await callAs(server, admin, 'GET', pathOf(BillingPaths.plan, { id: planId }))).status).toBe(404);
      }
    });

    it('gives a tenant one trial only: once a trial has ended, subscribing again (to the trial plan or another with trial days) starts with no trial and needs a card', async () => {
      const server = await start();
      const trial = await insertPlan(server, { name: 'Team', price: 5000, trialDays: 14 });
      const other = await insertPlan(server, { name: 'Studio', price: 7000, trialDays: 30 });
      await configureBilling(server);
      const admin = await tenantWithAdmin(server);
      const first = await callAs(server, admin, 'POST', BillingPaths.stripeSubscriptions, { body: { planId: trial } });
      expect(first.status, JSON.stringify(first.body)).toBe(201);
      expect(first.body.trialEnd).toBeGreaterThan(Date.now());
      // The trial ends unpaid (Stripe's past_due after a trial: trialEnded).
      await server.db.updateTable('subscriptions').set({ status: 'trialEnded' }).where('id', '=', first.body.id).execute();

      for (const planId of [trial, other]) {
        const again = await callAs(server, admin, 'POST', BillingPaths.stripeSubscriptions, { body: { planId } });
        expect([again.status, again.body.errorCode], JSON.stringify(again.body)).toEqual([402, BillingErrorCodes.paymentFailed]);
      }
      expect((await findEffectivePlanId(server.db, admin.tenantId)).source).not.toBe('subscription');
      const paid = await callAs(server, admin, 'POST', BillingPaths.stripeSubscriptions, { body: { planId: trial, paymentMethodId: await card(peer().url) } });
      expect(paid.status, JSON.stringify(paid.body)).toBe(201);
      expect(paid.body).toMatchObject({ planId: trial, status: 'active', trialEnd: null });
    });

    it('ends the trial when a trialing subscription changes to a plan without one: a card is needed (402 without, nothing changed) and the new plan is paid at once', async () => {
      const server = await start();
      const team = await insertPlan(server, { name: 'Team', price: 5000, trialDays: 14 });
      const { premium } = await premiumAndFree(server);
      await configureBilling(server);
      const admin = await tenantWithAdmin(server);
      const trial = await callAs(server, admin, 'POST', BillingPaths.stripeSubscriptions, { body: { planId: team } });
      expect(trial.status, JSON.stringify(trial.body)).toBe(201);
      // Stripe keeps a card-less trial 'trialing' (the emulator calls it incomplete).
      await server.db.updateTable('subscriptions').set({ status: 'trialing' }).where('id', '=', trial.body.id).execute();

      const path = pathOf(BillingPaths.managedSubscription, { id: trial.body.id });
      const free = await callAs(server, admin, 'PUT', path, { body: { planId: premium } });
      expect([free.status, free.body.errorCode], JSON.stringify(free.body)).toEqual([402, BillingErrorCodes.paymentFailed]);
      expect((await server.db.selectFrom('subscriptions').select('plan_id').where('id', '=', trial.body.id).executeTakeFirstOrThrow()).plan_id).toBe(team);

      const u = new URL(peer().url);
      const stripe = new Stripe(LOCALSTRIPE_SECRET_KEY, { host: u.hostname, port: Number(u.port), protocol: 'http' });
      const paid = await callAs(server, admin, 'PUT', path, { body: { planId: premium, paymentMethodId: await card(peer().url) } });
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
      expect(paid.body.planId).toBe(premium);
      const atStripe = await stripe.subscriptions.retrieve(trial.body.externalId);
      expect(atStripe.trial_end! * 1000).toBeLessThanOrEqual(Date.now());
    });

    it("changes only the live subscription: naming an older, ended one does not start a second subscription, so a refused downgrade stays refused", async () => {
      const server = await start();
      const { premium, free } = await premiumAndFree(server);
      await configureBilling(server, { allowPlanDowngrade: false });
      const admin = await tenantWithAdmin(server);
      // An earlier subscription of the tenant that ended (canceled a month ago).
      const old = 'old-' + Math.random().toString(36).slice(2, 10);
      const monthAgo = Date.now() - 30 * 86_400_000;
      await server.db
        .insertInto('subscriptions')
        .values({ id: old, tenant_id: admin.tenantId, plan_id: premium, external_id: null, status: 'canceled', start_date: monthAgo, current_period_start: monthAgo, current_period_end: monthAgo, cancellation: null, trial_end: null, payment_method_id: null, externally_managed: 0, created_at: monthAgo, updated_at: monthAgo, source_updated_at: monthAgo })
        .execute();
      const { subscription } = await subscribe(server, admin, premium);

      const refused = await callAs(server, admin, 'PUT', pathOf(BillingPaths.managedSubscription, { id: old }), { body: { planId: free } });
      expect([refused.status, refused.body.errorCode], JSON.stringify(refused.body)).toEqual([403, BillingErrorCodes.downgradeNotAllowed]);
      const listed = (await callAs(server, admin, 'GET', BillingPaths.managedSubscriptions)).body as { id: string; planId: string }[];
      expect(listed.map((s) => [s.id, s.planId])).toEqual([[subscription.id, premium], [old, premium]]);
      expect(await findEffectivePlanId(server.db, admin.tenantId)).toMatchObject({ planId: premium, subscriptionId: subscription.id });
    });

    it('an upgrade from a free plan to a paid one needs a card on file (402 without, nothing changed): Stripe would bill it only at the next renewal', async () => {
      const server = await start();
      const { premium, free } = await premiumAndFree(server);
      await configureBilling(server);
      const admin = await tenantWithAdmin(server);
      const onFree = await callAs(server, admin, 'POST', BillingPaths.stripeSubscriptions, { body: { planId: free } });
      expect([onFree.status, onFree.body.status], JSON.stringify(onFree.body)).toEqual([201, 'active']);

      const path = pathOf(BillingPaths.managedSubscription, { id: onFree.body.id });
      const refused = await callAs(server, admin, 'PUT', path, { body: { planId: premium } });
      expect([refused.status, refused.body.errorCode], JSON.stringify(refused.body)).toEqual([402, BillingErrorCodes.paymentFailed]);
      expect(await findEffectivePlanId(server.db, admin.tenantId)).toMatchObject({ planId: free });
      const viaCreate = await callAs(server, admin, 'POST', BillingPaths.stripeSubscriptions, { body: { planId: premium } });
      expect([viaCreate.status, viaCreate.body.errorCode]).toEqual([402, BillingErrorCodes.paymentFailed]);

      const paid = await callAs(server, admin, 'PUT', path, { body: { planId: premium, paymentMethodId: await card(peer().url) } });
      expect([paid.status, paid.body.planId], JSON.stringify(paid.body)).toEqual([200, premium]);
    });

    it('guards every call: plans for any signed-in user, the rest by fe.subscriptions.read / write, the summary of another tenant only for super users', async () => {
      const server = await start();
      const { premium, free } = await premiumAndFree(server);
      await configureBilling(server);
      const admin = await tenantWithAdmin(server);
      const plain = await memberWithoutPermissions(server, admin.tenantId);

      expect((await call(server, 'GET', BillingPaths.plans)).status).toBe(401);
      const plans = await callAs(server, plain, 'GET', BillingPaths.plans, { tenantId: admin.tenantId });
      expect(plans.status).toBe(200);
      const ours = plans.body.filter((p: { id: string }) => p.id === free || p.id === premium);
      expect(ours.map((p: { id: string }) => p.id)).toEqual([free, premium]);
      expect(Object.keys(ours[1]).slice(0, 6)).toEqual(['id', 'name', 'description', 'slug', 'price', 'recurringInterval']);
      expect(ours[1]).toMatchObject({ id: premium, name: 'Premium', description: 'Premium plan', price: { amount: 10000, currency: 'usd' }, recurringInterval: 'month' });
      expect((await callAs(server, plain, 'GET', pathOf(BillingPaths.plan, { id: premium }), { tenantId: admin.tenantId })).body.id).toBe(premium);

      for (const [method, path] of [['GET', BillingPaths.managedSubscriptions], ['GET', BillingPaths.invoices], ['GET', BillingPaths.paymentMethods], ['GET', BillingPaths.paymentProviders], ['GET', BillingPaths.tenantConfiguration], ['POST', BillingPaths.stripeCustomers]] as const) {
        const res = await callAs(server, plain, method, path, { tenantId: admin.tenantId });
        expect([path, res.status]).toEqual([path, 403]);
      }
      const write = await callAs(server, plain, 'POST', BillingPaths.stripeSubscriptions, { tenantId: admin.tenantId, body: { planId: premium } });
      expect(write.status).toBe(403);

      const other = await tenantWithAdmin(server, 'other');
      const foreign = await callAs(server, other, 'GET', pathOf(BillingPaths.summary, { tenantId: admin.tenantId }));
      expect([foreign.status, foreign.body.errors]).toEqual([403, [BillingErrorMessages.notAuthorized]]);
      const undefinedId = await callAs(server, admin, 'GET', pathOf(BillingPaths.summary, { tenantId: 'undefined' }));
      expect([undefinedId.status, undefinedId.body.errors]).toEqual([400, [BillingErrorMessages.tenantIdNotDefined]]);
      const operator = await configureBilling(server);
      const asOperator = await callAs(server, operator, 'GET', pathOf(BillingPaths.summary, { tenantId: admin.tenantId }));
      expect(asOperator.status).toBe(200);
    });
  });
});
