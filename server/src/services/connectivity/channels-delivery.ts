/**
 * Sending events to the email, SMS and Slack channels (issue 16): the consumer turns a raised event
 * into one job per recipient (email, SMS) or per Slack channel of every enabled subscription whose
 * event key is on; the handlers send them through the mailer, the SMS sender and Slack's
 * chat.postMessage.
 *
 * One message per recipient per event: a number, address or Slack channel listed by several
 * subscriptions of the key gets one job (the first subscription's), so repeated subscriptions do not
 * multiply what one event sends.
 *
 * A job re-reads its subscription before sending, so a recipient removed (or a subscription switched
 * off, or Slack disconnected) after the event stops the message. Failures retry on each kind's
 * schedule, then are given up. An email over the account's notification-email budget
 * (RATE_LIMIT_CHANNEL_EMAILS_PER_TENANT: admins type recipients that nobody confirms, so one account
 * must not be able to mail without bound) is retried over more than the budget's window, so it is
 * sent late rather than lost.
 *
 * SMS cost money and share the deployment's SMS budget (RATE_LIMIT_SMS_GLOBAL) with sign-in and
 * recovery codes, which must never starve because an admin subscribed numbers to a frequent event.
 * So a notification SMS passes three limits of its own besides the global one: at most one per
 * account, number and event key per window (RATE_LIMIT_CHANNEL_SMS_PER_RECIPIENT, checked at fan-out:
 * later ones are not queued), the account's budget (RATE_LIMIT_CHANNEL_SMS_PER_TENANT) and the
 * notifications' share of the global budget (RATE_LIMIT_CHANNEL_SMS_GLOBAL). An SMS refused by any
 * budget is given up at once, not retried: a retry would spend the next window too, and losing a
 * notification SMS beats starving the codes.
 */
import { EVENT_CATALOGUE, PhoneErrorCodes } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import { sha256 } from '../../crypto';
import type { Db } from '../../db';
import { findChannelEventConfig, findChannelSubscriptionById, listDeliverableChannelSubscriptions } from '../../db/queries/channel-subscriptions';
import { hitRateLimit } from '../../db/queries/rate-limits';
import { findSlackSubscription, listDeliverableSlackSubscriptions } from '../../db/queries/slack';
import { findTenant } from '../../db/queries/tenants';
import { isAppError } from '../../errors';
import { log } from '../../log';
import type { Mailer } from '../messaging/mail';
import { loadEmailBrand } from '../messaging/emails/email-service';
import { renderEmail } from '../messaging/emails/layout';
import type { SmsSender } from '../messaging/sms';
import type { RateLimiter } from '../platform/rate-limit';
import { recipientsOf } from './channels';
import { enqueueJob, type ClaimedJob, type JobHandler, type JobResult } from './jobs';
import type { RaisedEvent } from './events';
import { channelIdsOf, type SlackService } from './slack';
import { SlackApiError, type SlackApi } from './slack-api';
import type { EventConsumer } from './worker';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Slack and SMS: first try at once, then after 1 min, 10 min and 1 h (an SMS refused by a budget is not retried). */
export const CHANNEL_RETRY_DELAYS_MS: readonly number[] = [MINUTE, 10 * MINUTE, HOUR];
/**
 * Email: longer, so a message held back by the account's notification-email budget (a 1 h window by
 * default) is sent in a later window rather than lost.
 */
export const BUDGETED_RETRY_DELAYS_MS: readonly number[] = [MINUTE, 10 * MINUTE, HOUR, 2 * HOUR, 6 * HOUR];

/** What a channel job carries: the recipient (address, number or Slack channel) and the event. */
export interface ChannelJobPayload {
  to: string;
  event: Pick<RaisedEvent, 'id' | 'key' | 'data' | 'actor' | 'occurredAt'>;
}

/** The one-line description of an event key, from the catalogue. */
function describe(key: string): string {
  return EVENT_CATALOGUE.find((e) => e.key === key)?.description ?? key;
}

/** Up to 8 short scalar fields of the event's data, for people (ids, emails, names, reasons). */
export function eventDetails(data: Record<string, unknown>): [string, string][] {
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(data)) {
    if (out.length >= 8) break;
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out.push([k, String(v).slice(0, 200)]);
    else if (Array.isArray(v) && v.every((x) => typeof x === 'string')) out.push([k, v.length ? v.slice(0, 10).join(', ').slice(0, 200) : '(none)']);
  }
  return out;
}

function actorText(event: ChannelJobPayload['event']): string {
  return event.actor?.email ?? (event.actor?.userId ? `user ${event.actor.userId}` : 'Gatehouse (no user)');
}

export interface ChannelDelivery {
  consumer: EventConsumer;
  handlers: JobHandler[];
}

export function createChannelDelivery(deps: {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'publicUrl' | 'appName' | 'appUrl' | 'rateLimits'>;
  mail: Mailer;
  sms: SmsSender;
  limiter: Pick<RateLimiter, 'tryConsume'>;
  slack: Pick<SlackService, 'botToken'>;
  slackApi: Pick<SlackApi, 'postMessage'>;
}): ChannelDelivery {
  const { db, config } = deps;

  /**
   * At most one notification SMS per account, number and event key per window
   * (RATE_LIMIT_CHANNEL_SMS_PER_RECIPIENT). Counted through the dispatch transaction (the limiter's
   * own connection would wait on it under SQLite), with the limiter's key shape so its sweep clears it.
   */
  async function smsThrottlePasses(trx: Db, tenantId: string, eventKey: string, to: string, now: number): Promise<boolean> {
    const rule = config.rateLimits.channelSmsPerRecipient;
    const { count } = await hitRateLimit(trx, `channelSmsPerRecipient:${sha256(`${tenantId}|${eventKey}|${to}`)}`, now, rule.windowSeconds * 1000);
    if (count <= rule.limit) return true;
    log.warn(`Notification SMS of ${eventKey} in account ${tenantId} dropped: the number had one within ${rule.windowSeconds} s (RATE_LIMIT_CHANNEL_SMS_PER_RECIPIENT)`);
    return false;
  }

  const consumer: EventConsumer = {
    name: 'channels',
    async fanOut(trx, event, now) {
      const payloadEvent = { id: event.id, key: event.key, data: event.data, actor: event.actor, occurredAt: event.occurredAt };
      // One job per recipient per channel, whatever number of subscriptions list it.
      const queued = new Set<string>();
      for (const sub of await listDeliverableChannelSubscriptions(trx, event.tenantId, event.key)) {
        const kind = sub.channel === 'sms' ? 'sms' : 'email';
        for (const to of recipientsOf(sub)) {
          if (queued.has(`${kind}:${to}`)) continue;
          queued.add(`${kind}:${to}`);
          if (kind === 'sms' && !(await smsThrottlePasses(trx, event.tenantId, event.key, to, now))) continue;
          const payload: ChannelJobPayload = { to, event: payloadEvent };
          await enqueueJob(trx, { kind, tenantId: event.tenantId, targetId: sub.id, eventId: event.id, payload, dueAt: now });
        }
      }
      for (const sub of await listDeliverableSlackSubscriptions(trx, event.tenantId, event.key)) {
        for (const channel of channelIdsOf(sub)) {
          if (queued.has(`slack:${channel}`)) continue;
          queued.add(`slack:${channel}`);
          const payload: ChannelJobPayload = { to: channel, event: payloadEvent };
          await enqueueJob(trx, { kind: 'slack', tenantId: event.tenantId, targetId: sub.id, eventId: event.id, payload, dueAt: now });
        }
      }
    },
  };

  /** The job's payload, or null when it is not one this module wrote. */
  function payloadOf(job: ClaimedJob): ChannelJobPayload | null {
    const p = job.payload as Partial<ChannelJobPayload> | null;
    return p && typeof p.to === 'string' && p.event && typeof p.event.key === 'string' ? (p as ChannelJobPayload) : null;
  }

  /** Whether the email/SMS subscription still wants this message: it exists, is on, its key is on and still lists the recipient. */
  async function stillWanted(job: ClaimedJob, channel: 'email' | 'sms', payload: ChannelJobPayload): Promise<boolean> {
    const sub = await findChannelSubscriptionById(db, job.tenantId, job.targetId);
    if (!sub || sub.channel !== channel || sub.enabled !== 1 || !recipientsOf(sub).includes(payload.to)) return false;
    const config = await findChannelEventConfig(db, job.tenantId, channel, sub.event_key);
    return !config || config.enabled === 1;
  }

  /** A notification SMS refused by a budget: given up now, with a log line naming the limit (never the number). */
  function smsDropped(job: ClaimedJob, error: string): JobResult {
    log.warn(`Notification SMS (job ${job.id}, account ${job.tenantId}): ${error}`);
    return { ok: false, error, retry: false };
  }

  const failed = (err: unknown, retry = true): JobResult => ({ ok: false, error: err instanceof Error ? err.message.slice(0, 500) : 'error', retry });

  const email: JobHandler = {
    kind: 'email',
    retryDelaysMs: BUDGETED_RETRY_DELAYS_MS,
    async run(job) {
      const payload = payloadOf(job);
      if (!payload) return { ok: false, error: 'The job carries no recipient and event', retry: false };
      if (!(await stillWanted(job, 'email', payload))) return { ok: true };
      if (!(await deps.limiter.tryConsume('channelEmailsPerTenant', job.tenantId))) {
        return { ok: false, error: `The account's notification emails for this window are spent (RATE_LIMIT_CHANNEL_EMAILS_PER_TENANT); sent in a later one` };
      }
      const brand = await loadEmailBrand(db, config, job.tenantId);
      const { event } = payload;
      const when = new Date(event.occurredAt).toISOString();
      const description = describe(event.key);
      const rendered = renderEmail(
        {
          subject: `${brand.name}: ${description}`.slice(0, 200),
          greeting: 'Hello,',
          heading: `${description} (${event.key})`,
          paragraphs: [`Account: ${brand.name}`, `When: ${when}`, `By: ${actorText(event)}`, ...eventDetails(event.data).map(([k, v]) => `${k}: ${v}`)],
          action: { label: 'Open the admin portal', url: config.appUrl, copyHint: 'Or open this address:' },
          notes: [`You get this email because an administrator of ${brand.name} subscribed this address to ${event.key} events.`],
          footer: `Event ${event.id}`,
        },
        brand,
        'en',
        'ltr',
      );
      try {
        await deps.mail.send({ to: payload.to, fromName: brand.name, ...rendered });
        return { ok: true };
      } catch (err) {
        return failed(err);
      }
    },
  };

  const sms: JobHandler = {
    kind: 'sms',
    retryDelaysMs: CHANNEL_RETRY_DELAYS_MS,
    async run(job) {
      const payload = payloadOf(job);
      if (!payload) return { ok: false, error: 'The job carries no recipient and event', retry: false };
      if (!(await stillWanted(job, 'sms', payload))) return { ok: true };
      // Narrowest first; a refusal gives the SMS up (a retry would spend the next window as well).
      if (!(await deps.limiter.tryConsume('channelSmsPerTenant', job.tenantId))) {
        return smsDropped(job, `The account's notification SMS for this window are spent (RATE_LIMIT_CHANNEL_SMS_PER_TENANT); this one is dropped`);
      }
      if (!(await deps.limiter.tryConsume('channelSmsGlobal', 'all'))) {
        return smsDropped(job, `Notification SMS have used their share of the SMS budget for this window (RATE_LIMIT_CHANNEL_SMS_GLOBAL); this one is dropped`);
      }
      const tenant = await findTenant(db, job.tenantId);
      const { event } = payload;
      const subject = typeof event.data.email === 'string' ? ` ${event.data.email}` : '';
      const body = `${tenant?.name ?? config.appName}: ${event.key}${subject} at ${new Date(event.occurredAt).toISOString().slice(0, 16).replace('T', ' ')} UTC`.slice(0, 300);
      try {
        await deps.sms.send({ to: payload.to, body });
        return { ok: true };
      } catch (err) {
        // The deployment's SMS budget spent: dropped like the others. A provider failure is retried.
        if (isAppError(err) && err.code === PhoneErrorCodes.smsBudgetExhausted) return smsDropped(job, `${err.code}: the SMS budget is spent (RATE_LIMIT_SMS_GLOBAL); this one is dropped`);
        return failed(isAppError(err) ? new Error(`${err.code}: ${err.message}`) : err);
      }
    },
  };

  const slack: JobHandler = {
    kind: 'slack',
    retryDelaysMs: CHANNEL_RETRY_DELAYS_MS,
    async run(job) {
      const payload = payloadOf(job);
      if (!payload) return { ok: false, error: 'The job carries no channel and event', retry: false };
      const sub = await findSlackSubscription(db, job.tenantId, job.targetId);
      if (!sub || sub.enabled !== 1 || !channelIdsOf(sub).includes(payload.to)) return { ok: true };
      const token = await deps.slack.botToken(db, job.tenantId);
      if (!token) return { ok: true };
      const tenant = await findTenant(db, job.tenantId);
      const { event } = payload;
      const description = describe(event.key);
      const fields = [['Account', tenant?.name ?? config.appName], ['When', new Date(event.occurredAt).toISOString()], ['By', actorText(event)], ...eventDetails(event.data)];
      const text = `${description} (${event.key})`;
      try {
        await deps.slackApi.postMessage(token, {
          channel: payload.to,
          text,
          blocks: [
            { type: 'section', text: { type: 'mrkdwn', text: `*${escapeMrkdwn(text)}*` } },
            { type: 'section', fields: fields.slice(0, 10).map(([k, v]) => ({ type: 'mrkdwn', text: `*${escapeMrkdwn(k ?? '')}*\n${escapeMrkdwn(v ?? '')}` })) },
            { type: 'context', elements: [{ type: 'mrkdwn', text: `Event ${event.id}` }] },
          ],
        });
        return { ok: true };
      } catch (err) {
        return failed(err, err instanceof SlackApiError ? err.retryable : true);
      }
    },
  };

  return { consumer, handlers: [email, sms, slack] };
}

/** Slack's mrkdwn escapes: &, < and > (so no value can ping @channel or make a link). */
function escapeMrkdwn(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
