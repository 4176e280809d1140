/**
 * The wire types the Connectivity section reads and sends, under the names the section uses. Types
 * only: the schemas (zod) stay on the server's side of the import graph.
 */
import type {
  ChannelEventConfig as WireChannelEventConfig,
  CreatedWebhook,
  EventCatalogueEntry as WireEventCatalogueEntry,
  RotatedWebhookSecret,
  SaveSlackConfigRequest,
  SaveWebhookRequest,
  SlackChannel as WireSlackChannel,
  SlackCodeResponse,
  SlackConfig as WireSlackConfig,
  SlackEvent as WireSlackEvent,
  SlackScopeResponse,
  TestWebhookResult,
  WebhookAttempt as WireWebhookAttempt,
  WebhookEndpoint as WireWebhookEndpoint,
  WebhookLogPage as WireWebhookLogPage,
  WebhookRetryResult,
} from '@gatehouse/shared/wire';

export type EventCatalogueEntry = WireEventCatalogueEntry;
export type EventCategory = WireEventCatalogueEntry['category'];

export type WebhookEndpoint = WireWebhookEndpoint;
/** What the add/edit dialog sends (the `_id` is added by the update call). */
export type WebhookInput = Omit<Required<SaveWebhookRequest>, '_id'>;
export type WebhookCreated = CreatedWebhook;
export type WebhookSecret = RotatedWebhookSecret;
export type WebhookTestResult = TestWebhookResult;
export type WebhookAttempt = WireWebhookAttempt;
export type WebhookLogPage = WireWebhookLogPage;
export type WebhookRetried = WebhookRetryResult;

export type ChannelEventConfig = WireChannelEventConfig;
export type ChannelSubscription = WireChannelEventConfig['subscriptions'][number];
/** A save of one event key: subscriptions without an id are new. */
export interface ChannelEventConfigInput {
  eventKey: string;
  enabled: boolean;
  subscriptions: { id?: string; enabled: boolean; recipients: string[] }[];
}

export type SlackConfig = WireSlackConfig;
export type SlackEvent = WireSlackEvent;
export type SlackConfigInput = SaveSlackConfigRequest;
export type SlackScope = SlackScopeResponse;
export type SlackConnected = SlackCodeResponse;
export type SlackChannel = WireSlackChannel;
