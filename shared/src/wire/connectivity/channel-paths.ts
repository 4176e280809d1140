/**
 * Paths and limits of the notification channels email, Slack and SMS (issue 16; seed 001 sections 2
 * "Notification channels, in order: email, slack, sms, webhook", 3 "Connectivity", 5, 7). Plain data,
 * no zod, so the admin portal imports it at run time; the schemas are in channels.ts.
 */
const email = '/connectivity/resources/email/v1';
const sms = '/connectivity/resources/sms/v1';
const slack = '/connectivity/resources/slack/v1';

export const ChannelPaths = {
  /** GET (every event key with its subscriptions), POST `{ eventKey, enabled, subscriptions }`. */
  email,
  /** PATCH `{ enabled }`: the event key's switch. */
  emailEvent: `${email}/{eventKey}`,
  /** PUT `{ enabled, recipients }` | DELETE. */
  emailSubscription: `${email}/{eventKey}/subscriptions/{id}`,
  sms,
  smsEvent: `${sms}/{eventKey}`,
  smsSubscription: `${sms}/{eventKey}/subscriptions/{id}`,
  /** GET (the workspace and its subscriptions), POST `{ id?, slackEvents }`, DELETE (disconnect). */
  slack,
  /** GET: client id, scopes, authorize URL and a single-use state. */
  slackScope: `${slack}/scope`,
  /** POST `{ code, state }`: finishes Slack's OAuth. */
  slackCode: `${slack}/code`,
  /** GET: the workspace's channels `[{ id, name }]`. */
  slackChannels: `${slack}/channels`,
} as const;

/** The message channels, in the seed's order (webhooks come last and live apart). */
export const MessageChannels = ['email', 'slack', 'sms'] as const;
export type MessageChannel = (typeof MessageChannels)[number];

/** Recipients of one email or SMS subscription. */
export const MAX_RECIPIENTS_PER_SUBSCRIPTION = 20;
/** Subscriptions of one event key on one channel. */
export const MAX_SUBSCRIPTIONS_PER_EVENT = 10;
/** Slack channels of one Slack subscription. */
export const MAX_SLACK_CHANNELS_PER_EVENT = 20;
/** Slack subscriptions of one event key in an account (as email and SMS: each event posts to their channels). */
export const MAX_SLACK_SUBSCRIPTIONS_PER_EVENT = 10;
/** Slack subscriptions of an account in total (also the most one save may name). */
export const MAX_SLACK_SUBSCRIPTIONS_PER_TENANT = 100;

/**
 * The bot scopes Gatehouse asks Slack for: chat:write (post the event message), channels:read and
 * groups:read (list the public and private channels the admin may pick). Nothing that reads messages.
 */
export const SLACK_BOT_SCOPES = ['chat:write', 'channels:read', 'groups:read'] as const;

/** Error codes of the channels (numbered apart from the other connectivity parts). */
export const ChannelErrorCodes = {
  /** The operator has not set SLACK_CLIENT_ID and SLACK_CLIENT_SECRET. */
  slackNotConfigured: 'ER-16301',
  /** The OAuth state is unknown, spent, expired or another tenant's or admin's. */
  slackStateInvalid: 'ER-16302',
  /** Slack refused or could not be reached (its error code is in the message). */
  slackApiFailed: 'ER-16303',
  /** The tenant has no Slack workspace connected. */
  slackNotConnected: 'ER-16304',
} as const;
export type ChannelErrorCode = (typeof ChannelErrorCodes)[keyof typeof ChannelErrorCodes];
