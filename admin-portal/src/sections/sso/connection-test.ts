/** The rules of "Test connection" in the portal, apart from React: waiting for the report, and when a test can run. */
import type { SsoConfiguration, SsoTestReport } from '@gatehouse/shared/wire';

/** How often the portal asks for the report while the admin signs in at the IdP. */
export const TEST_POLL_MS = 2000;

/**
 * A test can run once the IdP is known (SAML: its entity id, sign-in URL and certificate; OIDC: its issuer,
 * client id and client secret); being turned on is not needed.
 */
export function canTest(config: SsoConfiguration): boolean {
  if (config.type === 'oidc') return Boolean(config.oidc?.issuer && config.oidc.clientId && config.oidc.hasClientSecret);
  return config.type === 'saml' && Boolean(config.idpEntityId && config.ssoEndpoint && config.publicCertificate);
}

/**
 * The redirect URI of an OIDC test: the login box's oidcRedirectUrl route on this page's origin, as
 * real sign-ins send it (the one registered at the IdP), so the IdP's answer comes back to the login box.
 */
export function oidcRedirectUri(route: string, here: string): string {
  const url = new URL(route, here);
  return `${url.origin}${url.pathname}`;
}

/**
 * Asks for the report until the IdP answered, and no longer than the test lives: the report, or
 * 'expired' once `expiresAt` passed (or the server forgot the test), or 'cancelled'.
 */
export async function waitForReport(
  read: () => Promise<SsoTestReport>,
  options: { expiresAt: number; now?: () => number; wait?: (ms: number) => Promise<void>; intervalMs?: number; cancelled?: () => boolean },
): Promise<SsoTestReport | 'expired' | 'cancelled'> {
  const now = options.now ?? Date.now;
  const wait = options.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const interval = options.intervalMs ?? TEST_POLL_MS;
  while (now() < options.expiresAt) {
    if (options.cancelled?.()) return 'cancelled';
    let report: SsoTestReport;
    try {
      report = await read();
    } catch (error) {
      // 404: expired or spent on the server; anything else is for the caller to show.
      if ((error as { statusCode?: unknown } | null)?.statusCode === 404) return 'expired';
      throw error;
    }
    if (report.status !== 'pending') return report;
    await wait(Math.min(interval, Math.max(0, options.expiresAt - now())));
  }
  return options.cancelled?.() ? 'cancelled' : 'expired';
}
