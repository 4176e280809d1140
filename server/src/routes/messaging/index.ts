/** The messaging area: email and SMS delivery, and the dev outbox that shows both at /dev/mailbox. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db';
import type { AppEnv } from '../../http/env';
import { createMailer, type Mailer } from '../../services/messaging/mail';
import { createEmailService, type EmailService } from '../../services/messaging/emails/email-service';
import { createSmsSender, type SmsSender } from '../../services/messaging/sms';
import type { RateLimiter } from '../../services/platform/rate-limit';
import type { AreaContext } from '../deps';
import { mailboxRoutes } from './mailbox';

export interface Messaging {
  mail: Mailer;
  /** Renders every email: language, tenant look, HTML and text (services/messaging/emails). */
  emails: EmailService;
  sms: SmsSender;
}

/** Builds the senders, before any area; `mail` replaces the mailer (tests). */
export function createMessaging(deps: { db: Db; clock: Clock; config: Config; limiter: RateLimiter; mail?: Mailer }): Messaging {
  const { db, clock, config, limiter } = deps;
  const mail = deps.mail ?? createMailer({ db, clock, config });
  const sms = createSmsSender({ db, clock, limiter, config });
  return { mail, emails: createEmailService({ db, config }), sms };
}

/** Registers the dev mailbox; in production its path does not exist (404). */
export function messagingArea(app: OpenAPIHono<AppEnv>, ctx: AreaContext): void {
  if (ctx.config.dev) app.route('/', mailboxRoutes(ctx.db));
}
