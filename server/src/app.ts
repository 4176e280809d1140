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
import type { RouteDeps } from './routes/deps';
import { mailboxRoutes } from './routes/dev/mailbox';
import { publicRoutes } from './routes/public/config';
import { cdnRoutes } from './routes/static/cdn';
import { demoRoutes } from './routes/static/demo';
import { meRoutes } from './routes/users/me';
import { profileImageRoutes } from './routes/users/profile-image';
import { passwordRoutes } from './routes/users/passwords';
import { unlockRoutes } from './routes/users/unlock';
import { signUpRoutes } from './routes/users/signup';
import { webauthnDeviceRoutes } from './routes/users/webauthn-devices';
import { createAuthService, type AuthService } from './services/auth';
import { createKeyService, type KeyService } from './services/keys';
import { createMailer, type Mailer } from './services/mail';
import { createMfaService } from './services/mfa';
import { createPasswordlessService, type PasswordlessService } from './services/passwordless';
import { createPasswordPolicyService } from './services/password-policies';
import { createPublicService } from './services/public';
import { createRateLimiter } from './services/rate-limit';
import { createRecoveryService, type RecoveryService } from './services/recovery';
import { createSignUpService } from './services/signup';
import { createSmsSender } from './services/sms';
import { ensurePermissionCatalogue } from './services/tenants';
import { createUserService } from './services/users';
import { createWebauthnService } from './services/webauthn';

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
  const auth = createAuthService({ db, keys, clock, limiter, config, policies, secondFactor: (user, client) => mfa.gateLogin(user, client) });
  const mfa = createMfaService({ db, clock, auth, mail, limiter, config });
  const users = createUserService({ db, clock, config });
  const signUp = createSignUpService({ db, mail, clock, auth, limiter, config });
  const publicInfo = createPublicService({ db, clock, signUp, config });
  const sms = createSmsSender({ db, clock, config });
  const recovery = createRecoveryService({ db, mail, sms, clock, limiter, config });
  const webauthn = createWebauthnService({ db, clock, auth, limiter, config });
  const passwordless = createPasswordlessService({ db, mail, clock, auth, limiter, config, secondFactor: (user, client) => mfa.gateLogin(user, client) });

  try {
    await ensurePermissionCatalogue(db);
    await keys.ensureKeys();
    await publicInfo.ensureDefaults();
  } catch (err) {
    await opened.close();
    throw err;
  }

  const deps: RouteDeps = { config, db, keys, auth, users, signUp, publicInfo };
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.onError(onError);
  app.notFound(notFound);

  app.use('*', traceId());
  app.use('*', securityHeaders());
  app.use('*', async (c, next) => (c.req.path.startsWith('/cdn/') ? next() : corsForAllowedOrigins(config)(c, next)));
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
  app.route('/', sessionRoutes(deps));
  app.route('/', mfaAuthRoutes(deps, mfa));
  app.route('/', mfaUserRoutes(deps, mfa));
  app.route('/', signUpRoutes(deps));
  app.route('/', passwordRoutes(deps, recovery));
  app.route('/', unlockRoutes(deps, policies));
  app.route('/', meRoutes(deps));
  app.route('/', profileImageRoutes(deps));
  app.route('/', webauthnLoginRoutes(deps, webauthn));
  app.route('/', passwordlessRoutes(deps, passwordless));
  app.route('/', webauthnDeviceRoutes(deps, webauthn));
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
    rotateKeys: () => keys.rotateKeys(),
    async close() {
      if (closed) return;
      closed = true;
      await recovery.idle();
      await passwordless.idle();
      await mail.close();
      await opened.close();
    },
  };
}
