/** Helpers of the billing tests: plans in the database, Stripe configured by an operator through the API, a localstripe per file. */
import { OperatorPaths } from '@gatehouse/shared/wire';
import { afterAll, beforeAll, beforeEach, describe } from 'vitest';
import type { GatehouseServer } from '../app';
import { newId } from '../crypto';
import { callAs, superUser, type TenantAdmin } from './admin-helpers';
import { LOCALSTRIPE_PUBLISHABLE_KEY, LOCALSTRIPE_SECRET_KEY, localstripeMissing, peersRequired, startLocalstripe, type Localstripe } from './localstripe';

export const WEBHOOK_SECRET = 'whsec_gatehouse_test';

/** A plan row as an operator would make it (the operator API is another area's). */
export async function insertPlan(server: GatehouseServer, fields: { name: string; slug?: string; price: number; trialDays?: number; seatLimit?: number | null; active?: boolean }): Promise<string> {
  const id = newId();
  const now = Date.now();
  await server.db
    .insertInto('plans')
    .values({ id, name: fields.name, slug: fields.slug ?? `${fields.name.toLowerCase()}-${id.slice(0, 6)}`, description: `${fields.name} plan`, price_amount: fields.price, currency: 'usd', trial_days: fields.trialDays ?? 0, seat_limit: fields.seatLimit ?? null, is_active: fields.active === false ? 0 : 1, created_at: now, updated_at: now })
    .execute();
  return id;
}

/** Configures Stripe as a super user would (PUT OperatorPaths.billingConfiguration); returns the operator. */
export async function configureBilling(server: GatehouseServer, rules: { allowPlanDowngrade?: boolean; allowPlanCancellation?: boolean; defaultPlanId?: string | null } = {}, operator?: TenantAdmin): Promise<TenantAdmin> {
  const op = operator ?? (await superUser(server));
  const res = await callAs(server, op, 'PUT', OperatorPaths.billingConfiguration, {
    body: {
      secretKey: LOCALSTRIPE_SECRET_KEY,
      publishableKey: LOCALSTRIPE_PUBLISHABLE_KEY,
      webhookSecret: WEBHOOK_SECRET,
      allowPlanDowngrade: rules.allowPlanDowngrade ?? true,
      allowPlanCancellation: rules.allowPlanCancellation ?? true,
      trialEndOption: 'change_to_default',
      defaultPlanId: rules.defaultPlanId ?? null,
    },
  });
  if (res.status !== 200) throw new Error(`billing configuration failed: ${res.status} ${JSON.stringify(res.body)}`);
  return op;
}

/**
 * A describe block with one localstripe for the file, flushed before each test. Skipped when
 * localstripe is not installed, unless REQUIRE_PEERS=1, where the missing peer fails the file.
 */
export function describeWithLocalstripe(title: string, body: (peer: () => Localstripe) => void): void {
  const missing = localstripeMissing();
  const skip = missing !== null && !peersRequired();
  (skip ? describe.skip : describe)(title, () => {
    let peer: Localstripe | null = null;
    beforeAll(async () => {
      peer = await startLocalstripe();
    }, 40_000);
    afterAll(async () => {
      await peer?.stop();
    });
    beforeEach(async () => {
      await peer?.flush();
    });
    body(() => {
      if (!peer) throw new Error(missing ?? 'localstripe did not start');
      return peer;
    });
  });
}
