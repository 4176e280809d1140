/**
 * Tenant isolation of every admin endpoint of users, roles, groups and invite links (issue 5).
 * ENDPOINTS lists each one (method, path, body). For each:
 * - the admin of tenant A, naming tenant B (`?tenantId=B`), is refused (404, no data);
 * - the admin of tenant A, in their own tenant, pointing at B's objects by id, is refused (or, for
 *   the calls that answer a list for given ids, gets nothing of B);
 * - after all of that, B's users, roles, groups, invite link, catalogue and audit log are unchanged;
 * - a member of A without the permission gets 403 on every endpoint;
 * - a super user, naming tenant B, is allowed on every endpoint.
 */
import { AccountPaths, AdminPaths, ApiPaths, ApiTokenPaths, ApplicationPaths, AuditPaths, BillingPaths, Permissions, ProvisioningPaths, SecurityPaths, SubAccountPaths } from '@gatehouse/shared/wire';
import { ReportPaths } from '@gatehouse/shared/wire';
import { NotificationPaths } from '@gatehouse/shared/wire';
import { notifyTenantAdmins } from '../../services/connectivity/notifications';
import { ChannelPaths } from '@gatehouse/shared/wire';
import { SsoPaths } from '@gatehouse/shared/wire';
import { WebhookPaths } from '@gatehouse/shared/wire';
import { ConnectivityPaths } from '@gatehouse/shared/wire';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { findPermissionByKey } from '../../db/queries/admin-roles';
import { insertPlan } from '../../test/billing-helpers';
import { newId } from '../../crypto';
import { auditsOf, callAs, inviteMember, memberWithoutPermissions, pathOf, superUser, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { insertFeature, insertPlan as insertEntitlementPlan, subscribe } from '../../test/entitlement-helpers';
import { findEffectivePlanId } from '../../db/queries/tenant-plan';
import { describeDialects, movableClock, uniqueEmail } from '../../test/harness';
import { startTestDns, type TestDns } from '../../test/dns-server';
import { createTestSamlIdp, type TestSamlIdp } from '../../test/saml-idp';

/** Ids of one tenant's objects (and of the shared catalogue) that the calls point at. */
interface Ids {
  userId: string;
  otherUserId: string;
  roleId: string;
  groupId: string;
  permissionId: string;
  customPermissionId: string;
  categoryId: string;
  emptyCategoryId: string;
  /** API tokens of the tenant's admin: tenant and personal, ClientCredentials and AccessToken. */
  tenantTokenId: string;
  tenantAccessTokenId: string;
  userTokenId: string;
  userAccessTokenId: string;
  /** A sub-account of the tenant, and its ReadOnly role. */
  subTenantId: string;
  subRoleId: string;
  /** An IP restriction and an email-domain restriction of the tenant. */
  ipRestrictionId: string;
  emailDomainRestrictionId: string;
  /** A limited feature of the tenant's plan (usage reports, issue 13). */
  featureKey: string;
  /** An SSO configuration of the tenant, its first domain (pending) and that domain's id (issue 15). */
  ssoConfigId: string;
  ssoDomain: string;
  ssoDomainId: string;
  /** A test id no session started (a report is answered only to the session that started its test). */
  ssoTestId: string;
  /** The tenant's id (billing summaries are by tenant), a subscription and an invoice of it, and a plan of the vendor. */
  tenantId: string;
  subscriptionId: string;
  invoiceId: string;
  planId: string;
  /** A Stripe payment method id (none exists at Stripe here: the call stops at the unconfigured provider). */
  paymentMethodId: string;
  /** A SCIM provisioning connection of the tenant (issue 15). */
  scimConnectionId: string;
  /** Two applications of the vendor (issue 15): the walk assigns the first; each tenant's member is assigned the second. */
  appId: string;
  assignedAppId: string;
  /** A saved report of the tenant and a trigger of it (issue 16). */
  reportId: string;
  reportTriggerId: string;
  /** A notification of the tenant's admins (issue 16). */
  notificationId: string;
  /** An email and an SMS subscription of user.sign_in_failed, and a Slack subscription (issue 16). */
  eventKey: string;
  emailSubscriptionId: string;
  smsSubscriptionId: string;
  slackEventId: string;
  /** A webhook endpoint of the tenant and a logged (test) delivery attempt of it (issue 16). */
  webhookId: string;
  webhookLogId: string;
}

interface Endpoint {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: (ids: Ids) => string;
  body?: (ids: Ids) => unknown;
  /** What the super user gets, naming tenant B. */
  superStatus: number;
  /** Points at objects of a tenant (so A's admin can aim at B's); false for the tenant's own collection and the shared catalogue. */
  targetsObjects: boolean;
  /** Statuses A's admin may get when aiming at B's objects from A (default 404). */
  crossStatuses?: number[];
}

const u = (template: string) => (ids: Ids) => pathOf(template, ids as unknown as Record<string, string>);
const fresh = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}`;
const octet = () => Math.floor(Math.random() * 256);
/** A random address of the benchmarking range 198.18.0.0/15, for IP restriction entries. */
const freshIp = () => `198.${18 + (octet() % 2)}.${octet()}.${octet()}`;
const subPath = (template: string, ids: Ids) => pathOf(template, { subTenantId: ids.subTenantId, userId: ids.userId });

/** Every admin endpoint of this slice, in an order the super user can run them one after the other. */
const ENDPOINTS: Endpoint[] = [
  { method: 'GET', path: () => AdminPaths.usersV3, superStatus: 200, targetsObjects: false },
  { method: 'GET', path: () => `${AdminPaths.teamMembers}?filter=member`, superStatus: 200, targetsObjects: false },
  { method: 'GET', path: (ids) => `${AdminPaths.usersRolesV3}?ids=${ids.userId}`, superStatus: 200, targetsObjects: true, crossStatuses: [200] },
  { method: 'GET', path: (ids) => `${AdminPaths.usersGroupsV3}?ids=${ids.userId}`, superStatus: 200, targetsObjects: true, crossStatuses: [200] },
  { method: 'GET', path: () => AdminPaths.teamStats, superStatus: 200, targetsObjects: false },
  { method: 'GET', path: () => AdminPaths.teamRoles, superStatus: 200, targetsObjects: false },
  { method: 'PUT', path: () => AdminPaths.teamMembers, body: (ids) => ({ id: ids.userId, roleIds: [ids.roleId] }), superStatus: 200, targetsObjects: true },
  { method: 'POST', path: u(AdminPaths.teamResendActivation), superStatus: 200, targetsObjects: true },
  { method: 'POST', path: u(AdminPaths.tenantUserDisable), superStatus: 200, targetsObjects: true },
  { method: 'POST', path: u(AdminPaths.tenantUserEnable), superStatus: 200, targetsObjects: true },
  { method: 'POST', path: u(AdminPaths.tenantUserLock), superStatus: 200, targetsObjects: true },
  { method: 'POST', path: u(AdminPaths.tenantUserUnlock), superStatus: 200, targetsObjects: true },
  { method: 'PUT', path: u(AdminPaths.temporaryUser), body: () => ({ expirationInSeconds: 3600 }), superStatus: 200, targetsObjects: true },
  { method: 'DELETE', path: u(AdminPaths.temporaryUser), superStatus: 200, targetsObjects: true },
  { method: 'GET', path: () => AdminPaths.temporaryUsersConfiguration, superStatus: 200, targetsObjects: false },
  { method: 'POST', path: () => AdminPaths.bulkInvite, body: () => ({ emails: [uniqueEmail('bulk')] }), superStatus: 200, targetsObjects: false },
  { method: 'POST', path: () => ApiPaths.inviteUser, body: () => ({ email: uniqueEmail('invite'), name: 'Invited' }), superStatus: 201, targetsObjects: false },
  { method: 'GET', path: () => AdminPaths.inviteLink, superStatus: 200, targetsObjects: false },
  { method: 'PATCH', path: () => AdminPaths.inviteLink, body: () => ({ expiresInMinutes: 60 }), superStatus: 200, targetsObjects: false },
  { method: 'DELETE', path: () => AdminPaths.inviteLink, superStatus: 204, targetsObjects: false },
  { method: 'POST', path: () => AdminPaths.inviteLink, body: () => ({}), superStatus: 201, targetsObjects: false },
  { method: 'GET', path: () => AdminPaths.rolesV1, superStatus: 200, targetsObjects: false },
  { method: 'POST', path: () => AdminPaths.rolesV1, body: () => ({ key: fresh('v1'), name: 'Role v1' }), superStatus: 201, targetsObjects: false },
  { method: 'POST', path: () => AdminPaths.rolesV2, body: (ids) => ({ key: fresh('v2'), name: 'Role v2', permissionIds: [ids.permissionId] }), superStatus: 201, targetsObjects: false },
  { method: 'PATCH', path: u(AdminPaths.role), body: () => ({ description: 'changed' }), superStatus: 200, targetsObjects: true },
  { method: 'PUT', path: u(AdminPaths.rolePermissions), body: (ids) => ({ permissionIds: [ids.permissionId] }), superStatus: 200, targetsObjects: true },
  { method: 'PUT', path: u(AdminPaths.permissionRoles), body: (ids) => ({ roleIds: [ids.roleId] }), superStatus: 200, targetsObjects: true },
  { method: 'GET', path: () => AdminPaths.permissions, superStatus: 200, targetsObjects: false },
  { method: 'POST', path: () => AdminPaths.permissions, body: () => ({ key: `custom.${fresh('p')}`, name: 'Custom' }), superStatus: 201, targetsObjects: false },
  { method: 'PATCH', path: (ids) => pathOf(AdminPaths.permission, { permissionId: ids.customPermissionId }), body: () => ({ description: 'changed' }), superStatus: 200, targetsObjects: false },
  { method: 'GET', path: () => AdminPaths.permissionCategories, superStatus: 200, targetsObjects: false },
  { method: 'POST', path: () => AdminPaths.permissionCategories, body: () => ({ name: fresh('category') }), superStatus: 201, targetsObjects: false },
  { method: 'PATCH', path: u(AdminPaths.permissionCategory), body: () => ({ description: 'changed' }), superStatus: 200, targetsObjects: false },
  { method: 'GET', path: () => `${AdminPaths.groups}?_groupsRelations=rolesAndUsers`, superStatus: 200, targetsObjects: false },
  { method: 'GET', path: u(AdminPaths.group), superStatus: 200, targetsObjects: true },
  { method: 'POST', path: () => AdminPaths.groupsBulkGet, body: (ids) => ({ groupsIds: [ids.groupId] }), superStatus: 200, targetsObjects: true, crossStatuses: [200] },
  { method: 'POST', path: () => AdminPaths.groups, body: () => ({ name: fresh('group') }), superStatus: 201, targetsObjects: false },
  { method: 'PATCH', path: u(AdminPaths.group), body: () => ({ color: '#112233' }), superStatus: 200, targetsObjects: true },
  { method: 'POST', path: u(AdminPaths.groupRoles), body: (ids) => ({ roleIds: [ids.roleId] }), superStatus: 200, targetsObjects: true },
  { method: 'DELETE', path: u(AdminPaths.groupRoles), body: (ids) => ({ roleIds: [ids.roleId] }), superStatus: 200, targetsObjects: true },
  { method: 'POST', path: u(AdminPaths.groupUsers), body: (ids) => ({ userIds: [ids.userId] }), superStatus: 200, targetsObjects: true },
  { method: 'DELETE', path: u(AdminPaths.groupUsers), body: (ids) => ({ userIds: [ids.userId] }), superStatus: 200, targetsObjects: true },
  { method: 'DELETE', path: u(AdminPaths.group), superStatus: 204, targetsObjects: true },
  { method: 'DELETE', path: (ids) => pathOf(AdminPaths.permission, { permissionId: ids.customPermissionId }), superStatus: 204, targetsObjects: false },
  { method: 'DELETE', path: (ids) => pathOf(AdminPaths.permissionCategory, { categoryId: ids.emptyCategoryId }), superStatus: 204, targetsObjects: false },
  { method: 'DELETE', path: u(AdminPaths.role), superStatus: 204, targetsObjects: true },
  { method: 'DELETE', path: (ids) => pathOf(AdminPaths.teamMember, { userId: ids.otherUserId }), superStatus: 204, targetsObjects: true },
  { method: 'GET', path: () => `${AuditPaths.audits}?count=100`, superStatus: 200, targetsObjects: false },
  { method: 'GET', path: () => AuditPaths.stats, superStatus: 200, targetsObjects: false },
  { method: 'GET', path: () => AuditPaths.metadata, superStatus: 200, targetsObjects: false },
  { method: 'POST', path: () => AuditPaths.exportCsv, body: () => ({}), superStatus: 200, targetsObjects: false },
  { method: 'GET', path: () => ApiTokenPaths.tenantApiTokens, superStatus: 200, targetsObjects: false },
  { method: 'GET', path: () => ApiTokenPaths.tenantAccessTokens, superStatus: 200, targetsObjects: false },
  { method: 'GET', path: () => ApiTokenPaths.userApiTokens, superStatus: 200, targetsObjects: false },
  { method: 'GET', path: () => ApiTokenPaths.userAccessTokens, superStatus: 200, targetsObjects: false },
  { method: 'POST', path: () => ApiTokenPaths.tenantApiTokens, body: () => ({ description: 'isolation', roleIds: [] }), superStatus: 201, targetsObjects: false },
  { method: 'POST', path: () => ApiTokenPaths.tenantAccessTokens, body: () => ({ description: 'isolation', roleIds: [] }), superStatus: 201, targetsObjects: false },
  { method: 'POST', path: () => ApiTokenPaths.userApiTokens, body: () => ({ description: 'isolation' }), superStatus: 201, targetsObjects: false },
  { method: 'POST', path: () => ApiTokenPaths.userAccessTokens, body: () => ({ description: 'isolation' }), superStatus: 201, targetsObjects: false },
  { method: 'DELETE', path: (ids) => pathOf(ApiTokenPaths.tenantApiToken, { tokenId: ids.tenantTokenId }), superStatus: 204, targetsObjects: true },
  { method: 'DELETE', path: (ids) => pathOf(ApiTokenPaths.tenantAccessToken, { tokenId: ids.tenantAccessTokenId }), superStatus: 204, targetsObjects: true },
  // Personal tokens are their owner's alone: not even a super user deletes another user's.
  { method: 'DELETE', path: (ids) => pathOf(ApiTokenPaths.userApiToken, { tokenId: ids.userTokenId }), superStatus: 404, targetsObjects: true },
  { method: 'DELETE', path: (ids) => pathOf(ApiTokenPaths.userAccessToken, { tokenId: ids.userAccessTokenId }), superStatus: 404, targetsObjects: true },
  { method: 'GET', path: () => AccountPaths.accountSettings, superStatus: 200, targetsObjects: false },
  { method: 'PUT', path: () => AccountPaths.accountSettings, body: () => ({ address: fresh('address'), timezone: 'Europe/Berlin' }), superStatus: 200, targetsObjects: false },
  // Sub-accounts: `{subTenantId}` must be the tenant acted in or a descendant of it.
  { method: 'GET', path: () => SubAccountPaths.tree, superStatus: 200, targetsObjects: false },
  { method: 'GET', path: () => `${SubAccountPaths.search}?_filter=s`, superStatus: 200, targetsObjects: false },
  { method: 'GET', path: () => SubAccountPaths.metadata, superStatus: 200, targetsObjects: false },
  { method: 'POST', path: () => SubAccountPaths.usersCount, body: (ids) => ({ tenantIds: [ids.subTenantId] }), superStatus: 200, targetsObjects: true, crossStatuses: [200] },
  { method: 'GET', path: (ids) => subPath(SubAccountPaths.parents, ids), superStatus: 200, targetsObjects: true },
  { method: 'GET', path: (ids) => subPath(SubAccountPaths.subTenant, ids), superStatus: 200, targetsObjects: true },
  { method: 'POST', path: () => SubAccountPaths.subTenants, body: () => ({ name: fresh('sub') }), superStatus: 201, targetsObjects: false },
  { method: 'PATCH', path: (ids) => subPath(SubAccountPaths.subTenant, ids), body: () => ({ name: 'Renamed' }), superStatus: 200, targetsObjects: true },
  { method: 'PUT', path: (ids) => subPath(SubAccountPaths.management, ids), body: () => ({ isReseller: true }), superStatus: 200, targetsObjects: true },
  { method: 'PUT', path: (ids) => subPath(SubAccountPaths.hierarchySettings, ids), body: () => ({ subAccountAccessType: 'alwaysOn' }), superStatus: 200, targetsObjects: true },
  { method: 'GET', path: (ids) => subPath(SubAccountPaths.roles, ids), superStatus: 200, targetsObjects: true },
  { method: 'GET', path: (ids) => subPath(SubAccountPaths.users, ids), superStatus: 200, targetsObjects: true },
  { method: 'POST', path: (ids) => subPath(SubAccountPaths.users, ids), body: (ids) => ({ userIds: [ids.userId], roleIds: [ids.subRoleId] }), superStatus: 200, targetsObjects: true },
  { method: 'PUT', path: (ids) => subPath(SubAccountPaths.userRoles, ids), body: () => ({ roleIds: [] }), superStatus: 204, targetsObjects: true },
  { method: 'PUT', path: (ids) => subPath(SubAccountPaths.userAccess, ids), body: () => ({ allowAccess: false }), superStatus: 204, targetsObjects: true },
  { method: 'DELETE', path: (ids) => subPath(SubAccountPaths.user, ids), superStatus: 204, targetsObjects: true },
  { method: 'DELETE', path: (ids) => subPath(SubAccountPaths.subTenant, ids), superStatus: 204, targetsObjects: true },
  // Security policies (issue 12): the tenant's own, so only reachable by naming the tenant.
  ...([
    [SecurityPaths.mfaPolicy, { enforceMFAType: 'Force', allowRememberMyDevice: true, mfaDeviceExpiration: 86_400 }, { allowRememberMyDevice: false }],
    [SecurityPaths.lockoutPolicy, { enabled: true, maxAttempts: 5 }, { maxAttempts: 4 }],
    [SecurityPaths.passwordHistoryPolicy, { enabled: true, historySize: 3 }, { historySize: 5 }],
    [SecurityPaths.passwordPolicy, { minLength: 10, maxLength: 128, allowPassphrases: true, minPhraseLength: 20, minOptionalTestsToPass: 1 }, { minLength: 12 }],
    [SecurityPaths.passwordRotation, { passwordExpiresIn: 90, notificationPeriod: 7 }, { notificationPeriod: 5 }],
    [SecurityPaths.captchaPolicy, { enabled: false, minScore: 0.6 }, { minScore: 0.7 }],
    [SecurityPaths.userEmailsPolicy, { allowEmailChange: true, requireVerifiedEmailForLogin: true }, { allowEmailChange: false }],
  ] as const).flatMap(([path, post, patch]): Endpoint[] => [
    { method: 'GET', path: () => path, superStatus: 200, targetsObjects: false },
    { method: 'POST', path: () => path, body: () => post, superStatus: 200, targetsObjects: false },
    { method: 'PATCH', path: () => path, body: () => patch, superStatus: 200, targetsObjects: false },
  ]),
  // The sessions policy (issue 12): GET and POST only; a lenient body, so the save signs no one out.
  { method: 'GET', path: () => SecurityPaths.sessionsPolicy, superStatus: 200, targetsObjects: false },
  {
    method: 'POST',
    path: () => SecurityPaths.sessionsPolicy,
    body: () => ({ sessionIdleTimeoutConfiguration: { isActive: true, timeout: 86_400 }, sessionTimeoutConfiguration: { isActive: false, timeout: 86_400 }, sessionConcurrentConfiguration: { isActive: true, maxSessions: 50 } }),
    superStatus: 200,
    targetsObjects: false,
  },
  // The security center (issue 12): the tenant's own score and its breached-password reset.
  { method: 'GET', path: () => SecurityPaths.securityCenterRecommendations, superStatus: 200, targetsObjects: false },
  { method: 'GET', path: () => SecurityPaths.securityCenterInsights, superStatus: 200, targetsObjects: false },
  { method: 'GET', path: () => SecurityPaths.securityCenterScoreHistory, superStatus: 200, targetsObjects: false },
  { method: 'POST', path: () => SecurityPaths.breachedPasswordResetBulk, superStatus: 200, targetsObjects: false },
  // IP restrictions (issue 12): BLOCK entries and an inactive config, so nothing shuts the caller out.
  { method: 'GET', path: () => SecurityPaths.ipRestrictions, superStatus: 200, targetsObjects: false },
  { method: 'POST', path: () => SecurityPaths.ipRestrictions, body: () => ({ ip: freshIp(), strategy: 'BLOCK' }), superStatus: 201, targetsObjects: false },
  { method: 'PATCH', path: (ids) => pathOf(SecurityPaths.ipRestriction, { id: ids.ipRestrictionId }), body: () => ({ description: 'changed' }), superStatus: 200, targetsObjects: true },
  { method: 'POST', path: () => SecurityPaths.ipRestrictionsBulk, body: () => ({ restrictions: [{ ip: freshIp(), strategy: 'BLOCK' }] }), superStatus: 200, targetsObjects: false },
  { method: 'GET', path: () => SecurityPaths.ipRestrictionsConfig, superStatus: 200, targetsObjects: false },
  { method: 'POST', path: () => SecurityPaths.ipRestrictionsConfig, body: () => ({ isActive: false, strategy: 'BLOCK' }), superStatus: 200, targetsObjects: false },
  { method: 'POST', path: () => SecurityPaths.ipRestrictionsVerify, superStatus: 200, targetsObjects: false },
  // "Add my IP": under app.fetch the request has no address, so even the super user gets the 400 that says so.
  { method: 'POST', path: () => SecurityPaths.ipRestrictionsVerifyAllow, superStatus: 400, targetsObjects: false },
  { method: 'DELETE', path: (ids) => pathOf(SecurityPaths.ipRestriction, { id: ids.ipRestrictionId }), superStatus: 204, targetsObjects: true },
  // Email-domain restrictions (issue 12).
  { method: 'GET', path: () => SecurityPaths.emailDomainRestrictions, superStatus: 200, targetsObjects: false },
  { method: 'POST', path: () => SecurityPaths.emailDomainRestrictions, body: () => ({ domain: `${fresh('d')}.example`, type: 'BLOCK' }), superStatus: 201, targetsObjects: false },
  { method: 'PATCH', path: (ids) => pathOf(SecurityPaths.emailDomainRestriction, { id: ids.emailDomainRestrictionId }), body: () => ({ type: 'ALLOW' }), superStatus: 200, targetsObjects: true },
  { method: 'POST', path: () => SecurityPaths.emailDomainRestrictionsBulk, body: () => ({ restrictions: [{ domain: `${fresh('b')}.example`, type: 'BLOCK' }] }), superStatus: 200, targetsObjects: false },
  { method: 'GET', path: () => SecurityPaths.emailDomainRestrictionsConfig, superStatus: 200, targetsObjects: false },
  { method: 'POST', path: () => SecurityPaths.emailDomainRestrictionsConfig, body: () => ({ active: false, listType: 'BLOCK', blockPublicDomains: false }), superStatus: 200, targetsObjects: false },
  { method: 'POST', path: () => SecurityPaths.emailDomainRestrictionsVerify, body: () => ({ email: 'someone@example.com' }), superStatus: 200, targetsObjects: false },
  { method: 'DELETE', path: (ids) => pathOf(SecurityPaths.emailDomainRestriction, { id: ids.emailDomainRestrictionId }), superStatus: 204, targetsObjects: true },
  // SSO configuration (issue 15). The metadata URL is refused (a loopback https port with nothing on
  // it) and the domain's TXT record is not published: both 400, past the guard, changing nothing.
  { method: 'GET', path: () => SsoPaths.configurations, superStatus: 200, targetsObjects: false },
  { method: 'POST', path: () => SsoPaths.configurations, body: () => ({ type: 'saml', enabled: false }), superStatus: 201, targetsObjects: false },
  { method: 'GET', path: (ids) => pathOf(SsoPaths.configuration, { configId: ids.ssoConfigId }), superStatus: 200, targetsObjects: true },
  { method: 'PATCH', path: (ids) => pathOf(SsoPaths.configuration, { configId: ids.ssoConfigId }), body: () => ({ enabled: false }), superStatus: 200, targetsObjects: true },
  { method: 'PUT', path: (ids) => pathOf(SsoPaths.metadata, { configId: ids.ssoConfigId }), body: () => ({ metadata: samlIdp.metadata() }), superStatus: 200, targetsObjects: true },
  { method: 'PUT', path: (ids) => pathOf(SsoPaths.metadataUrl, { configId: ids.ssoConfigId }), body: () => ({ url: 'https://127.0.0.1:9/metadata' }), superStatus: 400, targetsObjects: true },
  { method: 'PUT', path: (ids) => pathOf(SsoPaths.saml, { configId: ids.ssoConfigId }), body: (ids) => ({ domain: ids.ssoDomain, ssoEndpoint: 'https://idp.example.test/sso' }), superStatus: 200, targetsObjects: true },
  { method: 'POST', path: (ids) => pathOf(SsoPaths.domains, { configId: ids.ssoConfigId }), body: () => ({ domain: `${fresh('sso')}.example` }), superStatus: 201, targetsObjects: true },
  { method: 'PUT', path: (ids) => pathOf(SsoPaths.validateDomain, { configId: ids.ssoConfigId, domainId: ids.ssoDomainId }), superStatus: 400, targetsObjects: true },
  { method: 'PUT', path: (ids) => pathOf(SsoPaths.roles, { configId: ids.ssoConfigId }), body: () => ({ roleIds: [] }), superStatus: 200, targetsObjects: true },
  { method: 'PUT', path: (ids) => pathOf(SsoPaths.groups, { configId: ids.ssoConfigId }), body: () => ({ groups: [] }), superStatus: 200, targetsObjects: true },
  // Test connection: the IdP is set by now (metadata above), so the super user starts a test (audited);
  // a report is only ever answered to the session that started the test, so an unknown one is a 404 for everyone.
  { method: 'POST', path: (ids) => pathOf(SsoPaths.test, { configId: ids.ssoConfigId }), superStatus: 201, targetsObjects: true },
  { method: 'GET', path: (ids) => pathOf(SsoPaths.testReport, { configId: ids.ssoConfigId, testId: ids.ssoTestId }), superStatus: 404, targetsObjects: true },
  { method: 'DELETE', path: (ids) => pathOf(SsoPaths.domain, { configId: ids.ssoConfigId, domainId: ids.ssoDomainId }), superStatus: 200, targetsObjects: true },
  { method: 'DELETE', path: (ids) => pathOf(SsoPaths.configuration, { configId: ids.ssoConfigId }), superStatus: 204, targetsObjects: true },
  // Billing (issue 13). Stripe is not configured in this file, so the calls that reach Stripe answer
  // 409 "Payment provider not configured" to the super user: past the guard, and changing nothing.
  { method: 'GET', path: () => BillingPaths.managedSubscriptions, superStatus: 200, targetsObjects: false },
  { method: 'PUT', path: (ids) => pathOf(BillingPaths.managedSubscription, { id: ids.subscriptionId }), body: (ids) => ({ planId: ids.planId }), superStatus: 409, targetsObjects: true },
  { method: 'PUT', path: (ids) => pathOf(BillingPaths.cancelSubscription, { id: ids.subscriptionId }), superStatus: 409, targetsObjects: true },
  { method: 'PUT', path: (ids) => pathOf(BillingPaths.renewSubscription, { id: ids.subscriptionId }), superStatus: 409, targetsObjects: true },
  { method: 'GET', path: () => BillingPaths.invoices, superStatus: 200, targetsObjects: false },
  { method: 'GET', path: (ids) => pathOf(BillingPaths.invoicePdf, { id: ids.invoiceId }), superStatus: 200, targetsObjects: true },
  { method: 'GET', path: () => BillingPaths.paymentMethods, superStatus: 200, targetsObjects: false },
  { method: 'PATCH', path: (ids) => pathOf(BillingPaths.paymentMethodBillingDetails, { id: ids.paymentMethodId }), body: () => ({ email: 'billing@example.com', address: { country: 'US' } }), superStatus: 409, targetsObjects: false },
  { method: 'GET', path: () => BillingPaths.paymentProviders, superStatus: 200, targetsObjects: false },
  // A's admin naming B's tenant in the path, from A: "Not authorized".
  { method: 'GET', path: (ids) => pathOf(BillingPaths.summary, { tenantId: ids.tenantId }), superStatus: 200, targetsObjects: true, crossStatuses: [403] },
  { method: 'GET', path: () => BillingPaths.tenantConfiguration, superStatus: 200, targetsObjects: false },
  { method: 'POST', path: () => BillingPaths.stripeCustomers, superStatus: 409, targetsObjects: false },
  { method: 'POST', path: () => BillingPaths.stripeSubscriptions, body: (ids) => ({ planId: ids.planId }), superStatus: 409, targetsObjects: false },
  { method: 'POST', path: () => BillingPaths.stripeSetupIntents, body: () => ({}), superStatus: 409, targetsObjects: false },
  // Usage of the tenant's plan (issue 13): seats and limited features; a report is a change (audited).
  { method: 'GET', path: () => BillingPaths.usage, superStatus: 200, targetsObjects: false },
  { method: 'POST', path: () => BillingPaths.usage, body: (ids) => ({ featureKey: ids.featureKey, quantity: 1 }), superStatus: 200, targetsObjects: false },
  // SCIM provisioning connections (issue 15): the token rotated and the connection deleted last.
  { method: 'GET', path: () => ProvisioningPaths.scim2Configurations, superStatus: 200, targetsObjects: false },
  { method: 'POST', path: () => ProvisioningPaths.scim2Configurations, body: () => ({ source: 'okta' }), superStatus: 201, targetsObjects: false },
  { method: 'GET', path: (ids) => pathOf(ProvisioningPaths.scim2ConfigurationRequests, { id: ids.scimConnectionId }), superStatus: 200, targetsObjects: true },
  { method: 'POST', path: (ids) => pathOf(ProvisioningPaths.scim2ConfigurationToken, { id: ids.scimConnectionId }), superStatus: 200, targetsObjects: true },
  { method: 'DELETE', path: (ids) => pathOf(ProvisioningPaths.scim2Configuration, { id: ids.scimConnectionId }), superStatus: 204, targetsObjects: true },
  // Applications (issue 15): the vendor's are shared; assignments are the tenant's. A's admin naming
  // B's tenant in the body, from A, gets the 400 that names tenantId.
  { method: 'GET', path: () => ApplicationPaths.tenantApps, superStatus: 200, targetsObjects: false },
  { method: 'GET', path: () => ApplicationPaths.apps, superStatus: 200, targetsObjects: false },
  { method: 'GET', path: (ids) => pathOf(ApplicationPaths.userApps, { userId: ids.userId }), superStatus: 200, targetsObjects: true },
  { method: 'GET', path: (ids) => `${ApplicationPaths.usersApps}?ids=${ids.userId}`, superStatus: 200, targetsObjects: true, crossStatuses: [200] },
  { method: 'GET', path: () => ApplicationPaths.appsUsers, superStatus: 200, targetsObjects: false },
  { method: 'POST', path: () => ApplicationPaths.assign, body: (ids) => ({ userId: ids.userId, appIds: [ids.appId], tenantId: ids.tenantId }), superStatus: 200, targetsObjects: true, crossStatuses: [400] },
  { method: 'POST', path: () => ApplicationPaths.unassign, body: (ids) => ({ userId: ids.userId, appIds: [ids.appId], tenantId: ids.tenantId }), superStatus: 200, targetsObjects: true, crossStatuses: [400] },
  // Reports (issue 16): a trigger naming B's report from A gets the 400 that names reportId; the trigger and report deleted last.
  { method: 'GET', path: () => ReportPaths.templates, superStatus: 200, targetsObjects: false },
  { method: 'GET', path: () => ReportPaths.tenantReports, superStatus: 200, targetsObjects: false },
  { method: 'POST', path: () => ReportPaths.tenantReports, body: () => ({ templateId: 'users-mfa', name: fresh('report'), dataFilters: {} }), superStatus: 201, targetsObjects: false },
  { method: 'POST', path: () => ReportPaths.tenantReports, body: (ids) => ({ id: ids.reportId, templateId: 'audit-summary', name: fresh('renamed'), dataFilters: { severity: 'High' } }), superStatus: 200, targetsObjects: true },
  { method: 'GET', path: () => `${ReportPaths.previewReport}?templateId=users-mfa&responseType=html`, superStatus: 200, targetsObjects: false },
  { method: 'GET', path: (ids) => `${pathOf(ReportPaths.tenantReportDownload, { id: ids.reportId })}?type=html`, superStatus: 200, targetsObjects: true },
  { method: 'GET', path: () => ReportPaths.reportTriggers, superStatus: 200, targetsObjects: false },
  { method: 'POST', path: () => ReportPaths.reportTriggers, body: (ids) => ({ reportId: ids.reportId, schedule: 'weekly', recipients: [uniqueEmail('report')], enabled: true }), superStatus: 201, targetsObjects: true, crossStatuses: [400] },
  { method: 'POST', path: () => ReportPaths.reportTriggers, body: (ids) => ({ id: ids.reportTriggerId, reportId: ids.reportId, schedule: 'monthly', recipients: [uniqueEmail('report')], enabled: false }), superStatus: 200, targetsObjects: true, crossStatuses: [400] },
  { method: 'DELETE', path: (ids) => pathOf(ReportPaths.reportTrigger, { id: ids.reportTriggerId }), superStatus: 204, targetsObjects: true },
  { method: 'DELETE', path: (ids) => pathOf(ReportPaths.tenantReport, { id: ids.reportId }), superStatus: 204, targetsObjects: true },
  // Notifications (issue 16): the caller's own read and pin state; B's notification from A is not found.
  { method: 'GET', path: () => NotificationPaths.list, superStatus: 200, targetsObjects: false },
  { method: 'GET', path: () => NotificationPaths.stream, superStatus: 200, targetsObjects: false },
  { method: 'PUT', path: () => NotificationPaths.status, body: (ids) => ({ notificationId: ids.notificationId, status: 'read' }), superStatus: 200, targetsObjects: true },
  { method: 'PUT', path: () => NotificationPaths.pin, body: (ids) => ({ notificationId: ids.notificationId, status: 'pinned' }), superStatus: 200, targetsObjects: true },
  { method: 'POST', path: () => NotificationPaths.markAllRead, superStatus: 200, targetsObjects: false },
  // Channels (issue 16): email and SMS subscriptions by id, Slack subscriptions; scope needs the Slack app (set in the walk's env);
  // a made-up OAuth state is a 400 and channels a 409 (nothing connected) even for a super user; each subscription deleted last.
  { method: 'GET', path: () => ChannelPaths.email, superStatus: 200, targetsObjects: false },
  { method: 'POST', path: () => ChannelPaths.email, body: (ids) => ({ eventKey: ids.eventKey, enabled: true, subscriptions: [{ enabled: true, recipients: [uniqueEmail('notify')] }] }), superStatus: 200, targetsObjects: false },
  { method: 'POST', path: () => ChannelPaths.email, body: (ids) => ({ eventKey: ids.eventKey, enabled: true, subscriptions: [{ id: ids.emailSubscriptionId, enabled: true, recipients: [uniqueEmail('notify')] }] }), superStatus: 200, targetsObjects: true },
  { method: 'PATCH', path: u(ChannelPaths.emailEvent), body: () => ({ enabled: false }), superStatus: 200, targetsObjects: false },
  { method: 'PUT', path: (ids) => pathOf(ChannelPaths.emailSubscription, { eventKey: ids.eventKey, id: ids.emailSubscriptionId }), body: () => ({ enabled: true, recipients: [uniqueEmail('notify')] }), superStatus: 200, targetsObjects: true },
  { method: 'DELETE', path: (ids) => pathOf(ChannelPaths.emailSubscription, { eventKey: ids.eventKey, id: ids.emailSubscriptionId }), superStatus: 204, targetsObjects: true },
  { method: 'GET', path: () => ChannelPaths.sms, superStatus: 200, targetsObjects: false },
  { method: 'POST', path: () => ChannelPaths.sms, body: (ids) => ({ eventKey: ids.eventKey, enabled: true, subscriptions: [{ enabled: true, recipients: ['+14155550100'] }] }), superStatus: 200, targetsObjects: false },
  { method: 'POST', path: () => ChannelPaths.sms, body: (ids) => ({ eventKey: ids.eventKey, enabled: true, subscriptions: [{ id: ids.smsSubscriptionId, enabled: true, recipients: ['+14155550101'] }] }), superStatus: 200, targetsObjects: true },
  { method: 'PATCH', path: u(ChannelPaths.smsEvent), body: () => ({ enabled: false }), superStatus: 200, targetsObjects: false },
  { method: 'PUT', path: (ids) => pathOf(ChannelPaths.smsSubscription, { eventKey: ids.eventKey, id: ids.smsSubscriptionId }), body: () => ({ enabled: true, recipients: ['+14155550102'] }), superStatus: 200, targetsObjects: true },
  { method: 'DELETE', path: (ids) => pathOf(ChannelPaths.smsSubscription, { eventKey: ids.eventKey, id: ids.smsSubscriptionId }), superStatus: 204, targetsObjects: true },
  { method: 'GET', path: () => ChannelPaths.slack, superStatus: 200, targetsObjects: false },
  { method: 'POST', path: () => ChannelPaths.slack, body: (ids) => ({ slackEvents: [{ eventKey: ids.eventKey, channelIds: ['C0WALK'], enabled: true }] }), superStatus: 200, targetsObjects: false },
  { method: 'POST', path: () => ChannelPaths.slack, body: (ids) => ({ slackEvents: [{ id: ids.slackEventId, eventKey: ids.eventKey, channelIds: ['C0WALKED'], enabled: false }] }), superStatus: 200, targetsObjects: true },
  { method: 'GET', path: () => ChannelPaths.slackScope, superStatus: 200, targetsObjects: false },
  { method: 'POST', path: () => ChannelPaths.slackCode, body: () => ({ code: 'walk-code', state: 'walk-state-nobody-issued' }), superStatus: 400, targetsObjects: false },
  { method: 'GET', path: () => ChannelPaths.slackChannels, superStatus: 409, targetsObjects: false },
  { method: 'DELETE', path: () => ChannelPaths.slack, superStatus: 204, targetsObjects: false },
  // The event catalogue (issue 16): the same for every tenant, but only for admins of the tenant named.
  { method: 'GET', path: () => ConnectivityPaths.events, superStatus: 200, targetsObjects: false },
  // Webhooks (issue 16): B's endpoint and log entry by id from A are not found; the endpoint is deleted last.
  { method: 'GET', path: () => WebhookPaths.webhooks, superStatus: 200, targetsObjects: false },
  { method: 'POST', path: () => WebhookPaths.webhooks, body: () => ({ url: `http://127.0.0.1:9/${fresh('walk-hook')}`, description: 'walk', eventKeys: ['user.created'], isActive: true }), superStatus: 201, targetsObjects: false },
  { method: 'POST', path: () => WebhookPaths.webhooks, body: (ids) => ({ _id: ids.webhookId, url: `http://127.0.0.1:9/${fresh('walked-hook')}`, description: 'walked', eventKeys: ['user.deleted'], isActive: true }), superStatus: 200, targetsObjects: true },
  { method: 'POST', path: (ids) => pathOf(WebhookPaths.webhookRotateSecret, { id: ids.webhookId }), superStatus: 200, targetsObjects: true },
  { method: 'POST', path: (ids) => pathOf(WebhookPaths.webhookTest, { id: ids.webhookId }), body: () => ({ eventKey: 'user.invited' }), superStatus: 200, targetsObjects: true },
  { method: 'GET', path: (ids) => pathOf(WebhookPaths.webhookLogs, { id: ids.webhookId }), superStatus: 200, targetsObjects: true },
  { method: 'POST', path: (ids) => pathOf(WebhookPaths.webhookLogRetry, { logId: ids.webhookLogId }), superStatus: 202, targetsObjects: true },
  { method: 'DELETE', path: (ids) => pathOf(WebhookPaths.webhook, { id: ids.webhookId }), superStatus: 204, targetsObjects: true },
];

/** The billing routes' tags whose operations are admin endpoints (plans, the public configuration and Stripe's webhook are not). */
const BILLING_ADMIN_TAGS = ['billing: subscriptions', 'billing: invoices', 'billing: payment methods', 'billing: overview'];

const PLACEHOLDERS: Ids = { tenantId: '{tenantId}', subscriptionId: '{id}', invoiceId: '{id}', planId: '{planId}', paymentMethodId: '{id}', userId: '{userId}', otherUserId: '{userId}', roleId: '{roleId}', groupId: '{groupId}', permissionId: '{permissionId}', customPermissionId: '{permissionId}', categoryId: '{categoryId}', emptyCategoryId: '{categoryId}', tenantTokenId: '{tokenId}', tenantAccessTokenId: '{tokenId}', userTokenId: '{tokenId}', userAccessTokenId: '{tokenId}', subTenantId: '{subTenantId}', subRoleId: '{roleId}', ipRestrictionId: '{id}', emailDomainRestrictionId: '{id}', featureKey: '{featureKey}', ssoConfigId: '{configId}', ssoDomain: 'example.com', ssoDomainId: '{domainId}', ssoTestId: '{testId}', scimConnectionId: '{id}', appId: '{appId}', assignedAppId: '{appId}', reportId: '{id}', reportTriggerId: '{id}', notificationId: '{id}', eventKey: '{eventKey}', emailSubscriptionId: '{id}', smsSubscriptionId: '{id}', slackEventId: '{id}', webhookId: '{id}', webhookLogId: '{logId}' };
/** `PUT /identity/resources/roles/v1/{roleId}/permissions`: the route as the OpenAPI document names it. */
const label = (e: Endpoint) => `${e.method} ${decodeURIComponent(e.path(PLACEHOLDERS).replace(/%2F/g, '/')).split('?')[0]}`;

/** A tenant with a member, a second member, a role, a group (with both) and an invite link, all made through the API. */
async function populatedTenant(server: GatehouseServer, catalogue: { permissionId: string; customPermissionId: string; categoryId: string; emptyCategoryId: string; planId: string; appId: string; assignedAppId: string }): Promise<{ admin: TenantAdmin; ids: Ids; secrets: string[] }> {
  const admin = await tenantWithAdmin(server);
  const member = await inviteMember(server, admin);
  const other = await inviteMember(server, admin);
  const roleKey = fresh('secret-role');
  const role = await callAs(server, admin, 'POST', AdminPaths.rolesV2, { body: { key: roleKey, name: 'Secret role', permissionIds: [catalogue.permissionId] } });
  expect(role.status).toBe(201);
  const groupName = fresh('secret-group');
  const group = await callAs(server, admin, 'POST', AdminPaths.groups, { body: { name: groupName, roleIds: [role.body.id] } });
  expect(group.status).toBe(201);
  expect((await callAs(server, admin, 'POST', pathOf(AdminPaths.groupUsers, { groupId: group.body.id }), { body: { userIds: [member.userId, other.userId] } })).status).toBe(200);
  const link = await callAs(server, admin, 'POST', AdminPaths.inviteLink, { body: {} });
  expect(link.status).toBe(201);
  const address = fresh('secret-address');
  expect((await callAs(server, admin, 'PUT', AccountPaths.accountSettings, { body: { address, website: `https://${fresh('secret')}.example.com` } })).status).toBe(200);
  const tokens = await Promise.all(
    [ApiTokenPaths.tenantApiTokens, ApiTokenPaths.tenantAccessTokens, ApiTokenPaths.userApiTokens, ApiTokenPaths.userAccessTokens].map(async (path) => {
      const res = await callAs(server, admin, 'POST', path, { body: { description: 'secret token', ...(path.includes('/tenants/') ? { roleIds: [role.body.id] } : {}) } });
      expect(res.status).toBe(201);
      return res.body as { id: string; clientId: string; secret: string };
    }),
  );
  const subName = fresh('secret-sub');
  const subAccount = await callAs(server, admin, 'POST', SubAccountPaths.subTenants, { body: { name: subName } });
  expect(subAccount.status).toBe(201);
  const subRoles = await callAs(server, admin, 'GET', pathOf(SubAccountPaths.roles, { subTenantId: subAccount.body.tenantId }));
  const subRoleId = (subRoles.body.items as { id: string; key: string }[]).find((r) => r.key === 'ReadOnly')!.id;
  const secretIp = freshIp();
  const ipEntry = await callAs(server, admin, 'POST', SecurityPaths.ipRestrictions, { body: { ip: secretIp, strategy: 'BLOCK', description: 'secret' } });
  const secretDomain = `${fresh('secret')}.example`;
  const domainEntry = await callAs(server, admin, 'POST', SecurityPaths.emailDomainRestrictions, { body: { domain: secretDomain, type: 'BLOCK' } });
  expect([ipEntry.status, domainEntry.status]).toEqual([201, 201]);
  // A subscription and its invoice, as Stripe's webhooks would have written them.
  const now = Date.now();
  const subscriptionId = newId();
  const invoiceId = newId();
  const invoiceNumber = fresh('SECRET-INV');
  await server.db.insertInto('subscriptions').values({ id: subscriptionId, tenant_id: admin.tenantId, plan_id: catalogue.planId, external_id: `sub_${newId()}`, status: 'active', start_date: now, current_period_start: now, current_period_end: now + 30 * 86_400_000, cancellation: null, trial_end: null, payment_method_id: null, created_at: now, updated_at: now }).execute();
  await server.db.insertInto('invoices').values({ id: invoiceId, tenant_id: admin.tenantId, subscription_id: subscriptionId, external_id: `in_${newId()}`, status: 'paid', payment_date: now, total_amount: 10000, currency: 'usd', paid: 1, receipt_number: invoiceNumber, created_at: now, updated_at: now }).execute();
  // A limited feature on the tenant's plan (a plan of its own when it has none), for usage reports.
  const featureKey = fresh('metered');
  const featureId = await insertFeature(server, featureKey);
  const { planId: currentPlan } = await findEffectivePlanId(server.db, admin.tenantId);
  if (currentPlan) await server.db.insertInto('plan_features').values({ plan_id: currentPlan, feature_id: featureId, limit_value: 1000 }).execute();
  else await subscribe(server, admin.tenantId, await insertEntitlementPlan(server, { features: { [featureId]: 1000 } }));
  const scim = await callAs(server, admin, 'POST', ProvisioningPaths.scim2Configurations, { body: { source: 'azure-ad' } });
  expect(scim.status).toBe(201);
  const assigned = await callAs(server, admin, 'POST', ApplicationPaths.assign, { body: { userId: member.userId, appIds: [catalogue.assignedAppId], tenantId: admin.tenantId } });
  expect(assigned.status).toBe(200);
  const sso = await callAs(server, admin, 'POST', SsoPaths.configurations, { body: { type: 'saml' } });
  const ssoDomain = `${fresh('secret-sso')}.example`;
  const ssoWithDomain = await callAs(server, admin, 'POST', pathOf(SsoPaths.domains, { configId: sso.body.id }), { body: { domain: ssoDomain } });
  expect([sso.status, ssoWithDomain.status]).toEqual([201, 201]);
  const ssoDomainEntry = ssoWithDomain.body.domains[0] as { id: string; generatedVerification: string };
  const reportName = fresh('secret-report');
  const report = await callAs(server, admin, 'POST', ReportPaths.tenantReports, { body: { templateId: 'users-mfa', name: reportName, dataFilters: { mfaEnrolled: false } } });
  const reportRecipient = uniqueEmail('secret-recipient');
  const reportTrigger = await callAs(server, admin, 'POST', ReportPaths.reportTriggers, { body: { reportId: report.body.id, schedule: 'weekly', recipients: [reportRecipient], enabled: true } });
  expect([report.status, reportTrigger.status]).toEqual([201, 201]);
  const notificationTitle = fresh('secret-notification');
  await notifyTenantAdmins(server.db, { tenantId: admin.tenantId, category: 'security', severity: 'warning', title: notificationTitle, body: 'isolation' }, Date.now());
  const notificationId = (await callAs(server, admin, 'GET', NotificationPaths.list)).body.rows[0].id as string;
  const eventKey = 'user.sign_in_failed';
  const notifyRecipient = uniqueEmail('secret-notify');
  const emailConfig = await callAs(server, admin, 'POST', ChannelPaths.email, { body: { eventKey, enabled: true, subscriptions: [{ enabled: true, recipients: [notifyRecipient] }] } });
  const smsConfig = await callAs(server, admin, 'POST', ChannelPaths.sms, { body: { eventKey, enabled: true, subscriptions: [{ enabled: true, recipients: ['+14155550199'] }] } });
  const slackConfig = await callAs(server, admin, 'POST', ChannelPaths.slack, { body: { slackEvents: [{ eventKey, channelIds: ['C0SECRET'], enabled: true }] } });
  expect([emailConfig.status, smsConfig.status, slackConfig.status]).toEqual([200, 200, 200]);
  const emailSubscriptionId = emailConfig.body.subscriptions[0].id as string;
  const smsSubscriptionId = smsConfig.body.subscriptions[0].id as string;
  const slackEventId = slackConfig.body.slackEvents[0].id as string;
  // Nothing listens on port 9: the test delivery fails fast, and is logged.
  const webhookUrl = `http://127.0.0.1:9/${fresh('secret-hook')}`;
  const webhook = await callAs(server, admin, 'POST', WebhookPaths.webhooks, { body: { url: webhookUrl, description: fresh('secret-webhook'), eventKeys: ['user.created'], isActive: true } });
  expect(webhook.status).toBe(201);
  const webhookTest = await callAs(server, admin, 'POST', pathOf(WebhookPaths.webhookTest, { id: webhook.body._id }), { body: { eventKey: 'user.invited' } });
  expect(webhookTest.status).toBe(200);
  return {
    admin,
    ids: { ssoConfigId: sso.body.id, ssoDomain, ssoDomainId: ssoDomainEntry.id, ssoTestId: `_${fresh('test')}`, scimConnectionId: scim.body.id, featureKey, subTenantId: subAccount.body.tenantId, subRoleId, userId: member.userId, otherUserId: other.userId, roleId: role.body.id, groupId: group.body.id, ...catalogue, tenantTokenId: tokens[0]!.id, tenantAccessTokenId: tokens[1]!.id, userTokenId: tokens[2]!.id, userAccessTokenId: tokens[3]!.id, ipRestrictionId: ipEntry.body.id, emailDomainRestrictionId: domainEntry.body.id, tenantId: admin.tenantId, subscriptionId, invoiceId, paymentMethodId: 'pm_isolation', reportId: report.body.id, reportTriggerId: reportTrigger.body.id, notificationId, eventKey, emailSubscriptionId, smsSubscriptionId, slackEventId, webhookId: webhook.body._id, webhookLogId: webhookTest.body.logId },
    // Strings of this tenant that must never appear in an answer to another tenant's admin.
    secrets: [sso.body.id, ssoDomain, ssoDomainEntry.id, ssoDomainEntry.generatedVerification, subAccount.body.tenantId, subName, subRoleId, member.userId, other.userId, member.email, other.email, role.body.id, roleKey, group.body.id, groupName, link.body.token, address, ...tokens.flatMap((t) => [t.id, t.clientId, t.secret]), ipEntry.body.id, secretIp, domainEntry.body.id, secretDomain, subscriptionId, invoiceId, invoiceNumber, scim.body.id, scim.body.token, report.body.id, reportName, reportTrigger.body.id, reportRecipient, notificationId, notificationTitle, emailSubscriptionId, notifyRecipient, smsSubscriptionId, '+14155550199', slackEventId, 'C0SECRET', slackConfig.body.id, webhook.body._id, webhookUrl, webhook.body.secret, webhookTest.body.logId],
  };
}

/** What an admin of the tenant (or anyone) can see of it: compared before and after the attempts. */
async function snapshot(server: GatehouseServer, admin: TenantAdmin) {
  const read = async (path: string) => (await callAs(server, admin, 'GET', path)).body;
  return {
    users: await read(`${AdminPaths.teamMembers}?pageSize=100`),
    roles: await read(AdminPaths.rolesV1),
    groups: await read(`${AdminPaths.groups}?_groupsRelations=rolesAndUsers`),
    link: await read(AdminPaths.inviteLink),
    apiTokens: await Promise.all([ApiTokenPaths.tenantApiTokens, ApiTokenPaths.tenantAccessTokens, ApiTokenPaths.userApiTokens, ApiTokenPaths.userAccessTokens].map(read)),
    permissions: await read(AdminPaths.permissions),
    categories: await read(AdminPaths.permissionCategories),
    account: await read(AccountPaths.accountSettings),
    audits: (await auditsOf(server, admin.tenantId)).length,
    subAccounts: await read(SubAccountPaths.tree),
    sessionsPolicy: await read(SecurityPaths.sessionsPolicy),
    ipRestrictions: await read(SecurityPaths.ipRestrictions),
    ipRestrictionConfig: await read(SecurityPaths.ipRestrictionsConfig),
    emailDomainRestrictions: await read(SecurityPaths.emailDomainRestrictions),
    emailDomainRestrictionConfig: await read(SecurityPaths.emailDomainRestrictionsConfig),
    ssoConfigurations: await read(SsoPaths.configurations),
    subscriptions: await read(BillingPaths.managedSubscriptions),
    invoices: await read(BillingPaths.invoices),
    usage: await read(BillingPaths.usage),
    scimConnections: await read(ProvisioningPaths.scim2Configurations),
    applicationUsers: await read(ApplicationPaths.appsUsers),
    reports: await read(ReportPaths.tenantReports),
    reportTriggers: await read(ReportPaths.reportTriggers),
    notifications: await read(NotificationPaths.list),
    emailNotifications: await read(ChannelPaths.email),
    smsNotifications: await read(ChannelPaths.sms),
    slack: await read(ChannelPaths.slack),
    webhooks: await read(WebhookPaths.webhooks),
  };
}

/** The SSO endpoints' peers: a DNS server (no TXT record published) and an IdP's metadata. */
let dns: TestDns;
let samlIdp: TestSamlIdp;
beforeAll(async () => {
  dns = await startTestDns();
  samlIdp = createTestSamlIdp();
});
afterAll(async () => {
  await dns?.stop();
});

describeDialects('admin tenant isolation', (h) => {
  let server: GatehouseServer;
  let a: { admin: TenantAdmin; ids: Ids };
  let b: { admin: TenantAdmin; ids: Ids; secrets: string[] };
  let root: TenantAdmin;

  /**
   * The tenants are made once per dialect, in the database the block's servers share: each test gets
   * a server of its own on it. The walks of A's admin and of a member without permissions prove with
   * snapshots that they change nothing; the super user's walk, which changes B, is the last test.
   */
  let made: { root: TenantAdmin; a: typeof a; b: typeof b } | undefined;
  beforeEach(async () => {
    // A clock that stands still: the snapshots compare minutes left on the invite link.
    server = await h.start({ SSO_DNS_SERVERS: dns.address, SLACK_CLIENT_ID: 'walk.client', SLACK_CLIENT_SECRET: 'walk-secret' }, { clock: movableClock() });
    made ??= await makeTenants();
    ({ root, a, b } = made);
  });

  async function makeTenants() {
    const root = await superUser(server);
    // The shared catalogue: a custom permission in a custom category, and an empty category.
    const category = await callAs(server, root, 'POST', AdminPaths.permissionCategories, { body: { name: fresh('reports') } });
    const empty = await callAs(server, root, 'POST', AdminPaths.permissionCategories, { body: { name: fresh('empty') } });
    const custom = await callAs(server, root, 'POST', AdminPaths.permissions, { body: { key: `reports.${fresh('read')}`, name: 'Read reports', categoryId: category.body.id } });
    expect([category.status, empty.status, custom.status]).toEqual([201, 201, 201]);
    const usersRead = (await findPermissionByKey(server.db, Permissions.usersRead))!;
    const planId = await insertPlan(server, { name: 'Premium', price: 10000 });
    const app = async (name: string) => {
      const res = await callAs(server, root, 'POST', ApplicationPaths.applications, { body: { name, url: `https://${name}.example.com`, accessType: 'MANAGED_ACCESS' } });
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    const catalogue = { permissionId: usersRead.id, customPermissionId: custom.body.id, categoryId: category.body.id, emptyCategoryId: empty.body.id, planId, appId: await app(fresh('walked')), assignedAppId: await app(fresh('assigned')) };
    return { root, a: await populatedTenant(server, catalogue), b: await populatedTenant(server, catalogue) };
  }

  it('lists every admin route of users, roles, groups and invite links the server publishes', async () => {
    const doc = (await callAs(server, root, 'GET', '/openapi.json')).body as { paths: Record<string, Record<string, { tags?: string[] }>> };
    const published = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, op]) => op.tags?.some((t) => t.startsWith('admin: ') || BILLING_ADMIN_TAGS.includes(t)))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    // The one signed-in (not admin) call of these modules: joining by invite link.
    const adminOnly = published.filter((route) => route !== `POST ${AdminPaths.inviteLinkJoin}` && route !== `GET ${BillingPaths.vendorPublicConfiguration}`);
    expect(new Set(ENDPOINTS.map(label))).toEqual(new Set(adminOnly));
    // Some routes are walked twice (create, and update by id): each published route at least once, nothing else.
    expect(new Set(ENDPOINTS.map(label)).size).toBe(adminOnly.length);
  });

  it('refuses the admin of tenant A on every endpoint aimed at tenant B, leaks nothing of B and leaves B unchanged', async () => {
    const before = await snapshot(server, b.admin);
    for (const endpoint of ENDPOINTS) {
      const named = await callAs(server, a.admin, endpoint.method, endpoint.path(b.ids), { tenantId: b.admin.tenantId, ...(endpoint.body ? { body: endpoint.body(b.ids) } : {}) });
      expect(named.status, `${label(endpoint)} ?tenantId=B`).toBe(404);
      const namedText = JSON.stringify(named.body);
      expect(b.secrets.filter((secret) => namedText.includes(secret)), `${label(endpoint)} ?tenantId=B leaks`).toEqual([]);

      if (!endpoint.targetsObjects) continue;
      const aimed = await callAs(server, a.admin, endpoint.method, endpoint.path(b.ids), endpoint.body ? { body: endpoint.body(b.ids) } : {});
      expect(endpoint.crossStatuses ?? [404], `${label(endpoint)} with B's ids`).toContain(aimed.status);
      const aimedText = JSON.stringify(aimed.body);
      expect(b.secrets.filter((secret) => aimedText.includes(secret)), `${label(endpoint)} with B's ids leaks`).toEqual([]);
    }
    expect(await snapshot(server, b.admin)).toEqual(before);
  });

  it("refuses A's admin mixing A's objects with B's: B's role for A's user or group, B's user in A's group", async () => {
    const before = await snapshot(server, b.admin);
    const mixed = [
      await callAs(server, a.admin, 'PUT', AdminPaths.teamMembers, { body: { id: a.ids.userId, roleIds: [b.ids.roleId] } }),
      await callAs(server, a.admin, 'POST', pathOf(AdminPaths.groupRoles, { groupId: a.ids.groupId }), { body: { roleIds: [b.ids.roleId] } }),
      await callAs(server, a.admin, 'POST', pathOf(AdminPaths.groupUsers, { groupId: a.ids.groupId }), { body: { userIds: [b.ids.userId] } }),
      await callAs(server, a.admin, 'POST', AdminPaths.groups, { body: { name: fresh('mixed'), roleIds: [b.ids.roleId] } }),
      await callAs(server, a.admin, 'PUT', pathOf(AdminPaths.permissionRoles, { permissionId: a.ids.permissionId }), { body: { roleIds: [a.ids.roleId, b.ids.roleId] } }),
    ];
    expect(mixed.map((r) => r.status)).toEqual([400, 404, 404, 404, 404]);
    expect(await snapshot(server, b.admin)).toEqual(before);
  });

  it('answers 403 on every endpoint to a member of the tenant without the permission', async () => {
    const plain = await memberWithoutPermissions(server, a.admin.tenantId);
    const before = await snapshot(server, a.admin);
    for (const endpoint of ENDPOINTS) {
      const res = await callAs(server, plain, endpoint.method, endpoint.path(a.ids), { tenantId: a.admin.tenantId, ...(endpoint.body ? { body: endpoint.body(a.ids) } : {}) });
      expect(res.status, label(endpoint)).toBe(403);
      expect(res.body.errorCode, label(endpoint)).toBe('ER-01005');
    }
    expect(await snapshot(server, a.admin)).toEqual(before);
  });

  it('lets a super user call every endpoint in tenant B, and records each change in B\'s audit log', async () => {
    const auditsBefore = (await auditsOf(server, b.admin.tenantId)).length;
    let changes = 0;
    for (const endpoint of ENDPOINTS) {
      const res = await callAs(server, root, endpoint.method, endpoint.path(b.ids), { tenantId: b.admin.tenantId, ...(endpoint.body ? { body: endpoint.body(b.ids) } : {}) });
      expect(res.status, `${label(endpoint)}: ${JSON.stringify(res.body)}`).toBe(endpoint.superStatus);
      if (endpoint.method !== 'GET' && endpoint.superStatus < 400 && !([AdminPaths.groupsBulkGet, AuditPaths.exportCsv, SubAccountPaths.usersCount, SecurityPaths.ipRestrictionsVerify, SecurityPaths.emailDomainRestrictionsVerify, NotificationPaths.status, NotificationPaths.pin, NotificationPaths.markAllRead] as string[]).includes(endpoint.path(b.ids))) changes += 1;
    }
    const audits = await auditsOf(server, b.admin.tenantId);
    expect(audits.length - auditsBefore).toBe(changes);
    expect(audits.filter((r) => r.user_id === root.userId)).toHaveLength(changes);
  });
});
