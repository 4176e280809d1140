import { OpenAPIHono } from '@hono/zod-openapi';
import { ApiPaths, ErrorCodes } from '@gatehouse/shared/wire';
import { bodyLimit } from 'hono/body-limit';
import { systemClock, type Clock } from './clock';
import type { Config } from './config';
import { migrate, openDb, type Db } from './db';
import { AppError } from './errors';
import type { AppEnv } from './http/env';
import { notFound, onError, validationHook } from './http/errors';
import { corsForAllowedOrigins, securityHeaders, traceId } from './http/middleware';
import { sessionRoutes } from './routes/auth/session';
import { mfaAuthRoutes } from './routes/auth/mfa';
import { mfaUserRoutes } from './routes/users/mfa';
import { webauthnLoginRoutes } from './routes/auth/webauthn';
import { passwordlessRoutes } from './routes/auth/passwordless';
import { ssoLoginRoutes } from './routes/auth/sso';
import { ssoConfigurationRoutes } from './routes/tenants/sso';
import { createSsoConfigurationService } from './services/sso/configurations';
import { createTxtResolver } from './services/sso/dns';
import { createSsoLoginService } from './services/sso/login';
import { socialLoginRoutes } from './routes/auth/social';
import { impersonationRoutes } from './routes/auth/impersonation';
import { invitationRoutes } from './routes/users/invitations';
import { createImpersonationService } from './services/impersonation';
import { adminRoutes } from './routes/admin';
import { apiTokenRoutes } from './routes/admin/api-tokens';
import { subAccountRoutes } from './routes/admin/sub-accounts';
import { createSubAccountService } from './services/sub-accounts';
import { accountSettingsRoutes } from './routes/tenants/account-settings';
import { createAccountSettingsService } from './services/account-settings';
import { createApiTokenService } from './services/api-tokens';
import { createAdminAuditService } from './services/admin-audits';
import { createAdminUserService } from './services/admin-users';
import { createAdminRoleService, ensurePermissionCategories } from './services/admin-roles';
import { createAdminGroupService } from './services/admin-groups';
import { createInviteLinkService } from './services/invite-links';
import { createInvitationService, type InvitationService } from './services/invitations';
import type { RouteDeps } from './routes/deps';
import { mailboxRoutes } from './routes/dev/mailbox';
import { publicRoutes } from './routes/public/config';
import { captchaPolicyRoutes } from './routes/configurations/captcha-policy';
import { cdnRoutes } from './routes/static/cdn';
import { isOAuthCorsPath, oauthRoutes } from './routes/oauth/provider';
import { createClientRegistry } from './services/oauth/clients';
import { createOAuthService, type OAuthService } from './services/oauth/provider';
import { demoRoutes } from './routes/static/demo';
import { meRoutes } from './routes/users/me';
import { profileImageRoutes } from './routes/users/profile-image';
import { passwordRoutes } from './routes/users/passwords';
import { unlockRoutes } from './routes/users/unlock';
import { signUpRoutes } from './routes/users/signup';
import { phoneSignUpRoutes } from './routes/users/signup-phone';
import { webauthnDeviceRoutes } from './routes/users/webauthn-devices';
import { sessionListRoutes } from './routes/users/sessions';
import { createSessionService } from './services/sessions';
import { usernameRoutes } from './routes/users/usernames';
import { createUsernameService } from './services/usernames';
import { AMR_PASSWORD, createAuthService, type AuthService } from './services/auth';
import { createCaptchaService } from './services/captcha';
import { createKeyService, type KeyService } from './services/keys';
import { createMailer, type Mailer } from './services/mail';
import { createMfaService } from './services/mfa';
import { createPasswordlessService, type PasswordlessService } from './services/passwordless';
import { createSocialLoginService } from './services/social';
import { createPhoneSignUpService } from './services/phone-signup';
import { createSmsLoginService, type SmsLoginService } from './services/sms-login';
import { createPasswordPolicyService } from './services/password-policies';
import { createPublicService } from './services/public';
import { createRateLimiter } from './services/rate-limit';
import { createRecoveryService, type RecoveryService } from './services/recovery';
import { createSignUpService } from './services/signup';
import { createSmsSender } from './services/sms';
import { ensurePermissionCatalogue } from './services/tenants';
import { createUserService } from './services/users';
import { createWebauthnService } from './services/webauthn';
import { createMfaSmsService } from './services/mfa-sms';
import { createMfaWebauthnService } from './services/mfa-webauthn';
import { createPhoneChangeService, type PhoneChangeService } from './services/phone-change';
import { mfaFactorAuthRoutes } from './routes/auth/mfa-factors';
import { mfaFactorUserRoutes } from './routes/users/mfa-factors';
import { phoneRoutes } from './routes/users/phone';

/** Optional replacements for tests: a movable clock, a different mailer. */
export interface ServerOverrides {
  clock?: Clock;
  mail?: Mailer;
}

export interface GatehouseServer {
  app: OpenAPIHono<AppEnv>;
  fetch: (request: Request, env?: unknown) => Response | Promise<Response>;
  config: Config;
  db: Db;
  keys: KeyService;
  auth: AuthService;
  /** Password recovery; `idle()` waits for deliveries still running after their request answered. */
  recovery: RecoveryService;
  /** Magic links and sign-in codes; `idle()` waits for emails still being sent after their request answered. */
  passwordless: PasswordlessService;
  /** Reset phone number and phone change; `idle()` waits for reset emails still being sent after their request answered. */
  phoneChange: PhoneChangeService;
  /** SMS sign-in codes; `idle()` waits for SMS still being sent after their request answered. */
  smsLogin: SmsLoginService;
  /** Invitations; `idle()` waits for resent invitation emails still being sent after their request answered. */
  invitations: InvitationService;
  /** Hosted login (OAuth 2.0 / OIDC authorization server) and its client registry. */
  oauth: OAuthService;
  /** Makes a new signing key; older keys stay in the JWKS until their tokens expire. */
  rotateKeys(): Promise<string>;
  close(): Promise<void>;
}

/** Opens the database, migrates it, ensures keys and defaults, and builds the Hono app. */
export async function createServer(config: Config, overrides: ServerOverrides = {}): Promise<GatehouseServer> {
  const clock = overrides.clock ?? systemClock;
  const opened = await openDb(config);
  try {
    await migrate(opened.db, opened.dialect);
  } catch (err) {
    await opened.close();
    throw err;
  }
  const db = opened.db;
  const mail = overrides.mail ?? createMailer({ db, clock, config });
  const keys = createKeyService({ db, clock, config });
  const limiter = createRateLimiter({ db, clock, config });
  // The MFA gate runs inside login; it is created below because it starts sessions through auth.
  const policies = createPasswordPolicyService({ db, mail, clock, limiter, config });
  const auth = createAuthService({ db, keys, clock, limiter, config, policies, secondFactor: (user, client) => mfa.gateLogin(user, client, AMR_PASSWORD) });
  const mfa = createMfaService({ db, clock, auth, mail, limiter, config });
  const users = createUserService({ db, clock, config });
  const signUp = createSignUpService({ db, mail, clock, auth, limiter, config });
  const publicInfo = createPublicService({ db, clock, signUp, config });
  const captcha = createCaptchaService({ config, limiter });
  const sms = createSmsSender({ db, clock, limiter, config });
  const recovery = createRecoveryService({ db, mail, sms, clock, limiter, config });
  const webauthn = createWebauthnService({ db, clock, auth, limiter, config });
  const mfaSms = createMfaSmsService({ db, clock, sms, limiter, core: mfa.core });
  const mfaWebauthn = createMfaWebauthnService({ db, clock, limiter, core: mfa.core, config });
  const phoneChange = createPhoneChangeService({ db, clock, mail, sms, limiter });
  const passwordless = createPasswordlessService({ db, mail, clock, auth, limiter, config, secondFactor: (user, client) => mfa.gateLogin(user, client) });
  const ssoLogin = createSsoLoginService({ db, clock, auth, limiter, config, secondFactor: (user, client) => mfa.gateLogin(user, client) });
  const ssoConfigurations = createSsoConfigurationService({ db, clock, config, resolveTxt: createTxtResolver(config.sso.dnsServers) });
  const socialLogin = createSocialLoginService({ db, clock, auth, limiter, config, secondFactor: (user, client) => mfa.gateLogin(user, client) });
  const smsLogin = createSmsLoginService({ db, sms, clock, auth, limiter, config, secondFactor: (user, client) => mfa.gateLogin(user, client) });
  const phoneSignUp = createPhoneSignUpService({ db, clock, limiter, config });
  const invitations = createInvitationService({ db, mail, clock, auth, limiter, config, secondFactor: (user, client) => mfa.gateLogin(user, client, AMR_PASSWORD) });
  const impersonation = createImpersonationService({ db, clock, auth, limiter, config });
  const admin = {
    clock,
    users: createAdminUserService({ db, clock, invitations, signUp, config }),
    roles: createAdminRoleService({ db, clock }),
    groups: createAdminGroupService({ db, clock }),
    inviteLinks: createInviteLinkService({ db, clock, limiter, config }),
    audits: createAdminAuditService({ db, clock }),
  };
  const apiTokens = createApiTokenService({ db, clock, keys, config });
  const accountSettings = createAccountSettingsService({ db, clock, config });
  const oauth = createOAuthService({ db, clock, keys, auth, limiter, config, clients: createClientRegistry({ db, clock, config }), apiTokens });

  try {
    await ensurePermissionCatalogue(db);
    await ensurePermissionCategories(db, clock.now());
    await keys.ensureKeys();
    await publicInfo.ensureDefaults();
  } catch (err) {
    await opened.close();
    throw err;
  }

  const deps: RouteDeps = { config, db, keys, auth, users, signUp, publicInfo, captcha };
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.onError(onError);
  app.notFound(notFound);

  app.use('*', traceId());
  app.use('*', securityHeaders());
  // /cdn and the OAuth endpoints any page may call (token, userinfo, discovery) answer CORS themselves.
  app.use('*', async (c, next) => (c.req.path.startsWith('/cdn/') || isOAuthCorsPath(c.req.path) ? next() : corsForAllowedOrigins(config)(c, next)));
  app.use(
    '*',
    bodyLimit({
      maxSize: config.maxBodyBytes,
      onError: () => {
        throw new AppError(ErrorCodes.payloadTooLarge, 413, 'Error request is too large');
      },
    }),
  );

  app.route('/', publicRoutes(deps));
  app.route('/', captchaPolicyRoutes(deps));
  app.route('/', sessionRoutes(deps));
  app.route('/', mfaAuthRoutes(deps, mfa));
  app.route('/', mfaUserRoutes(deps, mfa));
  app.route('/', signUpRoutes(deps));
  app.route('/', phoneSignUpRoutes(deps, phoneSignUp));
  app.route('/', passwordRoutes(deps, recovery));
  app.route('/', unlockRoutes(deps, policies));
  app.route('/', meRoutes(deps));
  app.route('/', profileImageRoutes(deps));
  app.route('/', webauthnLoginRoutes(deps, webauthn));
  app.route('/', passwordlessRoutes(deps, passwordless, smsLogin));
  app.route('/', socialLoginRoutes(deps, socialLogin));
  app.route('/', invitationRoutes(deps, invitations, clock));
  app.route('/', impersonationRoutes(deps, impersonation));
  app.route('/', adminRoutes(deps, admin));
  app.route('/', apiTokenRoutes(deps, clock, apiTokens));
  app.route('/', subAccountRoutes(deps, clock, createSubAccountService({ db, clock })));
  app.route('/', accountSettingsRoutes(deps, clock, accountSettings));
  app.route('/', ssoLoginRoutes(deps, ssoLogin));
  app.route('/', ssoConfigurationRoutes(deps, ssoConfigurations));
  app.route('/', webauthnDeviceRoutes(deps, webauthn));
  app.route('/', sessionListRoutes(deps, createSessionService({ db, clock })));
  app.route('/', usernameRoutes(deps, createUsernameService({ db })));
  app.route('/', mfaFactorAuthRoutes(deps, mfaSms, mfaWebauthn));
  app.route('/', mfaFactorUserRoutes(deps, mfaSms, mfaWebauthn, mfa.core.active));
  app.route('/', phoneRoutes(deps, phoneChange));
  app.route('/', oauthRoutes(deps, oauth));
  app.route('/', cdnRoutes(config));
  if (config.dev) {
    // Dev conveniences; in production these paths do not exist (404).
    app.route('/', mailboxRoutes(db));
    app.route('/', demoRoutes(config));
  }

  app.openAPIRegistry.registerComponent('securitySchemes', 'Bearer', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  app.doc(ApiPaths.openapi, {
    openapi: '3.0.3',
    info: { title: 'Gatehouse identity API', version: '7.78.0', description: 'Generated from the zod schemas that validate requests.' },
    servers: [{ url: config.publicUrl }],
  });

  let closed = false;
  return {
    app,
    fetch: (request, env) => app.fetch(request, env),
    config,
    db,
    keys,
    auth,
    recovery,
    passwordless,
    phoneChange,
    smsLogin,
    invitations,
    oauth,
    rotateKeys: () => keys.rotateKeys(),
    async close() {
      if (closed) return;
      closed = true;
      await recovery.idle();
      await passwordless.idle();
      await phoneChange.idle();
      await smsLogin.idle();
      await invitations.idle();
      await mail.close();
      await opened.close();
    },
  };
}
