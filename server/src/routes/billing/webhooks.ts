/** Stripe's webhook (raw body, `Stripe-Signature`): checked, applied once, out-of-order safe (services/billing/webhooks.ts). */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { BillingPaths } from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import type { WebhookService } from '../../services/billing/webhooks';
import { err, json } from '../openapi';

const Received = z.object({ received: z.literal(true), eventId: z.string(), outcome: z.enum(['applied', 'unchanged', 'duplicate', 'ignored']) });

export function webhookRoutes(webhooks: WebhookService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.openapi(
    createRoute({
      method: 'post',
      path: BillingPaths.stripeWebhook,
      tags: ['billing: Stripe webhooks'],
      summary: "Stripe's events (the raw body is signed: `Stripe-Signature`). Each event id is applied once; an event older than the row's last change changes nothing",
      request: { headers: z.object({ 'stripe-signature': z.string().max(2000).optional() }) },
      responses: { 200: json(Received, 'Received (applied, already applied, or not about a tenant here)'), 400: err('Invalid webhook signature (ER-03011), or billing is not configured') },
    }),
    async (c) => {
      const result = await webhooks.receive(await c.req.text(), c.req.header('stripe-signature'));
      return c.json({ received: true as const, ...result }, 200);
    },
  );
  return app;
}
