import { expect, it } from 'vitest';
import { InvoicesResponse, minorToMajor, PlansResponse, Subscription } from '../wire/billing/billing';
import { PREVIEW_INVOICES, PREVIEW_PLANS, PREVIEW_SUBSCRIPTION } from './billing';

it("parses with the wire schemas: seed 001's Premium (10000 minor units, usd, a month) and Free (0)", () => {
  const plans = PlansResponse.parse(PREVIEW_PLANS);
  expect(plans.map((p) => [p.name, p.price.amount, p.price.currency, p.recurringInterval])).toEqual([
    ['Free', 0, 'usd', 'month'],
    ['Premium', 10000, 'usd', 'month'],
  ]);
  expect(Subscription.parse(PREVIEW_SUBSCRIPTION).planId).toBe(plans[1]!.id);
  const invoices = InvoicesResponse.parse(PREVIEW_INVOICES);
  expect(invoices[0]!.totalAmount).toBe(minorToMajor(plans[1]!.price.amount));
});
