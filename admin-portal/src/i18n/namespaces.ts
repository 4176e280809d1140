/**
 * How the portal's messages are cut into catalog files: the shell's (navigation, shared dialogs,
 * errors) ship with the shell; each section's load with the section, so no chunk carries strings
 * it never shows. A key's first segment names its file (`users.invite.title` is in `users.ts`);
 * the shell's file also holds the `common.`, `errors.` and `nav.` keys.
 */
import type { SectionId } from '../navigation';

export const NAMESPACES = ['shell', 'profile', 'privacy', 'account', 'users', 'groups', 'roles', 'audits', 'apiTokens', 'allAccounts', 'security', 'restrictions', 'securityCenter', 'operator', 'subscription', 'usage', 'provisioning', 'sso', 'connectivity', 'reports', 'notifications'] as const;
export type Namespace = (typeof NAMESPACES)[number];

const SHELL_PREFIXES: ReadonlySet<string> = new Set(['shell', 'common', 'errors', 'nav']);

/** The catalog file a key lives in, or undefined for a key of no known file. */
export function namespaceOf(key: string): Namespace | undefined {
  const prefix = key.split('.')[0] ?? '';
  if (SHELL_PREFIXES.has(prefix)) return 'shell';
  return (NAMESPACES as readonly string[]).includes(prefix) ? (prefix as Namespace) : undefined;
}

/** The catalogs each section shows strings from (besides the shell's). */
export const SECTION_NAMESPACES: Readonly<Record<SectionId, readonly Namespace[]>> = {
  profile: ['profile'],
  privacy: ['privacy'],
  personalApiTokens: ['apiTokens'],
  account: ['account'],
  users: ['users'],
  groups: ['groups', 'users'],
  roles: ['roles', 'users'],
  security: ['security', 'restrictions'],
  sso: ['sso'],
  provisioning: ['provisioning'],
  audits: ['audits'],
  webhooks: ['connectivity'],
  reports: ['reports'],
  apiTokens: ['apiTokens'],
  usage: ['usage'],
  subscription: ['subscription'],
  allAccounts: ['allAccounts', 'users'],
  securityCenter: ['securityCenter', 'users'],
  operator: ['operator'],
  applications: ['users'],
};
