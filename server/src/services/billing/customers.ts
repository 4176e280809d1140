/**
 * A tenant's Stripe customer, made on first need (create_customer) and kept in billing_customers.
 * Two first calls at once may both ask Stripe; the first stored wins, and the other's customer is
 * deleted at Stripe so no orphan is left behind.
 */
import type { Clock } from '../../clock';
import type { Db } from '../../db';
import { findCustomerId, insertCustomer } from '../../db/queries/billing-customers';
import { findTenant } from '../../db/queries/tenants';
import { Errors } from '../../errors';
import { stripeCall, type StripeClient } from './stripe-gateway';

/** The tenant's customer id, made at Stripe when it has none. */
export async function ensureCustomer(deps: { db: Db; clock: Clock }, stripe: StripeClient, tenantId: string): Promise<string> {
  const known = await findCustomerId(deps.db, tenantId);
  if (known) return known;
  const tenant = await findTenant(deps.db, tenantId);
  if (!tenant) throw Errors.notFound('Tenant not found');
  const created = await stripeCall(() => stripe.customers.create({ name: tenant.name.slice(0, 200), metadata: { tenantId } }));
  if (await insertCustomer(deps.db, tenantId, created.id, deps.clock.now())) return created.id;
  await stripe.customers.del(created.id).catch(() => undefined);
  return (await findCustomerId(deps.db, tenantId))!;
}
