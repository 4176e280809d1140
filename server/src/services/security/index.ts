/**
 * Tenant security (issue 12): the services every entry point asks before it lets someone in. Built
 * before any area (like the platform's), so auth, MFA, passwordless, social, SSO, OAuth, users and
 * admin all enforce the same tenant policies and restrictions.
 */
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db';
import { createEmailDomainRestrictionService, type EmailDomainRestrictionService } from './email-domain-restrictions';
import { createIpRestrictionService, type IpRestrictionService } from './ip-restrictions';
import { createSecurityPolicyService, type SecurityPolicyService } from './policies';
import { createSessionPolicyService, type SessionPolicyService } from './session-policy';

export interface TenantSecurity {
  /** Each tenant's effective policies: the vendor's configuration, tightened by the tenant's own. */
  policies: SecurityPolicyService;
  /** Each tenant's IP allow and block lists: may this address act for a member of the tenant? */
  ipRestrictions: IpRestrictionService;
  /** Each tenant's email-domain allow and block lists: may this address join the tenant? */
  emailDomains: EmailDomainRestrictionService;
  /** Each tenant's sessions policy: idle timeout, forced re-login and concurrent sessions, checked at sign-in and refresh. */
  sessions: SessionPolicyService;
}

/** Builds the tenant security services from the database, the clock and the vendor's configuration. */
export function createTenantSecurity(deps: { db: Db; clock: Clock; config: Config }): TenantSecurity {
  return {
    policies: createSecurityPolicyService(deps),
    ipRestrictions: createIpRestrictionService(deps),
    emailDomains: createEmailDomainRestrictionService(deps),
    sessions: createSessionPolicyService(deps),
  };
}
