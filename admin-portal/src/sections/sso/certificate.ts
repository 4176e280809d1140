/** How soon an IdP's signing certificate expires, for the SSO section's warning (issue 15: flagged 30 days ahead). */

export const CERTIFICATE_WARNING_DAYS = 30;
const DAY_MS = 86_400_000;

export type CertificateState = { kind: 'none' } | { kind: 'valid'; expiresAt: Date } | { kind: 'expiring'; expiresAt: Date; days: number } | { kind: 'expired'; expiresAt: Date };

/** The state of a certificate expiring at `expiresAt` (ISO), seen at `now`. */
export function certificateState(expiresAt: string | null | undefined, now: number): CertificateState {
  const when = expiresAt ? Date.parse(expiresAt) : NaN;
  if (!Number.isFinite(when)) return { kind: 'none' };
  const date = new Date(when);
  if (when <= now) return { kind: 'expired', expiresAt: date };
  const days = Math.ceil((when - now) / DAY_MS);
  return days <= CERTIFICATE_WARNING_DAYS ? { kind: 'expiring', expiresAt: date, days } : { kind: 'valid', expiresAt: date };
}
