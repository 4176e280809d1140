/**
 * The platform area: the primitives every area is built on (signing keys, rate limits, the captcha
 * policy), and the routes of no one area: the loader's public boot calls, the captcha policy, the
 * CDN, and the demo pages in dev mode.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db';
import type { AppEnv } from '../../http/env';
import { cacheRoleGrants } from '../../services/admin/role-grants';
import { shareMemberships } from '../../services/users/memberships';
import { createCdnService, type CdnService } from '../../services/cdn';
import { createCaptchaService, type CaptchaService } from '../../services/platform/captcha';
import { createKeyService, type KeyService } from '../../services/platform/keys';
import { createPublicService, type PublicService } from '../../services/platform/public';
import { createRateLimiter, type RateLimiter } from '../../services/platform/rate-limit';
import type { SignUpService } from '../../services/users/signup';
import type { RouteDeps } from '../deps';
import { captchaPolicyRoutes } from './captcha-policy';
import { cdnRoutes } from './cdn';
import { demoRoutes, liveLoader } from './demo';
import { publicRoutes } from './public-config';

export interface Platform {
  keys: KeyService;
  limiter: RateLimiter;
  captcha: CaptchaService;
  /** CDN rollouts (issue 18): the live manifest the CDN routes serve, changed by the Operator area and the CLI. */
  cdn: CdnService;
}

/** Builds the platform services, before any area: every area gets them in its context. */
export function createPlatform(deps: { db: Db; clock: Clock; config: Config }): Platform {
  const { db, clock, config } = deps;
  const keys = createKeyService({ db, clock, config });
  const limiter = createRateLimiter({ db, clock, config });
  const captcha = createCaptchaService({ config, limiter });
  const cdn = createCdnService({ db, clock, cdnDir: config.cdnDir });
  // Role grants are read by every token and authenticated call: kept per process, at most 1 s (role-grants.ts).
  cacheRoleGrants(db, clock);
  // A sign-in's services share the user's memberships (users/memberships.ts).
  shareMemberships(db, clock);
  return { keys, limiter, captcha, cdn };
}

export interface PlatformArea {
  publicInfo: PublicService;
  /** Makes the signing keys and stores the default admin box metadata when they are missing. */
  ensureDefaults(): Promise<void>;
}

/** Registers the platform routes; the vendor's public config lists the sign-up strategies of `signUp`. */
export function platformArea(app: OpenAPIHono<AppEnv>, deps: RouteDeps, areas: { signUp: SignUpService }): PlatformArea {
  const { db, clock, config, keys } = deps;
  const publicInfo = createPublicService({ db, clock, signUp: areas.signUp, entitlements: deps.entitlements, config });
  app.route('/', publicRoutes(deps, publicInfo));
  app.route('/', captchaPolicyRoutes(deps));
  app.route('/', cdnRoutes(config, deps.cdn));
  // A dev convenience; in production this path does not exist (404).
  if (config.dev) app.route('/', demoRoutes(config, () => liveLoader(deps.cdn)));
  return {
    publicInfo,
    async ensureDefaults() {
      await keys.ensureKeys();
      await publicInfo.ensureDefaults();
    },
  };
}
