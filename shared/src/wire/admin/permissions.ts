/**
 * Permission keys and the built-in roles. The read keys are seed 001's navigation table; each
 * area also has a write key. Plain data: the browser imports it to decide what to show.
 */
export const Permissions = {
  usageRead: 'fe.usage.read',
  webhooksRead: 'fe.connectivity.read.webhooks',
  webhooksWrite: 'fe.connectivity.write.webhooks',
  emailConfigRead: 'fe.connectivity.read.emailConfig',
  emailConfigWrite: 'fe.connectivity.write.emailConfig',
  smsConfigRead: 'fe.connectivity.read.smsConfig',
  smsConfigWrite: 'fe.connectivity.write.smsConfig',
  slackAppRead: 'fe.connectivity.read.slackApp',
  slackAppWrite: 'fe.connectivity.write.slackApp',
  rolesRead: 'fe.secure.read.roles',
  rolesWrite: 'fe.secure.write.roles',
  usersRead: 'fe.secure.read.users',
  usersWrite: 'fe.secure.write.users',
  userApiTokensRead: 'fe.secure.read.userApiTokens',
  userApiTokensWrite: 'fe.secure.write.userApiTokens',
  tenantApiTokensRead: 'fe.secure.read.tenantApiTokens',
  tenantApiTokensWrite: 'fe.secure.write.tenantApiTokens',
  accountSettingsRead: 'fe.secure.read.accountSettings',
  accountSettingsWrite: 'fe.secure.write.accountSettings',
  securityPolicyRead: 'fe.secure.read.securityPolicy',
  securityPolicyWrite: 'fe.secure.write.securityPolicy',
  samlRead: 'fe.secure.read.samlConfiguration',
  samlWrite: 'fe.secure.write.samlConfiguration',
  provisioningRead: 'fe.secure.read.provisioningConfiguration',
  provisioningWrite: 'fe.secure.write.provisioningConfiguration',
  auditsRead: 'fe.secure.read.audits',
  subscriptionsRead: 'fe.subscriptions.read',
  subscriptionsWrite: 'fe.subscriptions.write',
  subAccountsRead: 'fe.account-hierarchy.read.subAccount',
  subAccountsWrite: 'fe.account-hierarchy.write.subAccount',
  groupsRead: 'fe.secure.read.groups',
  groupsWrite: 'fe.secure.write.groups',
  impersonate: 'fe.secure.write.impersonate',
  reportsRead: 'fe.reports.read.reports',
  reportsWrite: 'fe.reports.write.reports',
} as const;

export type PermissionKey = (typeof Permissions)[keyof typeof Permissions];

const all = Object.values(Permissions);

/** The roles every new tenant gets. Sign-up makes the first user Admin. */
export const BuiltInRoles = {
  Admin: { key: 'Admin', name: 'Admin', description: 'Full access to the account', permissions: all.filter((p) => p !== Permissions.impersonate) },
  ReadOnly: { key: 'ReadOnly', name: 'Read only', description: 'Can view, cannot change', permissions: all.filter((p) => p.includes('.read')) },
  Support: {
    key: 'Support',
    name: 'Support',
    description: 'Helps users: reads and manages users, reads audits',
    permissions: [Permissions.usersRead, Permissions.usersWrite, Permissions.auditsRead, Permissions.accountSettingsRead, Permissions.groupsRead, Permissions.rolesRead],
  },
} as const;

/** Matches a required key against granted keys; a granted key may end in `*` (e.g. `fe.subscriptions.*`). */
export function permissionMatches(granted: string, required: string): boolean {
  if (granted === required) return true;
  if (granted.endsWith('*')) return required.startsWith(granted.slice(0, -1));
  if (required.endsWith('*')) return granted.startsWith(required.slice(0, -1));
  return false;
}
