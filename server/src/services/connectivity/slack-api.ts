/**
 * The few methods of Slack's Web API the Slack channel calls (https://api.slack.com/methods), at
 * SLACK_API_BASE_URL: oauth.v2.access (form-encoded, with the app's client id and secret),
 * conversations.list (paged by cursor, bounded), chat.postMessage (JSON) and auth.revoke, the last
 * three with the workspace's bot token as a bearer token.
 *
 * Slack answers HTTP 200 with `{ ok: false, error }` for refusals and 429 with Retry-After when
 * rate limited; both become a SlackApiError carrying Slack's code and whether trying again may help.
 * Tokens and secrets never appear in an error message.
 */
import type { SlackAppConfig } from '../../config';

/** How long one Slack call may take. */
const TIMEOUT_MS = 10_000;
/** Slack's answers to these methods are small; a bigger one is cut off rather than buffered. */
const MAX_ANSWER_BYTES = 1024 * 1024;
/** conversations.list: channels per page, and pages read at most (so 2,000 channels). */
export const CHANNELS_PAGE_SIZE = 200;
export const CHANNELS_MAX_PAGES = 10;

/** Slack codes after which the same call will keep failing (the token or the channel is gone). */
const PERMANENT_ERRORS = new Set([
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'token_expired',
  'no_permission',
  'missing_scope',
  'channel_not_found',
  'not_in_channel',
  'is_archived',
  'invalid_code',
  'code_already_used',
  'bad_redirect_uri',
  'invalid_client_id',
  'bad_client_secret',
  'invalid_arguments',
  'invalid_blocks',
  'msg_too_long',
  'no_text',
]);

export class SlackApiError extends Error {
  override name = 'SlackApiError';
  constructor(
    readonly method: string,
    /** Slack's error code (`invalid_auth`, `ratelimited`, ...), or `http_<status>` / `unreachable`. */
    readonly code: string,
    /** Whether the same call later may succeed. */
    readonly retryable: boolean,
  ) {
    super(`Slack ${method} failed: ${code}`);
  }
}

export interface SlackOauthGrant {
  accessToken: string;
  teamId: string | null;
  teamName: string | null;
  botUserId: string | null;
  scope: string;
}

export interface SlackApi {
  /** Exchanges an OAuth code for the workspace's bot token. */
  oauthAccess(input: { code: string; redirectUri: string | null }): Promise<SlackOauthGrant>;
  /** The public and private channels the bot may see, not archived, by name. */
  listChannels(token: string): Promise<{ id: string; name: string }[]>;
  postMessage(token: string, message: { channel: string; text: string; blocks?: unknown[] }): Promise<void>;
  /** Revokes the token (disconnect). */
  revoke(token: string): Promise<void>;
}

type Answer = Record<string, unknown> & { ok?: unknown; error?: unknown };

export function createSlackApi(config: Pick<SlackAppConfig, 'apiBaseUrl' | 'clientId' | 'clientSecret'>, fetchImpl: typeof globalThis.fetch = globalThis.fetch): SlackApi {
  async function call(method: string, init: { token?: string; form?: Record<string, string>; json?: unknown }): Promise<Answer> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    let body: string;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json; charset=utf-8';
      body = JSON.stringify(init.json);
    } else {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form ?? {}).toString();
    }
    let res: Response;
    try {
      res = await fetchImpl(`${config.apiBaseUrl}/${method}`, { method: 'POST', headers, body, redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch {
      throw new SlackApiError(method, 'unreachable', true);
    }
    const text = await readCapped(res);
    if (res.status === 429) throw new SlackApiError(method, 'ratelimited', true);
    if (!res.ok) throw new SlackApiError(method, `http_${res.status}`, res.status >= 500);
    let answer: Answer;
    try {
      answer = JSON.parse(text) as Answer;
    } catch {
      throw new SlackApiError(method, 'invalid_response', true);
    }
    if (answer.ok !== true) {
      const code = typeof answer.error === 'string' ? answer.error.slice(0, 100) : 'unknown_error';
      throw new SlackApiError(method, code, !PERMANENT_ERRORS.has(code));
    }
    return answer;
  }

  return {
    async oauthAccess({ code, redirectUri }) {
      if (!config.clientId || !config.clientSecret) throw new SlackApiError('oauth.v2.access', 'not_configured', false);
      const form: Record<string, string> = { client_id: config.clientId, client_secret: config.clientSecret, code };
      if (redirectUri) form.redirect_uri = redirectUri;
      const answer = await call('oauth.v2.access', { form });
      const team = (answer.team ?? {}) as { id?: unknown; name?: unknown };
      if (typeof answer.access_token !== 'string' || !answer.access_token) throw new SlackApiError('oauth.v2.access', 'invalid_response', false);
      return {
        accessToken: answer.access_token,
        teamId: typeof team.id === 'string' ? team.id : null,
        teamName: typeof team.name === 'string' ? team.name.slice(0, 200) : null,
        botUserId: typeof answer.bot_user_id === 'string' ? answer.bot_user_id : null,
        scope: typeof answer.scope === 'string' ? answer.scope : '',
      };
    },

    async listChannels(token) {
      const channels: { id: string; name: string }[] = [];
      let cursor = '';
      for (let page = 0; page < CHANNELS_MAX_PAGES; page++) {
        const form: Record<string, string> = { types: 'public_channel,private_channel', exclude_archived: 'true', limit: String(CHANNELS_PAGE_SIZE) };
        if (cursor) form.cursor = cursor;
        const answer = await call('conversations.list', { token, form });
        for (const c of Array.isArray(answer.channels) ? answer.channels : []) {
          const { id, name } = (c ?? {}) as { id?: unknown; name?: unknown };
          if (typeof id === 'string' && typeof name === 'string') channels.push({ id, name });
        }
        const next = (answer.response_metadata as { next_cursor?: unknown } | undefined)?.next_cursor;
        cursor = typeof next === 'string' ? next : '';
        if (!cursor) break;
      }
      return channels.sort((a, b) => a.name.localeCompare(b.name));
    },

    async postMessage(token, message) {
      await call('chat.postMessage', { token, json: { channel: message.channel, text: message.text, ...(message.blocks ? { blocks: message.blocks } : {}), unfurl_links: false, unfurl_media: false } });
    },

    async revoke(token) {
      await call('auth.revoke', { token, form: {} });
    },
  };
}

async function readCapped(res: Response): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel().catch(() => undefined);
      break;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
