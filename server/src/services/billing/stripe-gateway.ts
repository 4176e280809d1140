/**
 * The one way billing reaches Stripe: the official `stripe` SDK, built from the vendor's secret key
 * (the operator's billing configuration) and STRIPE_API_URL (host, port and protocol; tests point it
 * at localstripe). Nothing here logs a key. Stripe's failures become AppErrors: a declined card is
 * 402 with Stripe's own sentence (it is meant for the card holder); anything else is 502 "Internal
 * feature failure" with no detail, since Stripe's messages can name objects of other tenants.
 */
import { BillingErrorCodes, BillingErrorMessages, ErrorCodes } from '@gatehouse/shared/wire';
import Stripe from 'stripe';
import type { Config } from '../../config';
import { AppError } from '../../errors';

export type StripeClient = Stripe;

/** Builds SDK clients for a secret key, one per key. */
export interface StripeGateway {
  /** A client for `secretKey`; throws "Payment provider not configured" (409) when there is no key. */
  client(secretKey: string | null): StripeClient;
  /** The base the SDK calls, for the operator's information. */
  readonly apiBase: string;
}

export function createStripeGateway(config: Pick<Config, 'stripeApiUrl'>): StripeGateway {
  const base = config.stripeApiUrl ? new URL(config.stripeApiUrl) : null;
  const options: Stripe.StripeConfig = {
    maxNetworkRetries: 1,
    timeout: 20_000,
    telemetry: false,
    ...(base
      ? {
          host: base.hostname.replace(/^\[|\]$/g, ''),
          port: base.port ? Number(base.port) : base.protocol === 'https:' ? 443 : 80,
          protocol: base.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  };
  const clients = new Map<string, StripeClient>();
  return {
    apiBase: base ? base.origin : 'https://api.stripe.com',
    client(secretKey) {
      if (!secretKey) throw providerNotConfigured();
      let client = clients.get(secretKey);
      if (!client) {
        client = new Stripe(secretKey, options);
        clients.set(secretKey, client);
      }
      return client;
    },
  };
}

export const providerNotConfigured = () => new AppError(BillingErrorCodes.providerNotConfigured, 409, BillingErrorMessages.providerNotConfigured);

/** Runs one Stripe call, turning its failures into the errors this API answers. */
export async function stripeCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw stripeFailure(err);
  }
}

/** The AppError a Stripe failure becomes (an AppError passes through). */
export function stripeFailure(err: unknown): Error {
  if (typeof err === 'object' && err !== null && (err as { kind?: unknown }).kind === 'AppError') return err as Error;
  if (err instanceof Stripe.errors.StripeCardError) return new AppError(BillingErrorCodes.paymentFailed, 402, err.message || 'The card was declined');
  if (err instanceof Stripe.errors.StripeAuthenticationError) return new AppError(BillingErrorCodes.providerNotConfigured, 409, BillingErrorMessages.providerNotConfigured);
  return new AppError(ErrorCodes.generic, 502, BillingErrorMessages.internalFeatureFailure);
}
