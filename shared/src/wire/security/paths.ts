/**
 * Paths, constants and error codes of tenant security (seed 001 sections 2, 3, 5, 7, 9; issue 12):
 * per-tenant policies, IP and email-domain restrictions, and the security center. Plain data, no
 * zod, so the admin portal imports it at run time; the schemas are in policies.ts,
 * restrictions.ts and security-center.ts.
 */
const configurations = '/identity/resources/configurations/v1';
const ip = `${configurations}/restrictions/ip`;
const emailDomain = `${configurations}/restrictions/email-domain`;

export const SecurityPaths = {
  /** GET | POST | PATCH, each body MfaPolicy; GET answers the effective policy (`id` when the tenant has its own). */
  mfaPolicy: `${configurations}/mfa-policy`,
  lockoutPolicy: `${configurations}/lockout-policy`,
  passwordHistoryPolicy: `${configurations}/password-history-policy`,
  passwordPolicy: `${configurations}/password-policy`,
  passwordRotation: `${configurations}/password-rotation`,
  captchaPolicy: `${configurations}/captcha-policy`,
  userEmailsPolicy: `${configurations}/user-emails-policy`,
  /** GET | POST: idle timeout, forced re-login and concurrent sessions (seconds). */
  sessionsPolicy: '/identity/resources/configurations/sessions/v1',

  /** GET (list, `?offset&limit`), POST (create). */
  ipRestrictions: ip,
  /** DELETE | PATCH. */
  ipRestriction: `${ip}/{id}`,
  /** POST `{ restrictions: [...] }`. */
  ipRestrictionsBulk: `${ip}/bulk`,
  /** GET | POST `{ isActive, strategy }`. */
  ipRestrictionsConfig: `${ip}/config`,
  /** POST: is the caller's address allowed? `{ allowed, ip }`. */
  ipRestrictionsVerify: `${ip}/verify`,
  /** POST: "Add my IP": allow-lists the caller's own address, described 'My IP'. */
  ipRestrictionsVerifyAllow: `${ip}/verify/allow`,

  emailDomainRestrictions: emailDomain,
  emailDomainRestriction: `${emailDomain}/{id}`,
  emailDomainRestrictionsBulk: `${emailDomain}/bulk`,
  emailDomainRestrictionsConfig: `${emailDomain}/config`,
  /** POST `{ email }`: would this address be let in? `{ allowed, reason? }`. */
  emailDomainRestrictionsVerify: `${emailDomain}/verify`,

  /** GET: `{ score, level, recommendations }`. */
  securityCenterRecommendations: '/security-center/resources/recommendations/v1',
  /** GET: `{ insights }`. */
  securityCenterInsights: '/security-center/resources/insights/v1',
  /** GET: one point a day, the last 90 days. */
  securityCenterScoreHistory: '/security-center/resources/score-history/v1',
  /** POST, no body (seed 001 section 7 "breached-password reset bulk"): emails a reset link to every user of the tenant with a breached password. */
  breachedPasswordResetBulk: '/identity/resources/users/v1/breached-password/reset/bulk',
} as const;

/** Seed 001 section 3 Security page tabs, in order. */
export const SecurityTabs = ['sessionManagement', 'generalSettings', 'ipRestrictions', 'domainRestrictions'] as const;
export type SecurityTab = (typeof SecurityTabs)[number];

export const EnforceMfaTypes = ['DontForce', 'Force', 'ForceExceptSAML'] as const;
export type EnforceMfaType = (typeof EnforceMfaTypes)[number];

export const RestrictionStrategies = ['ALLOW', 'BLOCK'] as const;
export type RestrictionStrategy = (typeof RestrictionStrategies)[number];

/** Seed 001 section 9: IP restrictions page size, and the description of the admin's own address. */
export const IP_RESTRICTIONS_PAGE_SIZE = 4;
export const MY_IP_DESCRIPTION = 'My IP';
export const PASSWORD_HISTORY_MAX = 24;

export const RecommendationCodes = [
  'FORCE_MFA', 'BREACHED_PASSWORDS_EXIST', 'ENABLE_USER_LOCKOUT', 'STRENGTHEN_USER_LOCKOUT', 'ENABLE_PASSWORD_HISTORY',
  'STRENGTHEN_PASSWORD_HISTORY', 'ENABLE_FORCE_RELOGIN', 'SET_FORCE_RELOGIN', 'ENABLE_SESSION_CONCURRENCY', 'SET_SESSION_CONCURRENCY',
  'ENABLE_IDLE_SESSION', 'SET_IDLE_SESSION', 'ENABLE_IP_RESTRICTIONS', 'CHANGE_IP_TO_ALLOWLIST', 'ENABLE_DOMAIN_RESTRICTIONS',
  'CHANGE_DOMAIN_TO_ALLOWLIST', 'CONFIGURE_SSO',
] as const;
export type RecommendationCode = (typeof RecommendationCodes)[number];

export const InsightCodes = [
  'MFA_FORCED', 'PARTIALLY_FORCED_MFA', 'PARTIAL_MFA_USAGE', 'FULL_MFA_USAGE', 'BREACHED_PASSWORD_USERS_EXIST', 'IMPROVE_LOCKOUT_POLICY',
  'IMPROVE_PASSWORD_HISTORY_POLICY', 'NO_SESSION_SETTINGS', 'PARTIAL_SESSION_SETTINGS', 'FULL_SESSION_SETTINGS', 'NO_IP_RESTRICTIONS',
  'IP_ALLOWLIST', 'IP_DENYLIST', 'NO_DOMAIN_RESTRICTIONS', 'DOMAIN_ALLOWLIST', 'DOMAIN_DENYLIST', 'FULL_PASSWORD_SETTINGS',
] as const;
export type InsightCode = (typeof InsightCodes)[number];

export const SecurityCenterActions = ['SEND_RESET_BREACHED_PASSWORD_EMAIL', 'ADJUST_FORCE_RELOGIN', 'ADJUST_MAX_CONCURRENT_SESSIONS', 'ADJUST_IDLE_TIMEOUT'] as const;
export type SecurityCenterAction = (typeof SecurityCenterActions)[number];
export const RecommendationSeverities = ['SEVERE', 'WARNING', 'INFO'] as const;
export type RecommendationSeverity = (typeof RecommendationSeverities)[number];
export const SecurityCategories = ['MFA', 'SESSIONS', 'PASSWORD', 'INACTIVITY', 'IP', 'DOMAIN', 'SSO'] as const;
export type SecurityCategory = (typeof SecurityCategories)[number];
/** Score levels, lowest first; the score's thresholds are in docs/security-center.md. */
export const SecurityLevels = ['Vulnerable', 'Fair', 'Good', 'Strong', 'Fortified'] as const;
export type SecurityLevel = (typeof SecurityLevels)[number];

/** Seed 001 section 9: security-center tables show 10 users per page. */
export const SECURITY_CENTER_TABLE_LIMIT = 10;
/** Days of score history kept and shown. */
export const SCORE_HISTORY_DAYS = 90;
/** Seed 001 section 2 feature flags of the security center page. */
export const SecurityCenterFlags = {
  showLoginFlows: 'security-center-show-login-flows',
  adminPortalMajorVersion: 'security-center-admin-portal-major-version',
} as const;

/** Error codes of tenant security (ER-028xx, a range of its own; ER-IP-RESTRICTED is fixed by issue 12). */
export const SecurityErrorCodes = {
  /** A sign-in, refresh or API call from an address the tenant's IP restrictions keep out (403). */
  ipRestricted: 'ER-IP-RESTRICTED',
  /** A policy save that would loosen the vendor's policy; the message names the vendor's value (400). */
  policyLooserThanVendor: 'ER-02801',
  /** Saving this IP config or entry would shut out the caller's own address; resend with confirmSelfLockout: true (409). */
  selfLockout: 'ER-02802',
  /** The email address's domain is not allowed by the tenant's email-domain restrictions (403). */
  emailDomainRestricted: 'ER-02803',
  /** The new password is one of the user's last N passwords (password history policy) (400). */
  passwordReused: 'ER-02804',
  /** The session ended by the tenant's session policy: idle too long, or older than forced re-login (401). */
  sessionExpiredByPolicy: 'ER-02805',
  /** The tenant's user-emails policy does not allow changing the email address (403). */
  emailChangeNotAllowed: 'ER-02806',
  /** The tenant's captcha policy needs a captcha the vendor has not configured (400). */
  captchaNotConfigured: 'ER-02807',
} as const;
export type SecurityErrorCode = (typeof SecurityErrorCodes)[keyof typeof SecurityErrorCodes];
