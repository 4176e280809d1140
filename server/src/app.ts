import { OpenAPIHono } from '@hono/zod-openapi';
import type pg from 'pg';
import { ApiPaths, ErrorCodes } from '@gatehouse/shared/wire';
import { systemClock, type Clock } from './clock';
import type { Config } from './config';
import { migrate, openDb, type Db } from './db';
import { AppError } from './errors';
import type { AppEnv } from './http/env';
import { notFound, onError, validationHook } from './http/errors';
import { answerEdge, requestEdge } from './http/edge';
import { serveOpenApiDocument } from './http/openapi-document';
import { KeptMatchRouter } from './http/router';
import { accountArea } from './routes/account';
import { applicationsArea } from './routes/applications';
import { adminArea } from './routes/admin';
import { authArea } from './routes/auth';
import type { AreaContext, RouteDeps } from './routes/deps';
import { createMessaging, messagingArea } from './routes/messaging';
import { mfaArea } from './routes/mfa';
import { isOAuthCorsPath, oauthArea } from './routes/oauth';
import { passwordlessArea } from './routes/passwordless';
import { createPlatform, platformArea } from './routes/platform';
import { recoveryArea } from './routes/recovery';
import { socialArea } from './routes/social';
import { ssoArea } from './routes/sso';
import { securityArea } from './routes/security';
import { billingArea } from './routes/billing';
import { entitlementsArea } from './routes/entitlements';
import { operatorArea } from './routes/operator';
import { usersArea } from './routes/users';
import { scimArea } from './routes/scim';
import { connectivityArea, type ConnectivityArea } from './routes/connectivity';
import { createTenantSecurity } from './services/security';
import { createEntitlements } from './services/entitlements';
import { AMR_PASSWORD, type AuthService } from './services/auth/auth';
import type { Mailer } from './services/messaging/mail';
import type { OAuthService } from './services/oauth/provider';
import type { PasswordlessService } from './services/passwordless/passwordless';
import type { SmsLoginService } from './services/passwordless/sms-login';
import type { KeyService } from './services/platform/keys';
import type { PhoneChangeService } from './services/recovery/phone-change';
import type { RecoveryService } from './services/recovery/recovery';
import type { InvitationService } from './services/users/invitations';

/** Optional replacements for tests: a movable clock, a different mailer, a PostgreSQL pool that outlives the server. */
export interface ServerOverrides {
  clock?: Clock;
  mail?: Mailer;
  /** Made by createPostgresPool (db/index.ts) for the same DATABASE_URL and DATABASE_SCHEMA; close() leaves it open. */
  postgresPool?: pg.Pool;
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
  /** Events, webhooks, channels, notifications and reports; `worker` delivers (main.ts starts it, tests call `runDue()`). */
  connectivity: ConnectivityArea;
  /** Makes a new signing key; older keys stay in the JWKS until their tokens expire. */
  rotateKeys(): Promise<string>;
  close(): Promise<void>;
}

/** Opens the database, migrates it, builds every area (services and routes), and ensures keys and defaults. */
export async function createServer(config: Config, overrides: ServerOverrides = {}): Promise<GatehouseServer> {
  const clock = overrides.clock ?? systemClock;
  const opened = await openDb(config, { postgresPool: overrides.postgresPool });
  try {
    await migrate(opened.db, opened.dialect);
  } catch (err) {
    await opened.close();
    throw err;
  }
  const db = opened.db;
  const platform = createPlatform({ db, clock, config });
  const messaging = createMessaging({ db, clock, config, limiter: platform.limiter, mail: overrides.mail });
  const security = createTenantSecurity({ db, clock, config });
  const entitlements = createEntitlements({ db, clock, config });
  const ctx: AreaContext = { config, db, clock, ...platform, ...messaging, security, entitlements };
  const app = httpApp(config);

  // The areas, each after the areas it gets services from. Auth asks MFA's gate once a password is
  // proven, and MFA is built on auth: the closure is first called at a sign-in, when both exist.
  const { auth } = authArea(app, ctx, { secondFactor: (user, client) => mfa.gateLogin(user, client, AMR_PASSWORD) });
  const deps: RouteDeps = { ...ctx, auth };
  const { mfa } = mfaArea(app, deps);
  const { signUp, invitations } = usersArea(app, deps, { mfa });
  const { recovery, phoneChange } = recoveryArea(app, deps, { mfa });
  const { passwordless, smsLogin } = passwordlessArea(app, deps, { mfa });
  socialArea(app, deps, { mfa });
  ssoArea(app, deps, { mfa });
  const admin = adminArea(app, deps, { invitations, signUp });
  accountArea(app, deps);
  const { securityCenter } = securityArea(app, deps, { recovery });
  entitlementsArea(app, deps);
  billingArea(app, deps);
  operatorArea(app, deps);
  scimArea(app, deps);
  const applications = applicationsArea(app, deps);
  const { oauth } = oauthArea(app, deps, { apiTokens: admin.apiTokens, applicationAccess: applications.access });
  const platformRoutes = platformArea(app, deps, { signUp });
  messagingArea(app, ctx);
  const connectivity = connectivityArea(app, deps, { securityCenter });

  try {
    await admin.ensureDefaults();
    await platformRoutes.ensureDefaults();
  } catch (err) {
    await opened.close();
    throw err;
  }

  app.openAPIRegistry.registerComponent('securitySchemes', 'Bearer', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  serveOpenApiDocument(app, ApiPaths.openapi, {
    openapi: '3.0.3',
    info: { title: 'Gatehouse identity API', version: '7.78.0', description: 'Generated from the zod schemas that validate requests.' },
    servers: [{ url: config.publicUrl }],
  });

  const { keys, mail } = ctx;
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
    connectivity,
    rotateKeys: () => keys.rotateKeys(),
    async close() {
      if (closed) return;
      closed = true;
      await connectivity.worker.stop();
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

/** The Hono app with the error handlers and the middleware every route runs behind. */
function httpApp(config: Config): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook, router: new KeptMatchRouter() });
  app.onError(onError);
  app.notFound(notFound);

  // /cdn and the OAuth endpoints any page may call (token, userinfo, discovery) answer CORS themselves.
  app.use('*', answerEdge(config, (path) => path.startsWith('/cdn/') || isOAuthCorsPath(path)));
  app.use('*', requestEdge(config));
  return app;
}
