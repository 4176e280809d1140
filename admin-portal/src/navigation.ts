/**
 * The admin portal's navigation: seed 001 section 2's table (default visibility and permission per
 * entry) and the rule deciding which entries a user sees. Pure data and functions, no React.
 */
import { Permissions } from './contract';
import { passesGate, type AccessSubject } from './access';

/** Navigation keys as the portal options name them (`options.adminPortal.navigation[key]`). */
export type NavigationKey =
  | 'profile' | 'privacy' | 'personalApiTokens' | 'account' | 'users' | 'groups' | 'roles' | 'security' | 'securityCenter'
  | 'sso' | 'provisioning' | 'audits' | 'webhooks' | 'apiTokens' | 'usage' | 'subscriptions' | 'allAccounts' | 'operator' | 'applications' | 'reports';

/** Admin portal section names (seed 001 section 2, plus usage and provisioning). */
export type SectionId =
  | 'profile' | 'privacy' | 'personalApiTokens' | 'account' | 'users' | 'groups' | 'roles' | 'security' | 'securityCenter'
  | 'sso' | 'provisioning' | 'audits' | 'webhooks' | 'apiTokens' | 'usage' | 'subscription' | 'allAccounts' | 'operator' | 'applications' | 'reports';

/** `always`: shown when permitted; `hidden`: shown only when the options turn it on; `byPermissions`: shown when permitted. */
export type NavigationVisibility = 'always' | 'hidden' | 'byPermissions';

export interface NavigationEntry {
  key: NavigationKey;
  section: SectionId;
  label: string;
  group: 'personal' | 'workspace';
  defaultVisibility: NavigationVisibility;
  /** Required permission key; undefined means none ("not shown" in the seed). */
  permission?: string;
  /** Feature flag that must be 'on' as well. */
  featureFlag?: string;
  /** Only the vendor's super users see it, whatever the options or permissions say (issue 13: the Operator area). */
  superUserOnly?: boolean;
  /** Only in multi-app mode (`app.showMultiAppsAdminPortal()` while the flag is on), for everyone, super users too. */
  multiAppsOnly?: boolean;
}

/** Flag gating the usage entry (the seed says "also needs a feature flag" without naming it). */
export const USAGE_FEATURE_FLAG = 'admin-portal-usage';

/** Seed 001 section 2, in the order the portal lists them. */
export const NAVIGATION: readonly NavigationEntry[] = [
  { key: 'profile', section: 'profile', label: 'Profile', group: 'personal', defaultVisibility: 'always' },
  { key: 'privacy', section: 'privacy', label: 'Privacy', group: 'personal', defaultVisibility: 'always' },
  { key: 'personalApiTokens', section: 'personalApiTokens', label: 'Personal API tokens', group: 'personal', defaultVisibility: 'hidden', permission: Permissions.userApiTokensRead },
  { key: 'account', section: 'account', label: 'Account settings', group: 'workspace', defaultVisibility: 'always', permission: Permissions.accountSettingsRead },
  { key: 'users', section: 'users', label: 'Users', group: 'workspace', defaultVisibility: 'always', permission: Permissions.usersRead },
  // Issue 15: multi-app mode's view of the vendor's applications; the users permissions, as the users table's applications column.
  { key: 'applications', section: 'applications', label: 'Applications', group: 'workspace', defaultVisibility: 'always', permission: Permissions.usersRead, multiAppsOnly: true },
  { key: 'groups', section: 'groups', label: 'Groups', group: 'workspace', defaultVisibility: 'hidden', permission: Permissions.groupsRead },
  { key: 'roles', section: 'roles', label: 'Roles', group: 'workspace', defaultVisibility: 'hidden', permission: Permissions.rolesRead },
  { key: 'security', section: 'security', label: 'Security', group: 'workspace', defaultVisibility: 'always', permission: Permissions.securityPolicyRead },
  // Issue 12: the security center's own page, for the same readers as the Security section.
  { key: 'securityCenter', section: 'securityCenter', label: 'Security center', group: 'workspace', defaultVisibility: 'always', permission: Permissions.securityPolicyRead },
  { key: 'sso', section: 'sso', label: 'Single sign-on', group: 'workspace', defaultVisibility: 'hidden', permission: Permissions.samlRead },
  { key: 'provisioning', section: 'provisioning', label: 'Provisioning', group: 'workspace', defaultVisibility: 'hidden', permission: Permissions.provisioningRead },
  { key: 'audits', section: 'audits', label: 'Audit logs', group: 'workspace', defaultVisibility: 'always', permission: Permissions.auditsRead },
  { key: 'webhooks', section: 'webhooks', label: 'Connectivity', group: 'workspace', defaultVisibility: 'hidden', permission: Permissions.webhooksRead },
  // Issue 16: reports from templates, previews, downloads and schedules; shown to whoever may read them.
  { key: 'reports', section: 'reports', label: 'Reports', group: 'workspace', defaultVisibility: 'always', permission: Permissions.reportsRead },
  { key: 'apiTokens', section: 'apiTokens', label: 'API tokens', group: 'workspace', defaultVisibility: 'hidden', permission: Permissions.tenantApiTokensRead },
  { key: 'usage', section: 'usage', label: 'Usage', group: 'workspace', defaultVisibility: 'hidden', permission: Permissions.usageRead, featureFlag: USAGE_FEATURE_FLAG },
  { key: 'subscriptions', section: 'subscription', label: 'Subscription', group: 'workspace', defaultVisibility: 'hidden', permission: 'fe.subscriptions.*' },
  { key: 'allAccounts', section: 'allAccounts', label: 'All accounts', group: 'workspace', defaultVisibility: 'byPermissions', permission: Permissions.subAccountsRead },
  // Issue 13: the vendor's console (plans, features, flags, billing configuration, applications).
  { key: 'operator', section: 'operator', label: 'Operator', group: 'workspace', defaultVisibility: 'always', superUserOnly: true },
];

/** Per-entry overrides from `options.adminPortal.navigation`. */
export type NavigationOverrides = Partial<Record<NavigationKey | SectionId, { visibility?: NavigationVisibility }>>;

export interface VisibilityContext {
  user: AccessSubject | null | undefined;
  overrides?: NavigationOverrides;
  /** Feature flags; a flag is on only when its value is 'on'. */
  flags?: Record<string, string>;
  /** The portal is shown in multi-app mode (the runtime asked for it and the flag is on). */
  multiApps?: boolean;
}

/**
 * Whether an entry is shown. Super users see every entry (they bypass all checks, seed 001
 * section 6); a super-user-only entry is shown to nobody else. Otherwise the effective visibility (option, else default) must not be `hidden`,
 * the entry's feature flag must be on, and the user must hold its permission.
 */
export function isEntryVisible(entry: NavigationEntry, context: VisibilityContext): boolean {
  const { user, overrides, flags } = context;
  if (!user) return false;
  if (entry.multiAppsOnly && !context.multiApps) return false;
  if (user.superUser) return true;
  if (entry.superUserOnly) return false;
  const visibility = overrides?.[entry.key]?.visibility ?? overrides?.[entry.section]?.visibility ?? entry.defaultVisibility;
  if (visibility === 'hidden') return false;
  if (entry.featureFlag && flags?.[entry.featureFlag] !== 'on') return false;
  return passesGate(user, { permissions: entry.permission ? [entry.permission] : [] });
}

/** The entries a user sees, in portal order. */
export function visibleEntries(context: VisibilityContext): NavigationEntry[] {
  return NAVIGATION.filter((entry) => isEntryVisible(entry, context));
}
