/** Display rules shared by the sections: dates, people and who manages them, in the portal's language. */
import type { Translator } from './contract';

/** A day as the tables show it ("12 Mar 2026" in English); null or unreadable is "Never". */
export function shortDate(t: Translator, iso: string | null | undefined): string {
  const date = iso ? new Date(iso) : null;
  if (!date || Number.isNaN(date.getTime())) return t.t('common.never');
  return t.formatDate(date, { day: 'numeric', month: 'short', year: 'numeric' });
}

/** A moment as the tables show it ("12 Mar 2026, 14:05" in English); null or unreadable is "Unknown". */
export function shortDateTime(t: Translator, iso: string | null | undefined): string {
  const date = iso ? new Date(iso) : null;
  if (!date || Number.isNaN(date.getTime())) return t.t('common.unknown');
  return t.formatDate(date, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/** How a user is named in sentences: name, else email, else phone number, else "This user". */
export function userLabel(user: { name?: string | null; email?: string | null; phoneNumber?: string | null }, t: Translator): string {
  return user.name || user.email || user.phoneNumber || t.t('common.thisUser');
}

const SOCIAL: Readonly<Record<string, string>> = { google: 'Google', github: 'GitHub', facebook: 'Facebook', microsoft: 'Microsoft', slack: 'Slack', apple: 'Apple', linkedin: 'LinkedIn', gitlab: 'GitLab' };
const SSO: ReadonlySet<string> = new Set(['saml', 'oidc', 'sso']);

/**
 * Who manages a user, in the tenant's terms (seed 001 "Managed-by: frontegg, scim2", "User
 * providers"): a directory sync is "SCIM", an identity provider "SSO", a social provider names
 * itself, and a local account is "Invited" while its invitation is pending, else "Signed up".
 * The vendor's own name would mean nothing to a tenant.
 */
export function managerLabel(t: Translator, user: { managedBy?: string | null; provider?: string | null; invitationPending?: boolean }): string {
  const provider = (user.provider ?? 'local').toLowerCase();
  if (user.managedBy === 'scim2' || provider === 'scim2') return t.t('common.managedBy.scim');
  if (SSO.has(provider)) return t.t('common.managedBy.sso');
  const social = SOCIAL[provider];
  if (social) return t.t('common.managedBy.social', { provider: social });
  if (provider !== 'local') return t.t('common.managedBy.provider', { provider: user.provider ?? provider });
  return t.t(user.invitationPending ? 'common.managedBy.invited' : 'common.managedBy.signedUp');
}
