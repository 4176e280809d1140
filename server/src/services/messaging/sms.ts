import { PhoneErrorCodes } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { newId } from '../../crypto';
import type { Db } from '../../db';
import { insertOutbox } from '../../db/queries/outbox';
import { AppError } from '../../errors';
import type { RateLimiter } from '../platform/rate-limit';
import { log } from '../../log';

/** One text message: `to` is a phone number as the user gave it (digits, spaces, dashes, leading +). */
export interface SmsMessage {
  to: string;
  body: string;
}

/** Where SMS go: an HTTP provider, or the database outbox shown at /dev/mailbox. */
export interface SmsSender {
  readonly kind: 'http' | 'outbox';
  send(message: SmsMessage): Promise<void>;
}

/** How long one provider call may take before it counts as failed. */
const HTTP_TIMEOUT_MS = 10_000;

/** How often one process says in the log that the SMS budget is spent (not once per refused SMS). */
const BUDGET_LOG_INTERVAL_MS = 60_000;

/** Thrown when the provider refuses or cannot be reached; the message never holds the token or the text. */
export class SmsDeliveryError extends Error {
  override name = 'SmsDeliveryError';
}

/**
 * SMS_HTTP_URL set: every SMS is `POST <url>` with JSON `{ to, body }` and, when SMS_HTTP_TOKEN is
 * set, `Authorization: Bearer <token>`; any 2xx answer counts as accepted. Otherwise SMS are kept in
 * the outbox table with channel 'sms' (shown at /dev/mailbox in dev mode).
 */
function createDelivery(deps: { db: Db; clock: Clock; config: Pick<Config, 'smsHttpUrl' | 'smsHttpToken'>; fetch?: typeof globalThis.fetch }): SmsSender {
  const { db, clock, config } = deps;
  const doFetch = deps.fetch ?? globalThis.fetch;
  const url = config.smsHttpUrl;
  if (url) {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (config.smsHttpToken) headers.authorization = `Bearer ${config.smsHttpToken}`;
    const target = new URL(url);
    const where = `${target.origin}${target.pathname}`; // no query string or credentials in messages
    return {
      kind: 'http',
      async send(m) {
        let res: Response;
        try {
          res = await doFetch(url, { method: 'POST', headers, body: JSON.stringify({ to: m.to, body: m.body }), signal: AbortSignal.timeout(HTTP_TIMEOUT_MS), redirect: 'error' });
        } catch (err) {
          throw new SmsDeliveryError(`SMS provider ${where} could not be reached (${err instanceof Error ? err.name : 'error'})`);
        }
        // The body is drained but never echoed: providers may repeat the message text.
        await res.arrayBuffer().catch(() => undefined);
        if (!res.ok) throw new SmsDeliveryError(`SMS provider ${where} answered ${res.status}`);
      },
    };
  }
  return {
    kind: 'outbox',
    async send(m) {
      await insertOutbox(db, { id: newId(), to_address: m.to, subject: 'SMS', text_body: m.body, html_body: null, created_at: clock.now(), channel: 'sms' });
    },
  };
}

/**
 * Every SMS of every flow first takes one unit of the deployment's SMS budget (RATE_LIMIT_SMS_GLOBAL,
 * counted in the database, so all processes share it): per-IP and per-number limits cannot stop SMS
 * pumping spread over many numbers and addresses, a total can. Over it nothing is sent and the caller
 * gets 503 (fails closed); the operator sees one log line a minute, with no number and no text.
 */
export function createSmsSender(deps: {
  db: Db;
  clock: Clock;
  limiter: RateLimiter;
  config: Pick<Config, 'smsHttpUrl' | 'smsHttpToken' | 'rateLimits'>;
  fetch?: typeof globalThis.fetch;
}): SmsSender {
  const { clock, limiter, config } = deps;
  const delivery = createDelivery(deps);
  let lastLogged = Number.NEGATIVE_INFINITY;
  return {
    kind: delivery.kind,
    async send(m) {
      if (!(await limiter.tryConsume('smsGlobal', 'all'))) {
        const now = clock.now();
        if (now - lastLogged >= BUDGET_LOG_INTERVAL_MS) {
          lastLogged = now;
          const { limit, windowSeconds } = config.rateLimits.smsGlobal;
          log.error(`SMS budget exhausted: ${limit} text messages per ${windowSeconds} s (RATE_LIMIT_SMS_GLOBAL) are spent, so no SMS is sent until the window ends; an unexpected rise may be SMS pumping.`);
        }
        throw new AppError(PhoneErrorCodes.smsBudgetExhausted, 503, 'Text messages cannot be sent right now. Please try again later.');
      }
      await delivery.send(m);
    },
  };
}
