import { BillingErrorCodes, BillingPaths } from '@gatehouse/shared/wire';
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { findEffectivePlanId } from '../../db/queries/tenant-plan';
import { callAs, tenantWithAdmin } from '../../test/admin-helpers';
import { configureBilling, describeWithLocalstripe, insertPlan, WEBHOOK_SECRET } from '../../test/billing-helpers';
import { call, describeDialects } from '../../test/harness';
import { LOCALSTRIPE_SECRET_KEY } from '../../test/localstripe';

/** Waits until `check` holds (localstripe delivers its events about a second after the change). */
async function eventually<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A delivery signed as Stripe signs them (the SDK's own test header), with `secret`. */
function deliver(server: GatehouseServer, event: object, secret = WEBHOOK_SECRET) {
  const payload = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  return call(server, 'POST', BillingPaths.stripeWebhook, { rawBody: payload, headers: { 'stripe-signature': signature } });
}

describeWithLocalstripe('billing webhooks against localstripe', (peer) => {
  describeDialects('Stripe webhooks', (h) => {
    async function listening(): Promise<{ server: GatehouseServer; url: string; close: () => Promise<void> }> {
      const server = await h.start({ STRIPE_API_URL: peer().url, RATE_LIMIT_SIGNUP_PER_IP: '1000/60' });
      const listener: ServerType = serve({ fetch: server.fetch, port: 0, hostname: '127.0.0.1' });
      await new Promise((r) => listener.once('listening', r));
      const { port } = listener.address() as AddressInfo;
      return { server, url: `http://127.0.0.1:${port}${BillingPaths.stripeWebhook}`, close: () => new Promise<void>((r) => listener.close(() => r())) };
    }

    /** localstripe delivers to `url`; plans Premium (10000) and Free (the default); a tenant admin subscribed to Premium with a test card. */
    async function subscribedToPremium(server: GatehouseServer, url: string) {
      await peer().registerWebhook('gatehouse', url, WEBHOOK_SECRET);
      const premium = await insertPlan(server, { name: 'Premium', price: 10000 });
      const free = await insertPlan(server, { name: 'Free', price: 0 });
      await configureBilling(server, { defaultPlanId: free });
      const admin = await tenantWithAdmin(server);
      const u = new URL(peer().url);
      const stripe = new Stripe(LOCALSTRIPE_SECRET_KEY, { host: u.hostname, port: Number(u.port), protocol: 'http' });
      const pm = await stripe.paymentMethods.create({ type: 'card', card: { number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123' } });
      const created = await callAs(server, admin, 'POST', BillingPaths.stripeSubscriptions, { body: { planId: premium, paymentMethodId: pm.id } });
      expect(created.status).toBe(201);
      return { premium, free, admin, stripe, externalId: created.body.externalId as string };
    }

    it('applies the events localstripe sends (signed), once each: a replayed event changes nothing, an older one arriving late changes nothing, a newer one applies and shows in the effective plan at once', async () => {
      const { server, url, close } = await listening();
      try {
        const { premium, free, admin, stripe, externalId } = await subscribedToPremium(server, url);

        // localstripe's own deliveries arrive and are recorded.
        const delivered = await eventually(async () => {
          const rows = await server.db.selectFrom('stripe_events').selectAll().where('type', '=', 'customer.subscription.created').execute();
          return rows.length ? rows : null;
        });
        expect(delivered).toHaveLength(1);
        await eventually(() => server.db.selectFrom('stripe_events').select('id').where('type', '=', 'invoice.payment_succeeded').executeTakeFirst());

        // Replay the very event Stripe sent: the second delivery is a duplicate and changes nothing.
        const original = await stripe.events.retrieve(delivered[0]!.id);
        const rowBefore = await server.db.selectFrom('subscriptions').selectAll().where('external_id', '=', externalId).executeTakeFirstOrThrow();
        const replay1 = await deliver(server, original);
        const replay2 = await deliver(server, original);
        expect([replay1.status, replay1.body.outcome]).toEqual([200, 'duplicate']);
        expect([replay2.status, replay2.body.outcome]).toEqual([200, 'duplicate']);
        expect(await server.db.selectFrom('stripe_events').select('id').where('id', '=', original.id).execute()).toHaveLength(1);
        expect(await server.db.selectFrom('subscriptions').selectAll().where('external_id', '=', externalId).executeTakeFirstOrThrow()).toEqual(rowBefore);

        // An older event (before the row's last change) that arrives late moves nothing back.
        const sub = original.data.object as unknown as Record<string, unknown>;
        const stale = { ...original, id: 'evt_stale_1', type: 'customer.subscription.updated', created: original.created - 3600, data: { object: { ...sub, status: 'canceled' } } };
        const staleRes = await deliver(server, stale);
        expect([staleRes.status, staleRes.body.outcome]).toEqual([200, 'unchanged']);
        expect((await server.db.selectFrom('subscriptions').select('status').where('external_id', '=', externalId).executeTakeFirstOrThrow()).status).toBe('active');
        expect(await findEffectivePlanId(server.db, admin.tenantId)).toMatchObject({ planId: premium, source: 'subscription' });

        // The real cancellation at Stripe: its customer.subscription.deleted event ends the subscription, and the tenant falls back to the default plan.
        await stripe.subscriptions.cancel(externalId);
        await eventually(async () => (await server.db.selectFrom('subscriptions').select('status').where('external_id', '=', externalId).executeTakeFirstOrThrow()).status === 'canceled');
        expect(await findEffectivePlanId(server.db, admin.tenantId)).toEqual({ planId: free, source: 'default', subscriptionId: null });
        expect((await callAs(server, admin, 'GET', BillingPaths.managedSubscriptions)).body[0]).toMatchObject({ status: 'canceled' });

        // Invoice events write invoices: a new one (Stripe's next invoice, 50.00), then an older, unpaid version of it arriving late changes nothing.
        const paidEvent = (await stripe.events.list({ type: 'invoice.payment_succeeded' })).data[0]!;
        const invoice = paidEvent.data.object as unknown as Record<string, unknown>;
        const nextId = `in_next_${Date.now()}`;
        const now = Math.floor(Date.now() / 1000);
        const next = await deliver(server, { ...paidEvent, id: `evt_next_${Date.now()}`, created: now, data: { object: { ...invoice, id: nextId, total: 5000 } } });
        expect([next.status, next.body.outcome]).toEqual([200, 'applied']);
        const older = await deliver(server, { ...paidEvent, id: `evt_older_${Date.now()}`, type: 'invoice.created', created: now - 60, data: { object: { ...invoice, id: nextId, total: 5000, paid: false, status: 'open' } } });
        expect([older.status, older.body.outcome]).toEqual([200, 'unchanged']);
        const invoices = (await callAs(server, admin, 'GET', BillingPaths.invoices)).body as { externalId: string; totalAmount: number; paid: boolean }[];
        expect(invoices.find((i) => i.externalId === nextId)).toMatchObject({ totalAmount: 50, paid: true });
      } finally {
        await close();
      }
    });

    it("keeps a canceled subscription canceled: an 'updated' event of the same second as the cancellation, delivered after it, does not bring it (and the paid plan) back", async () => {
      const { server, url, close } = await listening();
      try {
        const { free, admin, stripe, externalId } = await subscribedToPremium(server, url);
        const live = await stripe.subscriptions.retrieve(externalId);
        await stripe.subscriptions.cancel(externalId);
        const row = await eventually(async () => {
          const r = await server.db.selectFrom('subscriptions').selectAll().where('external_id', '=', externalId).executeTakeFirstOrThrow();
          return r.status === 'canceled' ? r : null;
        });
        // Stripe's times are whole seconds: an update made in the second of the cancellation, delivered late.
        const second = Math.floor(Number(row.source_updated_at) / 1000);
        const late = { id: `evt_same_second_${Date.now()}`, object: 'event', type: 'customer.subscription.updated', created: second, data: { object: { ...live, status: 'active' } } };
        const res = await deliver(server, late);
        expect([res.status, res.body.outcome]).toEqual([200, 'unchanged']);
        expect((await server.db.selectFrom('subscriptions').select('status').where('external_id', '=', externalId).executeTakeFirstOrThrow()).status).toBe('canceled');
        expect(await findEffectivePlanId(server.db, admin.tenantId)).toEqual({ planId: free, source: 'default', subscriptionId: null });
      } finally {
        await close();
      }
    });

    it('refuses a delivery with a bad or missing signature (400, no detail) and records nothing; two deliveries of one event at once record it once', async () => {
      const server = await h.start({ STRIPE_API_URL: peer().url });
      await configureBilling(server);
      const event = { id: 'evt_forged', object: 'event', type: 'customer.subscription.updated', created: Math.floor(Date.now() / 1000), data: { object: { id: 'sub_x', object: 'subscription', status: 'active', customer: 'cus_x' } } };
      const forged = await deliver(server, event, 'whsec_not_the_secret');
      expect([forged.status, forged.body.errorCode, forged.body.errors]).toEqual([400, BillingErrorCodes.invalidWebhook, ['Invalid webhook signature']]);
      const unsigned = await call(server, 'POST', BillingPaths.stripeWebhook, { rawBody: JSON.stringify(event) });
      expect(unsigned.status).toBe(400);
      // A signed body changed afterwards fails too.
      const payload = JSON.stringify(event);
      const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
      const tampered = await call(server, 'POST', BillingPaths.stripeWebhook, { rawBody: payload.replace('active', 'canceled'), headers: { 'stripe-signature': header } });
      expect(tampered.status).toBe(400);
      expect(await server.db.selectFrom('stripe_events').select('id').where('id', '=', 'evt_forged').execute()).toEqual([]);
      // A well-signed event about a customer not ours is recorded and ignored.
      const foreign = await deliver(server, event);
      expect([foreign.status, foreign.body.outcome]).toEqual([200, 'ignored']);
      // Two deliveries of one new event at once: recorded once, the other is the duplicate.
      const twin = { ...event, id: `evt_twin_${Date.now()}` };
      const both = await Promise.all([deliver(server, twin), deliver(server, twin)]);
      expect(both.map((r) => r.body.outcome).sort()).toEqual(['duplicate', 'ignored']);
      expect(await server.db.selectFrom('stripe_events').select('id').where('id', '=', twin.id).execute()).toHaveLength(1);
    });
  });
});
