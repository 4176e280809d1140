import { describe, expect, it } from 'vitest';
import { stripeWebhookUrl } from './webhook-url';

const token = (claims: Record<string, unknown>) => `h.${btoa(JSON.stringify(claims)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')}.s`;

describe('Stripe webhook URL', () => {
  it('is the access token issuer (the public URL) followed by the webhook path', () => {
    expect(stripeWebhookUrl(token({ iss: 'https://auth.example.com' }))).toBe('https://auth.example.com/subscriptions/resources/billing/stripe/webhooks/v1');
    expect(stripeWebhookUrl(token({ iss: 'https://example.com/auth/' }))).toBe('https://example.com/auth/subscriptions/resources/billing/stripe/webhooks/v1');
  });

  it('is unknown for a token without a web issuer, or no token', () => {
    expect(stripeWebhookUrl(token({ sub: 'u' }))).toBeNull();
    expect(stripeWebhookUrl(token({ iss: 'javascript:alert(1)' }))).toBeNull();
    expect(stripeWebhookUrl('not-a-token')).toBeNull();
    expect(stripeWebhookUrl(null)).toBeNull();
  });
});
