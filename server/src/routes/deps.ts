import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db';
import type { UserRow } from '../db/queries/users';
import type { AuthService, ClientInfo, IssuedSession } from '../services/auth/auth';
import type { Mailer } from '../services/messaging/mail';
import type { EmailService } from '../services/messaging/emails/email-service';
import type { SmsSender } from '../services/messaging/sms';
import type { CaptchaService } from '../services/platform/captcha';
import type { KeyService } from '../services/platform/keys';
import type { RateLimiter } from '../services/platform/rate-limit';
import type { TenantSecurity } from '../services/security';
import type { CdnService } from '../services/cdn';
import type { EntitlementsService } from '../services/entitlements';

/** What every area is built from: the config, the database, the clock, and the platform and messaging services. */
export interface AreaContext {
  config: Config;
  db: Db;
  clock: Clock;
  keys: KeyService;
  limiter: RateLimiter;
  /** The captcha policy: the public policy and the check of a call's recaptchaToken. */
  captcha: CaptchaService;
  /** CDN rollouts (issue 18): versions, the rollout of each bundle, the live manifest. */
  cdn: CdnService;
  mail: Mailer;
  /** Renders every email in the recipient's language and tenant look. */
  emails: EmailService;
  sms: SmsSender;
  /** Tenant security policies and restrictions, which every entry point enforces. */
  security: TenantSecurity;
  /** Entitlements and feature flags: the token's compact entitlements, `/flags` per caller, seat limits. */
  entitlements: EntitlementsService;
}

/**
 * What route modules get, and every area built after auth: the context and the auth service. An
 * area's own services reach its route modules as arguments; the database is never used for rules.
 */
export interface RouteDeps extends AreaContext {
  auth: AuthService;
}

/** The MFA gate a sign-in asks once its first factor is proven: a pending-MFA answer (no session) replaces the sign-in, null lets it through. */
export type SecondFactor = (user: UserRow, client: ClientInfo) => Promise<IssuedSession | null>;
