import { SubscriptionStatuses } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { mapStripeStatus } from './statuses';

it("maps Stripe's statuses to the seed's, an unpaid end of trial to trialEnded, and anything unknown to expired", () => {
  expect(mapStripeStatus('active', false)).toBe('active');
  expect(mapStripeStatus('trialing', true)).toBe('trialing');
  expect(mapStripeStatus('canceled', false)).toBe('canceled');
  expect(mapStripeStatus('incomplete', false)).toBe('incomplete');
  expect(mapStripeStatus('incomplete_expired', false)).toBe('expired');
  expect(mapStripeStatus('past_due', true)).toBe('trialEnded');
  expect(mapStripeStatus('unpaid', true)).toBe('trialEnded');
  expect(mapStripeStatus('past_due', false)).toBe('expired');
  expect(mapStripeStatus('paused', true)).toBe('trialEnded');
  expect(mapStripeStatus('something_new', false)).toBe('expired');
  expect(mapStripeStatus(undefined, false)).toBe('expired');
  for (const s of ['active', 'trialing', 'canceled', 'incomplete', 'incomplete_expired', 'past_due', 'unpaid', 'paused', 'x']) {
    expect(SubscriptionStatuses).toContain(mapStripeStatus(s, s === 'paused'));
  }
});
