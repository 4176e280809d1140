/**
 * Stripe's subscription statuses mapped to the seed's (seed 001 section 4): active, canceled,
 * incomplete, expired, trialing, trialEnded. Anything else, or a status Stripe adds later, is expired.
 *
 * | Stripe               | Gatehouse  | why                                                             |
 * | -------------------- | ---------- | --------------------------------------------------------------- |
 * | active               | active     |                                                                 |
 * | trialing             | trialing   |                                                                 |
 * | canceled             | canceled   |                                                                 |
 * | incomplete           | incomplete | the first payment is not made yet                               |
 * | past_due, unpaid     | trialEnded | when the subscription had a trial that ended unpaid, else expired |
 * | paused               | trialEnded | Stripe pauses a trial that ended without a payment method       |
 * | incomplete_expired   | expired    |                                                                 |
 * | anything else        | expired    |                                                                 |
 */
import type { SubscriptionStatus } from '@gatehouse/shared/wire';

export function mapStripeStatus(status: string | null | undefined, hadTrial: boolean): SubscriptionStatus {
  switch (status) {
    case 'active':
      return 'active';
    case 'trialing':
      return 'trialing';
    case 'canceled':
      return 'canceled';
    case 'incomplete':
      return 'incomplete';
    case 'paused':
      return 'trialEnded';
    case 'past_due':
    case 'unpaid':
      return hadTrial ? 'trialEnded' : 'expired';
    default:
      return 'expired';
  }
}
