import { BillingPaths } from '@gatehouse/shared/admin-paths';

/**
 * The address Stripe must send events to: the server's public URL (the issuer of the signed-in
 * user's access token, GATEHOUSE_PUBLIC_URL) followed by the webhook path. Null when the token
 * carries no usable issuer (then the page shows the path alone).
 */
export function stripeWebhookUrl(accessToken: string | null | undefined): string | null {
  const payload = accessToken?.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '='));
    const iss = (JSON.parse(json) as { iss?: unknown }).iss;
    if (typeof iss !== 'string') return null;
    const base = new URL(iss);
    if (base.protocol !== 'https:' && base.protocol !== 'http:') return null;
    return `${base.origin}${base.pathname.replace(/\/+$/, '')}${BillingPaths.stripeWebhook}`;
  } catch {
    return null;
  }
}
