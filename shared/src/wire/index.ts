/**
 * Wire contract between the identity API and the browser: zod schemas (server-side) and types, one
 * folder per area. In each folder `paths.ts` and `*-paths.ts` are zod-free (the browser imports them
 * at run time); the other files hold the schemas. The root holds what every area shares.
 */
export * from './error-codes';
export * from './paths';

export * from './auth/auth';
export * from './auth/claims';
export * from './auth/login-strategies';
export * from './auth/policies';

export * from './mfa/mfa';
export * from './mfa/factors';
export * from './mfa/paths';
export * from './mfa/step-up';

export * from './passwordless/passwordless';
export * from './passwordless/webauthn';
export * from './passwordless/passkeys';

export * from './recovery/recovery';
export * from './recovery/error-codes';

export * from './users/users';
export * from './users/signup';
export * from './users/sign-up-strategies';
export * from './users/invitations';
export * from './users/sessions';
export * from './users/session-paths';
export * from './users/usernames';
export * from './users/username-paths';
export * from './users/self-service';
export * from './users/self-service-paths';
export * from './users/me-token';
export * from './users/me-token-paths';

export * from './admin/paths';
export * from './admin/error-codes';
export * from './admin/permissions';
export * from './admin/users';
export * from './admin/roles';
export * from './admin/groups';
export * from './admin/api-tokens';
export * from './admin/api-token-paths';
export * from './admin/audits';
export * from './admin/audit-paths';
export * from './admin/sub-accounts';
export * from './admin/sub-account-paths';

export * from './security/paths';
export * from './security/policies';
export * from './security/restrictions';
export * from './security/security-center';

export * from './account/settings';
export * from './account/paths';

export * from './sso/sso';
export * from './sso/paths';
export * from './sso/prelogin-path';
export * from './sso/public-configuration';
export * from './sso/public-configuration-paths';
export * from './social/login';
export * from './social/paths';
export * from './oauth/oauth';
export * from './oauth/paths';

export * from './platform/public';
export * from './platform/cdn-manifest';
export * from './platform/captcha';
export * from './platform/vendor-info';
export * from './platform/vendor-info-paths';
export * from './messaging/mailbox';

export * from './billing/paths';
export * from './billing/billing';
export * from './entitlements/paths';
export * from './entitlements/entitlements';
export * from './operator/paths';

export * from './provisioning/provisioning';
export * from './operator/operator';
export * from './operator/cdn';
export * from './applications/paths';
export * from './applications/applications';

export * from './connectivity/index';
