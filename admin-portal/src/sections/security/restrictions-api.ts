/**
 * The Security section's calls for IP and email-domain restrictions (issue 12; seed 001 sections 3,
 * 7, 9), through the portal's API client. Bodies follow shared/src/wire/security/restrictions.ts.
 */
import { IP_RESTRICTIONS_PAGE_SIZE, SecurityPaths } from '@gatehouse/shared/admin-paths';
import type {
  EmailDomainRestriction, EmailDomainRestrictionConfig, EmailDomainRestrictionList, IpRestriction, IpRestrictionConfig,
  IpRestrictionList, IpVerifyResponse, RestrictionStrategy,
} from '@gatehouse/shared/wire';
import type { GatehouseApi } from '../../contract';

/** What the add and edit dialogs send for one IP entry. */
export interface IpEntryInput {
  ip: string;
  description: string;
  strategy: RestrictionStrategy;
  isActive: boolean;
}

const withId = (template: string, id: string) => template.replace('{id}', encodeURIComponent(id));
/** Only the confirmed retry carries the flag: a first attempt must be refused if it would shut the admin out. */
const confirmed = (confirmSelfLockout: boolean) => (confirmSelfLockout ? { confirmSelfLockout: true } : {});

export function createRestrictionsApi(api: GatehouseApi) {
  return {
    ipConfig: () => api.request<IpRestrictionConfig>('GET', SecurityPaths.ipRestrictionsConfig),
    saveIpConfig: (config: IpRestrictionConfig, confirmSelfLockout = false) =>
      api.request<IpRestrictionConfig>('POST', SecurityPaths.ipRestrictionsConfig, { body: { isActive: config.isActive, strategy: config.strategy, ...confirmed(confirmSelfLockout) } }),
    /** One page (0 first) of IP_RESTRICTIONS_PAGE_SIZE entries. */
    ipList: (page: number) =>
      api.request<IpRestrictionList>('GET', SecurityPaths.ipRestrictions, { query: { offset: page * IP_RESTRICTIONS_PAGE_SIZE, limit: IP_RESTRICTIONS_PAGE_SIZE } }),
    createIp: (input: IpEntryInput, confirmSelfLockout = false) =>
      api.request<IpRestriction>('POST', SecurityPaths.ipRestrictions, { body: { ...ipBody(input), ...confirmed(confirmSelfLockout) } }),
    updateIp: (id: string, input: IpEntryInput, confirmSelfLockout = false) =>
      api.request<IpRestriction>('PATCH', withId(SecurityPaths.ipRestriction, id), { body: { ...ipBody(input), ...confirmed(confirmSelfLockout) } }),
    removeIp: (id: string, confirmSelfLockout = false) =>
      api.request<void>('DELETE', withId(SecurityPaths.ipRestriction, id), confirmSelfLockout ? { query: { confirmSelfLockout: 'true' } } : {}),
    verifyIp: () => api.request<IpVerifyResponse>('POST', SecurityPaths.ipRestrictionsVerify),
    /** "Add my IP": the server allow-lists the caller's own address, described 'My IP'. */
    addMyIp: () => api.request<IpRestriction>('POST', SecurityPaths.ipRestrictionsVerifyAllow),

    domainConfig: () => api.request<EmailDomainRestrictionConfig>('GET', SecurityPaths.emailDomainRestrictionsConfig),
    saveDomainConfig: (config: EmailDomainRestrictionConfig) => api.request<EmailDomainRestrictionConfig>('POST', SecurityPaths.emailDomainRestrictionsConfig, { body: { ...config } }),
    domainList: () => api.request<EmailDomainRestrictionList>('GET', SecurityPaths.emailDomainRestrictions, { query: { offset: 0, limit: 200 } }),
    createDomain: (domain: string, type: RestrictionStrategy) =>
      api.request<EmailDomainRestriction>('POST', SecurityPaths.emailDomainRestrictions, { body: { domain: domain.trim(), type } }),
    removeDomain: (id: string) => api.request<void>('DELETE', withId(SecurityPaths.emailDomainRestriction, id)),
  };
}

export type RestrictionsApi = ReturnType<typeof createRestrictionsApi>;

function ipBody(input: IpEntryInput) {
  return { ip: input.ip.trim(), description: input.description.trim(), strategy: input.strategy, isActive: input.isActive };
}
