import { expect, it } from 'vitest';
import { ApiTokenList } from '../wire/admin/api-tokens';
import { GroupsResponse } from '../wire/admin/groups';
import { EmailDomainRestrictionConfig, EmailDomainRestrictionList, IpRestrictionConfig, IpRestrictionList } from '../wire/security/restrictions';
import { PasswordPolicy, PasswordRotation, UserEmailsPolicy } from '../wire/security/policies';
import { SsoConfiguration } from '../wire/sso/sso';
import { PaymentProvidersResponse } from '../wire/billing/billing';
import {
  PREVIEW_API_TOKENS, PREVIEW_DOMAIN_CONFIG, PREVIEW_DOMAIN_RESTRICTIONS, PREVIEW_GROUPS, PREVIEW_IP_CONFIG, PREVIEW_IP_RESTRICTIONS,
  PREVIEW_PASSWORD_POLICIES, PREVIEW_SSO_CONFIGURATIONS,
} from './admin-sample-data';
import { PREVIEW_PAYMENT_PROVIDERS } from './billing';
import { PREVIEW_ROLES, PREVIEW_USERS } from './sample-data';

it('parses with the wire schemas: groups, API tokens, restrictions, password policies, SSO and the payment provider', () => {
  const { groups } = GroupsResponse.parse({ groups: PREVIEW_GROUPS });
  expect(groups.map((g) => g.name)).toEqual(['Engineering', 'Managers']);
  ApiTokenList.parse({ items: [...PREVIEW_API_TOKENS.tenant, ...PREVIEW_API_TOKENS.user] });
  IpRestrictionConfig.parse(PREVIEW_IP_CONFIG);
  IpRestrictionList.parse({ items: PREVIEW_IP_RESTRICTIONS, total: PREVIEW_IP_RESTRICTIONS.length });
  EmailDomainRestrictionConfig.parse(PREVIEW_DOMAIN_CONFIG);
  EmailDomainRestrictionList.parse({ items: PREVIEW_DOMAIN_RESTRICTIONS, total: PREVIEW_DOMAIN_RESTRICTIONS.length });
  PasswordPolicy.parse(PREVIEW_PASSWORD_POLICIES.password);
  PasswordRotation.parse(PREVIEW_PASSWORD_POLICIES.passwordRotation);
  UserEmailsPolicy.parse(PREVIEW_PASSWORD_POLICIES.userEmails);
  for (const configuration of PREVIEW_SSO_CONFIGURATIONS) SsoConfiguration.parse(configuration);
  expect(PaymentProvidersResponse.parse(PREVIEW_PAYMENT_PROVIDERS)).toEqual([{ id: 'preview-provider', providerType: 'Stripe', status: '1' }]);
});

it("refers only to the sample data's own roles and users", () => {
  const roleIds = new Set(PREVIEW_ROLES.map((r) => r.id));
  const userIds = new Set(PREVIEW_USERS.map((u) => u.id));
  for (const group of PREVIEW_GROUPS) {
    for (const role of group.roles) expect(roleIds.has(role.id)).toBe(true);
    for (const user of group.users) expect(userIds.has(user.id)).toBe(true);
  }
  for (const token of [...PREVIEW_API_TOKENS.tenant, ...PREVIEW_API_TOKENS.user]) for (const id of token.roleIds) expect(roleIds.has(id)).toBe(true);
});
