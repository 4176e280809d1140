/**
 * The Connectivity section's calls (seed 001 sections 3, 4, 5, 7, 9; issue 16): the event
 * catalogue, the tenant's webhook endpoints (their secrets answered only at creation and rotation),
 * an endpoint's test, log and retry, the email and SMS subscriptions per event, and the Slack
 * workspace with its channel subscriptions. Only HTTP: no rules of the server are repeated here.
 */
import { ChannelPaths, ConnectivityPaths, WEBHOOK_LOG_DEFAULT_LIMIT, WebhookPaths } from '@gatehouse/shared/admin-paths';
import type { GatehouseApi } from '../../contract';
import type {
  ChannelEventConfig,
  ChannelEventConfigInput,
  EventCatalogueEntry,
  SlackChannel,
  SlackConfig,
  SlackConfigInput,
  SlackConnected,
  SlackScope,
  WebhookCreated,
  WebhookEndpoint,
  WebhookInput,
  WebhookLogPage,
  WebhookRetried,
  WebhookSecret,
  WebhookTestResult,
} from './connectivity-types';

/** Seed 001 section 9: the webhook log is read 10 rows at a time, from offset 0. */
export const WEBHOOK_LOG_LIMIT = WEBHOOK_LOG_DEFAULT_LIMIT;

/** The two channels whose subscriptions are recipients per event (seed 001 section 3). */
export type RecipientChannel = 'email' | 'sms';

const fill = (template: string, values: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ''));

const CHANNEL_PATHS = {
  email: { base: ChannelPaths.email, event: ChannelPaths.emailEvent, subscription: ChannelPaths.emailSubscription },
  sms: { base: ChannelPaths.sms, event: ChannelPaths.smsEvent, subscription: ChannelPaths.smsSubscription },
} as const;

export function createConnectivityApi(api: GatehouseApi) {
  return {
    /** The catalogue of events (key, category, description), in the server's order. */
    events: () => api.request<EventCatalogueEntry[]>('GET', ConnectivityPaths.events),

    webhooks: {
      list: () => api.request<WebhookEndpoint[]>('GET', WebhookPaths.webhooks),
      /** Without an id: creates, and the answer carries the secret, this once. */
      create: (input: WebhookInput) => api.request<WebhookCreated>('POST', WebhookPaths.webhooks, { body: input }),
      /** Seed 001 section 5: saving with an `_id` updates that endpoint (no secret in the answer). */
      update: (id: string, input: WebhookInput) => api.request<WebhookEndpoint>('POST', WebhookPaths.webhooks, { body: { _id: id, ...input } }),
      remove: (id: string) => api.request<void>('DELETE', fill(WebhookPaths.webhook, { id })),
      /** A new secret, shown once; the old one keeps signing for 24 hours. */
      rotateSecret: (id: string) => api.request<WebhookSecret>('POST', fill(WebhookPaths.webhookRotateSecret, { id })),
      /** Sends a sample of `eventKey`; seed 001 section 4: success only on 200 or 201. */
      test: (id: string, eventKey: string) => api.request<WebhookTestResult>('POST', fill(WebhookPaths.webhookTest, { id }), { body: { eventKey } }),
      /** One page of the endpoint's attempts, newest first (offset 0, limit 10 by default: seed 001 section 9). */
      logs: (id: string, offset = 0, limit = WEBHOOK_LOG_LIMIT) => api.request<WebhookLogPage>('GET', fill(WebhookPaths.webhookLogs, { id }), { query: { offset, limit } }),
      /** Sends a logged attempt again; seed 001 section 4: success is 202. */
      retry: (logId: string) => api.request<WebhookRetried>('POST', fill(WebhookPaths.webhookLogRetry, { logId })),
    },

    /** Email and SMS have the same calls under their own base path. */
    channel: (channel: RecipientChannel) => {
      const paths = CHANNEL_PATHS[channel];
      return {
        list: () => api.request<ChannelEventConfig[]>('GET', paths.base),
        /** Seed 001 section 5: subscriptions with an id are updated, the others created (only with recipients). */
        save: (config: ChannelEventConfigInput) => api.request<ChannelEventConfig>('POST', paths.base, { body: config }),
        setEnabled: (eventKey: string, enabled: boolean) => api.request<unknown>('PATCH', fill(paths.event, { eventKey }), { body: { enabled } }),
        removeSubscription: (eventKey: string, id: string) => api.request<void>('DELETE', fill(paths.subscription, { eventKey, id })),
      };
    },

    slack: {
      get: () => api.request<SlackConfig>('GET', ChannelPaths.slack),
      /** Seed 001 section 5: updates when the configuration's id exists, otherwise creates. */
      save: (config: SlackConfigInput) => api.request<SlackConfig>('POST', ChannelPaths.slack, { body: config }),
      disconnect: () => api.request<void>('DELETE', ChannelPaths.slack),
      scope: () => api.request<SlackScope>('GET', ChannelPaths.slackScope),
      code: (code: string, state: string) => api.request<SlackConnected>('POST', ChannelPaths.slackCode, { body: { code, state } }),
      channels: () => api.request<SlackChannel[]>('GET', ChannelPaths.slackChannels),
    },
  };
}

export type ConnectivityApi = ReturnType<typeof createConnectivityApi>;
