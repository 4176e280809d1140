/**
 * Preview mode's sample data for the portal's account sections (docs/preview-mode.md): groups, API
 * tokens, IP and email-domain restrictions, the password policies and one SSO configuration. Typed
 * with the wire types; admin-sample-data.test.ts parses each with its zod schema.
 */
import type { ApiToken } from '../wire/admin/api-tokens';
import type { Group } from '../wire/admin/groups';
import type { EmailDomainRestriction, EmailDomainRestrictionConfig, IpRestriction, IpRestrictionConfig } from '../wire/security/restrictions';
import type { PasswordPolicy, PasswordRotation, UserEmailsPolicy } from '../wire/security/policies';
import type { SsoConfiguration } from '../wire/sso/sso';
import { PREVIEW_ME, PREVIEW_PASSWORD_CONFIG, PREVIEW_ROLES, PREVIEW_USERS } from './sample-data';

const CREATED = '2026-01-05T09:00:00.000Z';
const summary = (i: number) => ({ id: PREVIEW_ROLES[i]!.id, key: PREVIEW_ROLES[i]!.key, name: PREVIEW_ROLES[i]!.name });
const member = (i: number) => ({ id: PREVIEW_USERS[i]!.id, name: PREVIEW_USERS[i]!.name, email: PREVIEW_USERS[i]!.email });

export const PREVIEW_GROUPS: readonly Group[] = [
  { id: 'preview-group-1', name: 'Engineering', description: 'Builds the product', color: '#3366ff', metadata: null, managedBy: null, roles: [summary(2)], users: [member(2), member(3), member(6)], createdAt: CREATED, updatedAt: CREATED },
  { id: 'preview-group-2', name: 'Managers', description: 'Run the account', color: '#2e9e5b', metadata: null, managedBy: null, roles: [summary(0)], users: [member(0)], createdAt: CREATED, updatedAt: CREATED },
];

const token = (id: string, type: ApiToken['type'], description: string, roleIds: string[], userId: string | null, expires: string | null): ApiToken => ({
  id, clientId: `${id}-client`, type, description, createdAt: CREATED, roleIds, expiresInMinutes: expires ? 43_200 : null, expires, userId,
});

/** The account's tokens (act with their roles) and the preview user's own (act with Ada's permissions). */
export const PREVIEW_API_TOKENS: { tenant: readonly ApiToken[]; user: readonly ApiToken[] } = {
  tenant: [
    token('preview-token-ci', 'ClientCredentials', 'CI deploys', [PREVIEW_ROLES[1]!.id], null, null),
    token('preview-token-reports', 'AccessToken', 'Monthly reports', [PREVIEW_ROLES[1]!.id], null, '2026-12-31T00:00:00.000Z'),
  ],
  user: [token('preview-token-cli', 'ClientCredentials', 'My command line', [], PREVIEW_ME.id, null)],
};

export const PREVIEW_IP_CONFIG: IpRestrictionConfig = { isActive: false, strategy: 'ALLOW' };
export const PREVIEW_IP_RESTRICTIONS: readonly IpRestriction[] = [
  { id: 'preview-ip-1', ip: '198.51.100.0/24', isActive: true, description: 'Office', strategy: 'ALLOW', createdAt: CREATED, updatedAt: CREATED },
  { id: 'preview-ip-2', ip: '203.0.113.10', isActive: true, description: 'VPN', strategy: 'ALLOW', createdAt: CREATED, updatedAt: CREATED },
];
/** The address the preview says the visitor comes from (a documentation address, RFC 5737). */
export const PREVIEW_VISITOR_IP = '203.0.113.10';

export const PREVIEW_DOMAIN_CONFIG: EmailDomainRestrictionConfig = { active: false, listType: 'ALLOW', blockPublicDomains: false };
export const PREVIEW_DOMAIN_RESTRICTIONS: readonly EmailDomainRestriction[] = [
  { id: 'preview-domain-1', domain: 'preview.example', type: 'ALLOW', createdAt: CREATED },
];

/** The password policies of the Security section's general settings. */
export const PREVIEW_PASSWORD_POLICIES: { password: PasswordPolicy; passwordRotation: PasswordRotation; userEmails: UserEmailsPolicy } = {
  password: { ...PREVIEW_PASSWORD_CONFIG },
  passwordRotation: { passwordExpiresIn: 0, notificationPeriod: 7 },
  userEmails: { allowEmailChange: true, requireVerifiedEmailForLogin: false },
};

export const PREVIEW_SSO_CONFIGURATIONS: readonly SsoConfiguration[] = [
  {
    id: 'preview-sso-1',
    type: 'saml',
    enabled: true,
    domains: [{ id: 'preview-sso-domain-1', domain: 'preview.example', validated: true, generatedVerification: 'gatehouse-verification=preview' }],
    roleIds: [PREVIEW_ROLES[1]!.id],
    groups: [],
    acsUrl: 'https://auth.preview.example/identity/resources/auth/v1/user/saml/preview-sso-1/acs',
    spEntityId: 'https://auth.preview.example/saml/preview-sso-1',
    signRequest: false,
    idpEntityId: 'https://idp.preview.example/metadata',
    ssoEndpoint: 'https://idp.preview.example/sso',
    publicCertificate: null,
    metadataUrl: null,
    createdAt: CREATED,
    updatedAt: CREATED,
  },
];
