/**
 * Wire schemas of the notification channels email, SMS and Slack (issue 16; seed 001 section 3
 * "Connectivity: Slack subscription: id, slackEvents with channelIds. Email/SMS subscription:
 * eventKey, subscriptions (id, enabled, recipients). Configurations: eventKey, enabled,
 * subscriptions", section 5 "Slack subscription deleted when its channel list becomes empty;
 * email/SMS subscription deleted when all recipients are empty and created only when recipients
 * exist", section 7 "get/post config for slack, email, sms; patch and put/delete subscriptions;
 * slack channels, scope, code").
 *
 * Event keys are checked against the event catalogue by the server (an unknown key is a 400 that
 * names it); recipients are normalised there too (emails lower-cased, phones to E.164).
 */
import { z } from 'zod';
import { MAX_RECIPIENTS_PER_SUBSCRIPTION, MAX_SLACK_CHANNELS_PER_EVENT, MAX_SLACK_SUBSCRIPTIONS_PER_TENANT, MAX_SUBSCRIPTIONS_PER_EVENT } from './channel-paths';

export * from './channel-paths';

/** An event key of the catalogue (dot.case, e.g. `user.sign_in_failed`). */
export const ChannelEventKey = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/, 'eventKey must be an event key of the catalogue, e.g. user.sign_in_failed');
const SubscriptionId = z.string().trim().min(1).max(64);

export const EmailRecipient = z.string().trim().toLowerCase().email('Each recipient must be an email address').max(320);
/** As the SMS sign-in accepts it: international format, separators allowed (stored as E.164). */
export const PhoneRecipient = z
  .string()
  .trim()
  .max(32)
  .regex(/^(\+|00)[1-9][0-9 ().-]{6,28}$/, 'Each recipient must be a phone number in international format, starting with + and the country code');

const recipientsOf = <T extends z.ZodType<string>>(recipient: T) =>
  z.array(recipient).max(MAX_RECIPIENTS_PER_SUBSCRIPTION, `A subscription takes at most ${MAX_RECIPIENTS_PER_SUBSCRIPTION} recipients`);

/** One email or SMS subscription as the server answers it. */
export const ChannelSubscription = z.object({ id: z.string(), enabled: z.boolean(), recipients: z.array(z.string()) });
export type ChannelSubscription = z.infer<typeof ChannelSubscription>;

/** One event key's configuration on the email or SMS channel. */
export const ChannelEventConfig = z.object({ eventKey: z.string(), enabled: z.boolean(), subscriptions: z.array(ChannelSubscription) });
export type ChannelEventConfig = z.infer<typeof ChannelEventConfig>;

/** GET email/v1 and sms/v1: the event keys that have a configuration. */
export const ChannelConfigList = z.array(ChannelEventConfig);
export type ChannelConfigList = z.infer<typeof ChannelConfigList>;

const saveRequestOf = <T extends z.ZodType<string>>(recipient: T) =>
  z
    .object({
      eventKey: ChannelEventKey,
      enabled: z.boolean(),
      subscriptions: z
        .array(z.object({ id: SubscriptionId.optional(), enabled: z.boolean(), recipients: recipientsOf(recipient) }).strict())
        .max(MAX_SUBSCRIPTIONS_PER_EVENT, `An event takes at most ${MAX_SUBSCRIPTIONS_PER_EVENT} subscriptions`),
    })
    .strict();

/**
 * POST email/v1: saves one event key. A subscription with an id updates it (empty recipients delete
 * it); without an id it is created, only when it has recipients. Subscriptions of the key that the
 * body does not name are left as they are.
 */
export const SaveEmailConfigRequest = saveRequestOf(EmailRecipient);
export type SaveEmailConfigRequest = z.infer<typeof SaveEmailConfigRequest>;
export const SaveSmsConfigRequest = saveRequestOf(PhoneRecipient);
export type SaveSmsConfigRequest = z.infer<typeof SaveSmsConfigRequest>;

/** PATCH email/v1/{eventKey}: switches the event key on or off (its subscriptions stay). */
export const PatchChannelEventRequest = z.object({ enabled: z.boolean() }).strict();
export type PatchChannelEventRequest = z.infer<typeof PatchChannelEventRequest>;

/** PUT .../subscriptions/{id}: replaces one subscription; empty recipients delete it. */
export const PutEmailSubscriptionRequest = z.object({ enabled: z.boolean(), recipients: recipientsOf(EmailRecipient) }).strict();
export type PutEmailSubscriptionRequest = z.infer<typeof PutEmailSubscriptionRequest>;
export const PutSmsSubscriptionRequest = z.object({ enabled: z.boolean(), recipients: recipientsOf(PhoneRecipient) }).strict();
export type PutSmsSubscriptionRequest = z.infer<typeof PutSmsSubscriptionRequest>;

// ---- Slack

/** A Slack channel id as Slack writes them (C…, G…). */
export const SlackChannelId = z.string().trim().regex(/^[A-Z0-9]{2,32}$/, 'channelIds must be Slack channel ids, e.g. C0123ABCD');

export const SlackEvent = z.object({ id: z.string(), eventKey: z.string(), channelIds: z.array(z.string()), enabled: z.boolean() });
export type SlackEvent = z.infer<typeof SlackEvent>;

/** GET slack/v1: the tenant's workspace (id null until the first save or connection) and its subscriptions. Never the bot token. */
export const SlackConfig = z.object({ id: z.string().nullable(), connected: z.boolean(), teamName: z.string().nullable(), slackEvents: z.array(SlackEvent) });
export type SlackConfig = z.infer<typeof SlackConfig>;

/** POST slack/v1: `slackEvents` with an id update that subscription (empty channelIds delete it); without one they are created. */
export const SaveSlackConfigRequest = z
  .object({
    id: z.string().trim().min(1).max(64).optional(),
    slackEvents: z
      .array(
        z
          .object({
            id: SubscriptionId.optional(),
            eventKey: ChannelEventKey,
            channelIds: z.array(SlackChannelId).max(MAX_SLACK_CHANNELS_PER_EVENT, `A Slack subscription takes at most ${MAX_SLACK_CHANNELS_PER_EVENT} channels`),
            enabled: z.boolean(),
          })
          .strict(),
      )
      .max(MAX_SLACK_SUBSCRIPTIONS_PER_TENANT, `An account takes at most ${MAX_SLACK_SUBSCRIPTIONS_PER_TENANT} Slack subscriptions`),
  })
  .strict();
export type SaveSlackConfigRequest = z.infer<typeof SaveSlackConfigRequest>;

/** GET slack/v1/scope: what the portal needs to send the admin to Slack. `state` is single use, 10 minutes. */
export const SlackScopeResponse = z.object({ clientId: z.string(), scope: z.string(), authorizeUrl: z.string(), state: z.string() });
export type SlackScopeResponse = z.infer<typeof SlackScopeResponse>;

/** POST slack/v1/code: what Slack's redirect brought back. */
export const SlackCodeRequest = z.object({ code: z.string().trim().min(1).max(512), state: z.string().trim().min(1).max(256) }).strict();
export type SlackCodeRequest = z.infer<typeof SlackCodeRequest>;
export const SlackCodeResponse = z.object({ connected: z.literal(true), teamName: z.string().nullable() });
export type SlackCodeResponse = z.infer<typeof SlackCodeResponse>;

/** GET slack/v1/channels. */
export const SlackChannel = z.object({ id: z.string(), name: z.string() });
export type SlackChannel = z.infer<typeof SlackChannel>;
export const SlackChannelList = z.array(SlackChannel);
export type SlackChannelList = z.infer<typeof SlackChannelList>;
