/** The tables of migration 025 (tenant security), merged into `Database` (schema.ts). Epoch ms; booleans 0/1. */

/** Policy kinds of `tenant_security_policies.kind`. */
export type SecurityPolicyKind = 'mfa' | 'lockout' | 'password-history' | 'password' | 'password-rotation' | 'captcha' | 'user-emails' | 'sessions';

/** A tenant's own policy of one kind; `body` is the policy's JSON as saved (tightened over the vendor's). */
export interface TenantSecurityPoliciesTable {
  id: string;
  tenant_id: string;
  kind: SecurityPolicyKind;
  body: string;
  created_at: number;
  updated_at: number;
}

/** A previous password of a user: its argon2id hash only. */
export interface PasswordHistoryTable {
  id: string;
  user_id: string;
  password_hash: string;
  created_at: number;
}

/** An address or CIDR range (canonical form) on a tenant's allow or block list. */
export interface IpRestrictionsTable {
  id: string;
  tenant_id: string;
  ip: string;
  is_active: number;
  description: string;
  strategy: 'ALLOW' | 'BLOCK';
  created_at: number;
  updated_at: number;
}

export interface IpRestrictionConfigsTable {
  tenant_id: string;
  is_active: number;
  strategy: 'ALLOW' | 'BLOCK';
  updated_at: number;
}

/** An email domain (lower case) on a tenant's allow or block list. */
export interface EmailDomainRestrictionsTable {
  id: string;
  tenant_id: string;
  domain: string;
  type: 'ALLOW' | 'BLOCK';
  created_at: number;
}

export interface EmailDomainRestrictionConfigsTable {
  tenant_id: string;
  active: number;
  list_type: 'ALLOW' | 'BLOCK';
  block_public_domains: number;
  updated_at: number;
}

/** The security center's score of a tenant on a UTC day (YYYY-MM-DD). */
export interface SecurityScoreHistoryTable {
  tenant_id: string;
  day: string;
  score: number;
}

export interface SecurityTables {
  tenant_security_policies: TenantSecurityPoliciesTable;
  password_history: PasswordHistoryTable;
  ip_restrictions: IpRestrictionsTable;
  ip_restriction_configs: IpRestrictionConfigsTable;
  email_domain_restrictions: EmailDomainRestrictionsTable;
  email_domain_restriction_configs: EmailDomainRestrictionConfigsTable;
  security_score_history: SecurityScoreHistoryTable;
}
