/**
 * Stripe's webhooks against the built server and a real Stripe emulator (localstripe, issue 13).
 * The vendor's operator (promoted with the CLI) configures billing with localstripe's keys and a
 * webhook secret, and localstripe is told to deliver its signed events to the server. A tenant
 * subscribes to Premium with a card; Stripe then ends the subscription on its side, and the
 * customer.subscription.deleted event it delivers ends it here too. That same event, replayed
 * twice as Stripe would retry it, changes nothing; an older event arriving late changes nothing;
 * a forged one is refused.
 */
import Stripe from 'stripe';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BillingPaths, OperatorPaths } from '@gatehouse/shared/wire';
import { LOCALSTRIPE_PUBLISHABLE_KEY, LOCALSTRIPE_SECRET_KEY, localstripeMissing, peersRequired, startLocalstripe, type Localstripe } from '../server/src/test/localstripe';
import { waitForMail } from './support/mailbox';
import { startGatehouse, type RunningServer, promoteSuperUser } from './support/server';

const skip = localstripeMissing() !== null && !peersRequired();
const WEBHOOK_SECRET = 'whsec_e2e_billing_webhooks';
const PASSWORD = 'correct horse battery staple 42';
const ctx = {} as { server: RunningServer; peer: Localstripe; stripe: Stripe };

beforeAll(async () => {
  if (skip) return;
  ctx.peer = await startLocalstripe();
  ctx.server = await startGatehouse({ STRIPE_API_URL: ctx.peer.url });
  const u = new URL(ctx.peer.url);
  ctx.stripe = new Stripe(LOCALSTRIPE_SECRET_KEY, { host: u.hostname, port: Number(u.port), protocol: 'http' });
  await ctx.peer.registerWebhook('billing-webhooks-e2e', `http://127.0.0.1:${ctx.server.port}${BillingPaths.stripeWebhook}`, WEBHOOK_SECRET);
}, 60_000);
afterAll(async () => {
  await ctx.server?.stop();
  await ctx.peer?.stop();
});

async function call<T = any>(token: string | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: T }> {
  const res = await fetch(`${ctx.server.url}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** Signs up through the API and activates from the dev outbox: the new tenant's admin and their token. */
async function signUp(prefix: string): Promise<{ email: string; token: string; tenantId: string }> {
  const email = `${prefix}+${Date.now()}@example.com`;
  const res = await call(null, 'POST', '/identity/resources/users/v1/signUp', { email, password: PASSWORD, name: 'Billing Admin' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const link = new URL(/https?:\/\/\S+\/account\/activate\?\S+/.exec((await waitForMail(ctx.server.url, email, /activ/i)).text)![0]);
  const activated = await call(null, 'POST', '/identity/resources/users/v1/activate', { userId: link.searchParams.get('userId'), token: link.searchParams.get('token'), password: PASSWORD });
  expect(activated.status, JSON.stringify(activated.body)).toBe(200);
  return { email, token: activated.body.accessToken, tenantId: res.body.tenantId };
}

/** Posts a Stripe event to the webhook, signed as Stripe signs (the SDK's own test header). */
function deliver(event: object, secret = WEBHOOK_SECRET) {
  const payload = JSON.stringify(event);
  return call(null, 'POST', BillingPaths.stripeWebhook, payload, { 'content-type': 'application/json', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }) });
}

async function eventually<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 250));
  }
}

it.skipIf(skip)('a subscription event delivered by Stripe is applied; replayed twice it changes nothing the second time; an older event arriving late changes nothing', { timeout: 120_000 }, async () => {
  const operator = await signUp('operator');
  await promoteSuperUser(ctx.server, operator.email);
  const configured = await call(operator.token, 'PUT', OperatorPaths.billingConfiguration, {
    secretKey: LOCALSTRIPE_SECRET_KEY, publishableKey: LOCALSTRIPE_PUBLISHABLE_KEY, webhookSecret: WEBHOOK_SECRET,
    allowPlanDowngrade: true, allowPlanCancellation: true, trialEndOption: 'change_to_default', defaultPlanId: null,
  });
  expect(configured.status, JSON.stringify(configured.body)).toBe(200);
  const premium = await call<{ id: string }>(operator.token, 'POST', OperatorPaths.plans, { name: 'Premium', description: 'For growing teams', slug: `premium-${Date.now()}`, price: { amount: 10000, currency: 'usd' } });
  expect(premium.status, JSON.stringify(premium.body)).toBe(201);

  const admin = await signUp('tenant');
  const card = await ctx.stripe.paymentMethods.create({ type: 'card', card: { number: '4242424242424242', exp_month: 12, exp_year: 2034, cvc: '123' } });
  const subscribed = await call(admin.token, 'POST', BillingPaths.stripeSubscriptions, { planId: premium.body.id, paymentMethodId: card.id });
  expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(201);
  expect(subscribed.body.status).toBe('active');
  const externalId: string = subscribed.body.externalId;

  // Stripe's side of the story moves on a second later: it ends the subscription, and delivers the event.
  await new Promise((r) => setTimeout(r, 1100));
  await ctx.stripe.subscriptions.cancel(externalId);
  const ended = await eventually(async () => {
    const list = await call<any[]>(admin.token, 'GET', BillingPaths.managedSubscriptions);
    return list.body[0]?.status === 'canceled' ? list.body : null;
  });
  // The tenant has no plan any more (no default plan is configured): entitlements follow at once.
  const summary = await call(admin.token, 'GET', BillingPaths.summary.replace('{tenantId}', admin.tenantId));
  expect([summary.status, summary.body.currentPlanId]).toEqual([200, null]);

  // The same event, replayed twice (as Stripe retries a delivery): recognised, and nothing changes.
  const deleted = (await ctx.stripe.events.list({ type: 'customer.subscription.deleted' })).data.find((e) => (e.data.object as { id: string }).id === externalId)!;
  expect(deleted).toBeDefined();
  const first = await deliver(deleted);
  const second = await deliver(deleted);
  expect([first.status, first.body.outcome]).toEqual([200, 'duplicate']);
  expect([second.status, second.body.outcome]).toEqual([200, 'duplicate']);
  expect((await call(admin.token, 'GET', BillingPaths.managedSubscriptions)).body).toEqual(ended);

  // An older event (the subscription's creation, under a new id) arriving late changes nothing.
  const createdEvent = (await ctx.stripe.events.list({ type: 'customer.subscription.created' })).data.find((e) => (e.data.object as { id: string }).id === externalId)!;
  const late = await deliver({ ...createdEvent, id: `evt_late_${Date.now()}` });
  expect([late.status, late.body.outcome]).toEqual([200, 'unchanged']);
  expect((await call(admin.token, 'GET', BillingPaths.managedSubscriptions)).body).toEqual(ended);

  // A forged delivery is refused, with nothing of why.
  const forged = await deliver({ ...createdEvent, id: `evt_forged_${Date.now()}` }, 'whsec_forged');
  expect([forged.status, forged.body.errors]).toEqual([400, ['Invalid webhook signature']]);
});
