import { BillingErrorMessages } from '@gatehouse/shared/wire';
import Stripe from 'stripe';
import { expect, it } from 'vitest';
import { createStripeGateway, stripeFailure } from './stripe-gateway';

it('points the SDK at STRIPE_API_URL (host, port, protocol), one client per key', () => {
  const gateway = createStripeGateway({ stripeApiUrl: 'http://127.0.0.1:8420' });
  expect(gateway.apiBase).toBe('http://127.0.0.1:8420');
  const client = gateway.client('sk_test_a');
  expect(gateway.client('sk_test_a')).toBe(client);
  expect(gateway.client('sk_test_b')).not.toBe(client);
  // The SDK keeps its settings here; asserting them proves the emulator is where calls go.
  const settings = (client as unknown as { _api: { host: string; port: string | number; protocol: string } })._api;
  expect([settings.host, Number(settings.port), settings.protocol]).toEqual(['127.0.0.1', 8420, 'http']);
  expect(createStripeGateway({ stripeApiUrl: null }).apiBase).toBe('https://api.stripe.com');
});

it('refuses to build a client without a key ("Payment provider not configured") and hides Stripe\'s other failures behind "Internal feature failure"', () => {
  const gateway = createStripeGateway({ stripeApiUrl: null });
  expect(() => gateway.client(null)).toThrow(BillingErrorMessages.providerNotConfigured);
  const hidden = stripeFailure(new Stripe.errors.StripeInvalidRequestError({ message: 'No such customer: cus_of_another_tenant', type: 'invalid_request_error' }));
  expect(hidden.message).toBe(BillingErrorMessages.internalFeatureFailure);
  const card = stripeFailure(new Stripe.errors.StripeCardError({ message: 'Your card was declined.', type: 'card_error' }));
  expect([card.message, (card as unknown as { status: number }).status]).toEqual(['Your card was declined.', 402]);
});
