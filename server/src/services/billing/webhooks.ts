/**
 * Stripe's webhooks, the source of truth for subscriptions and invoices (issue 13):
 * - the signature is checked with `stripe.webhooks.constructEvent` and the vendor's webhook secret;
 *   a bad one is refused with no detail of why;
 * - idempotent by event id: the event is recorded in stripe_events in the same transaction as the
 *   change it makes, so a replay (or two deliveries at once) changes nothing the second time;
 * - out-of-order safe: a row holding a change newer than the event's `created` is left alone.
 * A subscription change shows in entitlements at once: they read the subscription row
 * (findEffectivePlanId), so the next token refresh carries them.
 */
import { BillingErrorCodes } from '@gatehouse/shared/wire';
import Stripe from 'stripe';
import type { Clock } from '../../clock';
import type { Db } from '../../db';
import { findTenantOfCustomer } from '../../db/queries/billing-customers';
import { recordStripeEvent } from '../../db/queries/stripe-events';
import { AppError } from '../../errors';
import type { BillingConfigurationService } from './configuration';
import { applyInvoice, applySubscription, customerOf } from './sync';

export type WebhookOutcome = 'applied' | 'unchanged' | 'duplicate' | 'ignored';

export interface WebhookService {
  /** Checks, records and applies one delivery; throws 400 on a bad signature. */
  receive(rawBody: string, signature: string | undefined): Promise<{ eventId: string; outcome: WebhookOutcome }>;
}

const invalid = () => new AppError(BillingErrorCodes.invalidWebhook, 400, 'Invalid webhook signature');

/** Event types that carry a subscription or an invoice. */
const SUBSCRIPTION_EVENT = /^customer\.subscription\.(created|updated|deleted|trial_will_end|paused|resumed|pending_update_applied|pending_update_expired)$/;
const INVOICE_EVENT = /^invoice\./;

export function createWebhookService(deps: { db: Db; clock: Clock; configuration: BillingConfigurationService }): WebhookService {
  const { db, clock, configuration } = deps;
  // constructEvent needs no key of its own: the signature is checked with the webhook secret.
  const verifier = new Stripe('sk_webhooks_only', { telemetry: false });
  return {
    async receive(rawBody, signature) {
      const { webhookSecret } = await configuration.vendor();
      if (!webhookSecret || !signature) throw invalid();
      let event: Stripe.Event;
      try {
        event = verifier.webhooks.constructEvent(rawBody, signature, webhookSecret);
      } catch {
        throw invalid();
      }
      if (typeof event.id !== 'string' || typeof event.type !== 'string' || typeof event.created !== 'number') throw invalid();
      const object = (event.data?.object ?? {}) as unknown as Record<string, any>;
      const sourceTime = event.created * 1000;
      const outcome = await db.transaction().execute(async (trx): Promise<WebhookOutcome> => {
        const now = clock.now();
        if (!(await recordStripeEvent(trx, { id: event.id, type: event.type, created: sourceTime }, now))) return 'duplicate';
        const isSubscription = SUBSCRIPTION_EVENT.test(event.type) && object.object === 'subscription';
        const isInvoice = INVOICE_EVENT.test(event.type) && object.object === 'invoice';
        if ((!isSubscription && !isInvoice) || typeof object.id !== 'string') return 'ignored';
        const customer = customerOf(object);
        const tenantId = customer ? await findTenantOfCustomer(trx, customer) : undefined;
        if (!tenantId) return 'ignored';
        const changed = isSubscription ? await applySubscription(trx, tenantId, object, sourceTime, now) : await applyInvoice(trx, tenantId, object, sourceTime, now);
        return changed ? 'applied' : 'unchanged';
      });
      return { eventId: event.id, outcome };
    },
  };
}
