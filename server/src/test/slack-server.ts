/**
 * A local Slack-compatible server on loopback: the Web API methods the Slack channel calls
 * (oauth.v2.access, conversations.list, chat.postMessage, auth.revoke) and the OAuth authorize page,
 * behaving as Slack documents them (https://api.slack.com/methods) and CHECKING every request the
 * way Slack does: the app's client id and secret, single-use codes bound to their redirect_uri,
 * bearer bot tokens (revocable), form-encoded or JSON bodies, required arguments. Refusals are
 * HTTP 200 with `{ ok: false, error }` (invalid_auth, not_authed, invalid_code, channel_not_found,
 * no_text, ...); `failNext` makes a method answer an error (or a 429) once, for retry tests.
 *
 * Tests point SLACK_API_BASE_URL at `apiBaseUrl` and SLACK_OAUTH_AUTHORIZE_URL at `authorizeUrl`,
 * and play the admin's "Allow" with `approve(authorizeUrl)`, which answers what Slack's redirect
 * brings back (`code`, `state`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

export const SLACK_TEST_CLIENT_ID = '1234567890.0987654321';
export const SLACK_TEST_CLIENT_SECRET = 'slack-test-client-secret-0123456789abcdef';

export interface SlackTestChannel {
  id: string;
  name: string;
  isPrivate?: boolean;
  isArchived?: boolean;
  /** Whether the bot is a member (chat.postMessage to a private channel needs it). */
  isMember?: boolean;
}

export interface SlackRequestRecord {
  method: string;
  contentType: string;
  authorization: string | null;
  body: Record<string, unknown>;
}

export interface PostedMessage {
  token: string;
  channel: string;
  text: string | null;
  blocks: unknown[] | null;
}

export interface TestSlack {
  apiBaseUrl: string;
  authorizeUrl: string;
  team: { id: string; name: string };
  /** Every API call, in order (bodies as parsed; secrets included, for the checks). */
  requests: SlackRequestRecord[];
  posted: PostedMessage[];
  /** Bot tokens issued and whether they are still valid. */
  tokens: Map<string, { revoked: boolean }>;
  channels: SlackTestChannel[];
  /** The admin approves the app at `authorizeUrl` (as built by Gatehouse): checks it and answers Slack's redirect parameters. */
  approve(authorizeUrl: string): { code: string; state: string; redirectUri: string | null };
  /** The next call of `method` (whose arguments `when` accepts, if given) fails with Slack error `error` (or HTTP 429 when error is 'ratelimited'). */
  failNext(method: string, error: string, when?: (body: Record<string, unknown>) => boolean): void;
  stop(): Promise<void>;
}

const REQUIRED_SCOPES = ['chat:write', 'channels:read', 'groups:read'];

export async function startTestSlack(options: { channels?: SlackTestChannel[]; teamName?: string } = {}): Promise<TestSlack> {
  const codes = new Map<string, { redirectUri: string | null; used: boolean; scope: string }>();
  const failures = new Map<string, { error: string; when?: (body: Record<string, unknown>) => boolean }>();
  const team = { id: `T${randomBytes(4).toString('hex').toUpperCase()}`, name: options.teamName ?? 'Acme Workspace' };
  const channels: SlackTestChannel[] = options.channels ?? [
    { id: 'C01GENERAL', name: 'general', isMember: true },
    { id: 'C02SECURITY', name: 'security-alerts', isMember: true },
    { id: 'G03PRIVATE', name: 'private-ops', isPrivate: true, isMember: false },
    { id: 'C04OLD', name: 'old-stuff', isArchived: true, isMember: true },
  ];
  const state: TestSlack = {
    apiBaseUrl: '',
    authorizeUrl: '',
    team,
    requests: [],
    posted: [],
    tokens: new Map(),
    channels,
    approve(authorizeUrl) {
      const url = new URL(authorizeUrl);
      if (`${url.origin}${url.pathname}` !== state.authorizeUrl) throw new Error(`not our authorize page: ${url.origin}${url.pathname}`);
      if (url.searchParams.get('client_id') !== SLACK_TEST_CLIENT_ID) throw new Error(`authorize: wrong client_id ${url.searchParams.get('client_id')}`);
      const scope = url.searchParams.get('scope') ?? '';
      const missing = REQUIRED_SCOPES.filter((s) => !scope.split(',').includes(s));
      if (missing.length) throw new Error(`authorize: scope lacks ${missing.join(', ')}`);
      const stateParam = url.searchParams.get('state');
      if (!stateParam) throw new Error('authorize: no state');
      const code = `${team.id}.${randomBytes(12).toString('hex')}`;
      const redirectUri = url.searchParams.get('redirect_uri');
      codes.set(code, { redirectUri, used: false, scope });
      return { code, state: stateParam, redirectUri };
    },
    failNext(method, error, when) {
      failures.set(method, when ? { error, when } : { error });
    },
    stop: async () => undefined,
  };

  function bearer(req: IncomingMessage, body: Record<string, unknown>): { token: string } | { error: string } {
    const header = req.headers.authorization;
    // Slack also takes the token as a `token` argument; a header wins.
    const token = header?.startsWith('Bearer ') ? header.slice(7) : typeof body.token === 'string' ? body.token : null;
    if (!token) return { error: 'not_authed' };
    const known = state.tokens.get(token);
    if (!known) return { error: 'invalid_auth' };
    if (known.revoked) return { error: 'token_revoked' };
    return { token };
  }

  const methods: Record<string, (req: IncomingMessage, body: Record<string, unknown>, contentType: string) => Record<string, unknown>> = {
    'oauth.v2.access'(req, body, contentType) {
      if (!contentType.startsWith('application/x-www-form-urlencoded')) return { ok: false, error: 'invalid_form_data' };
      let clientId = body.client_id;
      let clientSecret = body.client_secret;
      const basic = req.headers.authorization;
      if (basic?.startsWith('Basic ')) [clientId, clientSecret] = Buffer.from(basic.slice(6), 'base64').toString('utf8').split(':');
      if (clientId !== SLACK_TEST_CLIENT_ID) return { ok: false, error: 'invalid_client_id' };
      if (clientSecret !== SLACK_TEST_CLIENT_SECRET) return { ok: false, error: 'bad_client_secret' };
      const code = typeof body.code === 'string' ? codes.get(body.code) : undefined;
      if (!code) return { ok: false, error: 'invalid_code' };
      if (code.used) return { ok: false, error: 'code_already_used' };
      if ((code.redirectUri ?? undefined) !== (typeof body.redirect_uri === 'string' ? body.redirect_uri : undefined)) return { ok: false, error: 'bad_redirect_uri' };
      code.used = true;
      const token = `xoxb-${randomBytes(16).toString('hex')}`;
      state.tokens.set(token, { revoked: false });
      return {
        ok: true,
        app_id: 'A0TESTAPP',
        authed_user: { id: 'U0ADMIN' },
        scope: code.scope,
        token_type: 'bot',
        access_token: token,
        bot_user_id: 'U0BOT',
        team,
        enterprise: null,
        is_enterprise_install: false,
      };
    },
    'conversations.list'(req, body) {
      const auth = bearer(req, body);
      if ('error' in auth) return { ok: false, error: auth.error };
      const limit = body.limit === undefined ? 100 : Number(body.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) return { ok: false, error: 'invalid_limit' };
      const types = String(body.types ?? 'public_channel').split(',');
      const visible = channels.filter((c) => (c.isPrivate ? types.includes('private_channel') : types.includes('public_channel')) && !(body.exclude_archived === 'true' && c.isArchived));
      const start = body.cursor ? Number(Buffer.from(String(body.cursor), 'base64').toString('utf8').replace('offset:', '')) : 0;
      if (!Number.isInteger(start) || start < 0) return { ok: false, error: 'invalid_cursor' };
      const page = visible.slice(start, start + limit);
      const next = start + limit < visible.length ? Buffer.from(`offset:${start + limit}`).toString('base64') : '';
      return {
        ok: true,
        channels: page.map((c) => ({ id: c.id, name: c.name, is_channel: !c.isPrivate, is_private: Boolean(c.isPrivate), is_archived: Boolean(c.isArchived), is_member: Boolean(c.isMember) })),
        response_metadata: { next_cursor: next },
      };
    },
    'chat.postMessage'(req, body) {
      const auth = bearer(req, body);
      if ('error' in auth) return { ok: false, error: auth.error };
      if (typeof body.channel !== 'string' || !body.channel) return { ok: false, error: 'channel_not_found' };
      const channel = channels.find((c) => c.id === body.channel);
      if (!channel) return { ok: false, error: 'channel_not_found' };
      if (channel.isArchived) return { ok: false, error: 'is_archived' };
      if (!channel.isMember) return { ok: false, error: 'not_in_channel' };
      const text = typeof body.text === 'string' && body.text ? body.text : null;
      let blocks: unknown = body.blocks ?? null;
      if (typeof blocks === 'string') {
        try {
          blocks = JSON.parse(blocks);
        } catch {
          return { ok: false, error: 'invalid_blocks_format' };
        }
      }
      if (blocks !== null && (!Array.isArray(blocks) || blocks.some((b) => !b || typeof (b as { type?: unknown }).type !== 'string'))) return { ok: false, error: 'invalid_blocks' };
      if (!text && !blocks) return { ok: false, error: 'no_text' };
      if (text && text.length > 40_000) return { ok: false, error: 'msg_too_long' };
      state.posted.push({ token: auth.token, channel: channel.id, text, blocks: blocks as unknown[] | null });
      return { ok: true, channel: channel.id, ts: `${Math.floor(Date.now() / 1000)}.000${state.posted.length}`, message: { text, type: 'message', bot_id: 'B0BOT' } };
    },
    'auth.revoke'(req, body) {
      const auth = bearer(req, body);
      if ('error' in auth) return { ok: false, error: auth.error };
      state.tokens.set(auth.token, { revoked: true });
      return { ok: true, revoked: true };
    },
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://slack.local');
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(payload));
    };
    if (req.method === 'GET' && url.pathname === '/oauth/v2/authorize') {
      // The page a browser would see: approve at once and send it back, as the admin's "Allow" would.
      try {
        const approved = state.approve(`${state.authorizeUrl}${url.search}`);
        if (!approved.redirectUri) return send(400, { error: 'this test page needs redirect_uri' });
        const back = new URL(approved.redirectUri);
        back.searchParams.set('code', approved.code);
        back.searchParams.set('state', approved.state);
        res.writeHead(302, { location: back.href });
        res.end();
      } catch (err) {
        send(400, { error: (err as Error).message });
      }
      return;
    }
    const match = /^\/api\/([a-zA-Z0-9.]+)$/.exec(url.pathname);
    if (!match) return send(404, { ok: false, error: 'unknown_method' });
    const method = match[1]!;
    const handler = methods[method];
    if (!handler) return send(404, { ok: false, error: 'unknown_method' });
    if (req.method !== 'POST' && req.method !== 'GET') return send(405, { ok: false, error: 'method_not_supported_for_channel_type' });
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const contentType = (req.headers['content-type'] ?? '').toLowerCase();
    let body: Record<string, unknown> = Object.fromEntries(url.searchParams);
    if (raw) {
      if (contentType.startsWith('application/json')) {
        try {
          body = { ...body, ...(JSON.parse(raw) as Record<string, unknown>) };
        } catch {
          return send(200, { ok: false, error: 'invalid_json' });
        }
      } else if (contentType.startsWith('application/x-www-form-urlencoded')) {
        body = { ...body, ...Object.fromEntries(new URLSearchParams(raw)) };
      } else {
        return send(200, { ok: false, error: 'invalid_form_data' });
      }
    }
    state.requests.push({ method, contentType, authorization: req.headers.authorization ?? null, body });
    const failure = failures.get(method);
    if (failure && (!failure.when || failure.when(body))) {
      failures.delete(method);
      if (failure.error === 'ratelimited') return send(429, { ok: false, error: 'ratelimited' }, { 'retry-after': '1' });
      return send(200, { ok: false, error: failure.error });
    }
    send(200, handler(req, body, contentType));
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.apiBaseUrl = `http://127.0.0.1:${port}/api`;
  state.authorizeUrl = `http://127.0.0.1:${port}/oauth/v2/authorize`;
  state.stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}
