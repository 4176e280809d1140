/** The rules of "Test connection" in the portal, apart from React: waiting for the report, and when a test can run. */
import type { SsoConfiguration, SsoTestReport, SsoTestStartResponse } from '@gatehouse/shared/wire';

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
 * The local time until which the portal waits for a test's report: this browser's time when the start
 * was answered plus the test's life from that answer (`expiresInMs`), never the server's `expiresAt`
 * compared with this browser's clock, which may be ahead of or behind the server's.
 */
export function localDeadline(started: Pick<SsoTestStartResponse, 'expiresInMs'>, answeredAt: number): number {
  return answeredAt + started.expiresInMs;
}

/**
 * Asks for the report while the server answers pending: the report, 'expired' once the server forgot
 * the test (404: expired or spent) or, should it still say pending, once the local `deadline` passed
 * (asked at the deadline itself too), or 'cancelled'.
 */
export async function waitForReport(
  read: () => Promise<SsoTestReport>,
  options: { deadline: number; now?: () => number; wait?: (ms: number) => Promise<void>; intervalMs?: number; cancelled?: () => boolean },
): Promise<SsoTestReport | 'expired' | 'cancelled'> {
  const now = options.now ?? Date.now;
  const wait = options.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const interval = options.intervalMs ?? TEST_POLL_MS;
  for (;;) {
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
    if (now() >= options.deadline) return options.cancelled?.() ? 'cancelled' : 'expired';
    await wait(Math.min(interval, Math.max(0, options.deadline - now())));
  }
}
