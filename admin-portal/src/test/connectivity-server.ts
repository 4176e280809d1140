/**
 * The Connectivity section's HTTP boundary in memory for its component tests: the event catalogue
 * (the shared one, as the server serves it), webhook endpoints and their logs, email and SMS
 * configurations, and a Slack workspace, changed by the calls the section makes as the contract of
 * issue 16 says. Every call is recorded; `failures` makes chosen calls fail.
 */
import { EVENT_CATALOGUE } from '@gatehouse/shared/wire';
import type { ChannelEventConfig, SlackChannel, SlackConfig, WebhookAttempt, WebhookEndpoint } from '@gatehouse/shared/wire';
import { recordingApi, type Failure } from './section-harness';

export interface ConnectivityState {
  endpoints: WebhookEndpoint[];
  logs: Record<string, WebhookAttempt[]>;
  email: ChannelEventConfig[];
  sms: ChannelEventConfig[];
  slack: SlackConfig;
  channels: SlackChannel[];
  /** What the next test delivery answers. */
  testResult: { status: 'success' | 'failed'; statusCode: number | null; message: string };
}

export const SECRET = 'whsec_c2VjcmV0LW9mLXRoZS10ZXN0LWVuZHBvaW50';
export const ROTATED_SECRET = 'whsec_cm90YXRlZC1zZWNyZXQtb2YtdGhlLXRlc3Q=';

export function endpoint(overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return { _id: 'wh1', url: 'https://hooks.example.com/gatehouse', description: 'Provisioning bridge', eventKeys: ['user.invited'], isActive: true, createdAt: Date.UTC(2026, 10, 20, 10), disabledAt: null, disabledReason: null, ...overrides };
}

export function attempt(i: number, overrides: Partial<WebhookAttempt> = {}): WebhookAttempt {
  return {
    id: `log${i}`,
    eventKey: 'user.invited',
    eventId: `msg_${i}`,
    status: 'success',
    attempt: 1,
    statusCode: 200,
    durationMs: 40 + i,
    error: null,
    requestHeaders: { 'content-type': 'application/json', 'webhook-id': `msg_${i}` },
    requestBody: JSON.stringify({ type: 'user.invited', data: { email: `u${i}@example.com` } }),
    responseHeaders: { 'content-type': 'text/plain' },
    responseBody: 'ok',
    createdAt: Date.UTC(2026, 10, 21, 10, 0, i),
    ...overrides,
  };
}

const WEBHOOKS = '/connectivity/resources/webhooks/v1';

export function connectivityServer(initial: Partial<ConnectivityState> = {}, failures: Failure[] = []) {
  const state: ConnectivityState = {
    endpoints: [],
    logs: {},
    email: [],
    sms: [],
    slack: { id: null, connected: false, teamName: null, slackEvents: [] },
    channels: [],
    testResult: { status: 'success', statusCode: 200, message: 'The endpoint answered 200' },
    ...initial,
  };
  let nextId = 100;
  const { api, calls } = recordingApi((method, path, options) => {
    const body = options.body as Record<string, unknown> | undefined;
    if (method === 'GET' && path === '/connectivity/resources/events/v1') return EVENT_CATALOGUE;
    if (method === 'GET' && path === WEBHOOKS) return state.endpoints;
    if (method === 'POST' && path === WEBHOOKS) {
      const input = body as { _id?: string; url: string; description: string; eventKeys: string[]; isActive: boolean };
      if (input._id) {
        state.endpoints = state.endpoints.map((e) => (e._id === input._id ? { ...e, ...input, _id: e._id } : e));
        return state.endpoints.find((e) => e._id === input._id);
      }
      const created = endpoint({ _id: `wh${++nextId}`, url: input.url, description: input.description, eventKeys: input.eventKeys, isActive: input.isActive });
      state.endpoints = [...state.endpoints, created];
      return { _id: created._id, url: created.url, eventKeys: created.eventKeys, isActive: created.isActive, secret: SECRET };
    }
    let m = /^\/connectivity\/resources\/webhooks\/v1\/([^/]+)$/.exec(path);
    if (method === 'DELETE' && m) {
      state.endpoints = state.endpoints.filter((e) => e._id !== decodeURIComponent(m![1]!));
      return undefined;
    }
    m = /^\/connectivity\/resources\/webhooks\/v1\/([^/]+)\/rotate-secret$/.exec(path);
    if (method === 'POST' && m) return { secret: ROTATED_SECRET };
    m = /^\/connectivity\/resources\/webhooks\/v1\/([^/]+)\/test$/.exec(path);
    if (method === 'POST' && m) return { ...state.testResult, logId: 'log-test' };
    m = /^\/connectivity\/resources\/webhooks\/v1\/([^/]+)\/logs$/.exec(path);
    if (method === 'GET' && m) {
      const all = state.logs[decodeURIComponent(m[1]!)] ?? [];
      const offset = Number(options.query?.offset ?? 0);
      const limit = Number(options.query?.limit ?? 10);
      return { rows: all.slice(offset, offset + limit), total: all.length };
    }
    m = /^\/connectivity\/resources\/webhooks\/v1\/logs\/([^/]+)\/retry$/.exec(path);
    if (method === 'POST' && m) return { status: 'queued' };

    for (const channel of ['email', 'sms'] as const) {
      const base = `/connectivity/resources/${channel}/v1`;
      if (method === 'GET' && path === base) return state[channel];
      if (method === 'POST' && path === base) {
        const input = body as { eventKey: string; enabled: boolean; subscriptions: { id?: string; enabled: boolean; recipients: string[] }[] };
        const existing = state[channel].find((c) => c.eventKey === input.eventKey);
        const named = new Set(input.subscriptions.map((s) => s.id).filter(Boolean));
        const kept = (existing?.subscriptions ?? []).filter((s) => !named.has(s.id));
        const saved = input.subscriptions.filter((s) => s.recipients.length > 0).map((s) => ({ id: s.id ?? `sub${++nextId}`, enabled: s.enabled, recipients: s.recipients }));
        const config = { eventKey: input.eventKey, enabled: input.enabled, subscriptions: [...kept, ...saved] };
        state[channel] = existing ? state[channel].map((c) => (c.eventKey === input.eventKey ? config : c)) : [...state[channel], config];
        return config;
      }
      m = new RegExp(`^${base}/([^/]+)/subscriptions/([^/]+)$`).exec(path);
      if (method === 'DELETE' && m) {
        const [key, id] = [decodeURIComponent(m[1]!), decodeURIComponent(m[2]!)];
        state[channel] = state[channel].map((c) => (c.eventKey === key ? { ...c, subscriptions: c.subscriptions.filter((s) => s.id !== id) } : c));
        return undefined;
      }
    }

    const slack = '/connectivity/resources/slack/v1';
    if (method === 'GET' && path === slack) return state.slack;
    if (method === 'GET' && path === `${slack}/scope`) return { clientId: '123.456', scope: 'chat:write,channels:read,groups:read', authorizeUrl: 'https://slack.example.com/oauth/v2/authorize?client_id=123.456&state=st4te', state: 'st4te' };
    if (method === 'POST' && path === `${slack}/code`) {
      state.slack = { id: 'slk1', connected: true, teamName: 'Acme HQ', slackEvents: [] };
      return { connected: true, teamName: 'Acme HQ' };
    }
    if (method === 'GET' && path === `${slack}/channels`) return state.channels;
    if (method === 'POST' && path === slack) {
      const input = body as { id?: string; slackEvents: { id?: string; eventKey: string; channelIds: string[]; enabled: boolean }[] };
      state.slack = { ...state.slack, id: input.id ?? 'slk1', slackEvents: input.slackEvents.filter((e) => e.channelIds.length > 0).map((e) => ({ id: e.id ?? `se${++nextId}`, eventKey: e.eventKey, channelIds: e.channelIds, enabled: e.enabled })) };
      return state.slack;
    }
    if (method === 'DELETE' && path === slack) {
      state.slack = { id: null, connected: false, teamName: null, slackEvents: [] };
      return undefined;
    }
    throw new Error(`No fake answer for ${method} ${path}`);
  }, failures);
  return { api, calls, state };
}
