import { ChannelErrorCodes, ChannelPaths } from '@gatehouse/shared/wire';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { raiseEvent } from '../../services/connectivity/events';
import { createSlackApi } from '../../services/connectivity/slack-api';
import { auditsOf, callAs, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { describeDialects, movableClock } from '../../test/harness';
import { SLACK_TEST_CLIENT_ID, SLACK_TEST_CLIENT_SECRET, startTestSlack, type TestSlack } from '../../test/slack-server';
import type { GatehouseServer } from '../../app';

const KEK = 'ab'.repeat(32);

describeDialects('Slack channel', (harness) => {
  let slack: TestSlack;
  beforeAll(async () => {
    slack = await startTestSlack();
  });
  afterAll(async () => {
    await slack.stop();
  });

  const start = (clock = movableClock(), env: Record<string, string> = {}) =>
    harness.start(
      {
        RATE_LIMIT_SIGNUP_PER_IP: '1000/60',
        ACCESS_TOKEN_TTL: '3600',
        SLACK_CLIENT_ID: SLACK_TEST_CLIENT_ID,
        SLACK_CLIENT_SECRET: SLACK_TEST_CLIENT_SECRET,
        SLACK_API_BASE_URL: slack.apiBaseUrl,
        SLACK_OAUTH_AUTHORIZE_URL: slack.authorizeUrl,
        GATEHOUSE_KEY_ENCRYPTION_KEY: KEK,
        ...env,
      },
      { clock },
    );

  /** The whole OAuth flow: the scope call, the admin's approval at Slack, the code call. */
  async function connect(server: GatehouseServer, admin: TenantAdmin) {
    const scope = await callAs(server, admin, 'GET', ChannelPaths.slackScope);
    expect(scope.status).toBe(200);
    const approved = slack.approve(scope.body.authorizeUrl);
    const done = await callAs(server, admin, 'POST', ChannelPaths.slackCode, { body: { code: approved.code, state: approved.state } });
    return { scope, approved, done };
  }

  it('connects a workspace through OAuth (scope, approval, code exchange), keeps the bot token sealed and unanswered, lists channels, and disconnects revoking the token', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    expect((await callAs(server, admin, 'GET', ChannelPaths.slack)).body).toEqual({ id: null, connected: false, teamName: null, slackEvents: [] });

    const { scope, approved, done } = await connect(server, admin);
    expect(scope.body).toMatchObject({ clientId: SLACK_TEST_CLIENT_ID, scope: 'chat:write,channels:read,groups:read' });
    expect(scope.body.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(scope.body.authorizeUrl.startsWith(`${slack.authorizeUrl}?`)).toBe(true);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ connected: true, teamName: 'Acme Workspace' });

    // Slack saw a form-encoded oauth.v2.access with the app's credentials and the approved code.
    const exchange = slack.requests.filter((r) => r.method === 'oauth.v2.access').at(-1)!;
    expect(exchange.contentType).toBe('application/x-www-form-urlencoded');
    expect(exchange.body).toEqual({ client_id: SLACK_TEST_CLIENT_ID, client_secret: SLACK_TEST_CLIENT_SECRET, code: approved.code });
    const token = [...slack.tokens.keys()].at(-1)!;

    // Sealed at rest (AES-256-GCM under the key encryption key), never in an answer or an audit.
    const row = await server.db.selectFrom('slack_workspaces').selectAll().where('tenant_id', '=', admin.tenantId).executeTakeFirstOrThrow();
    expect(row.bot_token).toMatch(/^enc:v1:/);
    expect(JSON.stringify(row)).not.toContain(token);
    const config = await callAs(server, admin, 'GET', ChannelPaths.slack);
    expect(config.body).toEqual({ id: row.id, connected: true, teamName: 'Acme Workspace', slackEvents: [] });
    expect(JSON.stringify(config.body)).not.toContain('xoxb-');

    const channels = await callAs(server, admin, 'GET', ChannelPaths.slackChannels);
    expect(channels.status).toBe(200);
    // Public and private, archived left out, by name.
    expect(channels.body).toEqual([
      { id: 'C01GENERAL', name: 'general' },
      { id: 'G03PRIVATE', name: 'private-ops' },
      { id: 'C02SECURITY', name: 'security-alerts' },
    ]);
    const list = slack.requests.filter((r) => r.method === 'conversations.list').at(-1)!;
    expect(list.authorization).toBe(`Bearer ${token}`);
    expect(list.body).toMatchObject({ types: 'public_channel,private_channel', exclude_archived: 'true' });

    expect((await callAs(server, admin, 'DELETE', ChannelPaths.slack)).status).toBe(204);
    expect(slack.tokens.get(token)).toEqual({ revoked: true });
    expect(await server.db.selectFrom('slack_workspaces').selectAll().where('tenant_id', '=', admin.tenantId).executeTakeFirst()).toBeUndefined();
    expect((await callAs(server, admin, 'GET', ChannelPaths.slack)).body).toEqual({ id: null, connected: false, teamName: null, slackEvents: [] });
    const notConnected = await callAs(server, admin, 'GET', ChannelPaths.slackChannels);
    expect(notConnected.status).toBe(409);
    expect(notConnected.body.errorCode).toBe(ChannelErrorCodes.slackNotConnected);

    const audits = await auditsOf(server, admin.tenantId);
    expect(audits.map((a) => a.action).filter((a) => a.startsWith('Slack')).sort()).toEqual(['Slack workspace connected', 'Slack workspace disconnected']);
    expect(JSON.stringify(audits)).not.toContain(token);
  });

  it('refuses a replayed state, another tenant\'s or admin\'s state, and an expired one; a refused attempt does not burn the rightful one', async () => {
    const clock = movableClock();
    const server = await start(clock);
    const admin = await tenantWithAdmin(server);
    const other = await tenantWithAdmin(server, 'other');

    const scope = await callAs(server, admin, 'GET', ChannelPaths.slackScope);
    const approved = slack.approve(scope.body.authorizeUrl);
    // Another tenant's admin with the stolen state and code: refused, and Slack is never asked.
    const exchangesBefore = slack.requests.filter((r) => r.method === 'oauth.v2.access').length;
    const stolen = await callAs(server, other, 'POST', ChannelPaths.slackCode, { body: { code: approved.code, state: approved.state } });
    expect(stolen.status).toBe(400);
    expect(stolen.body.errorCode).toBe(ChannelErrorCodes.slackStateInvalid);
    expect(slack.requests.filter((r) => r.method === 'oauth.v2.access').length).toBe(exchangesBefore);
    expect((await callAs(server, other, 'GET', ChannelPaths.slack)).body.connected).toBe(false);

    // The rightful admin still can, once.
    expect((await callAs(server, admin, 'POST', ChannelPaths.slackCode, { body: { code: approved.code, state: approved.state } })).status).toBe(200);
    const replay = await callAs(server, admin, 'POST', ChannelPaths.slackCode, { body: { code: approved.code, state: approved.state } });
    expect(replay.status).toBe(400);
    expect(replay.body.errorCode).toBe(ChannelErrorCodes.slackStateInvalid);
    expect(replay.body.errors[0]).toMatch(/^state: /);

    // Expired after 10 minutes.
    const late = await callAs(server, admin, 'GET', ChannelPaths.slackScope);
    const lateApproval = slack.approve(late.body.authorizeUrl);
    clock.advance(10 * 60_000 + 1);
    expect((await callAs(server, admin, 'POST', ChannelPaths.slackCode, { body: { code: lateApproval.code, state: lateApproval.state } })).status).toBe(400);

    // At most 5 pending states per admin: the oldest of 6 is dropped, the newest 5 still work.
    const states: { code: string; state: string }[] = [];
    for (let i = 0; i < 6; i++) {
      clock.advance(1);
      const { code, state } = slack.approve((await callAs(server, admin, 'GET', ChannelPaths.slackScope)).body.authorizeUrl);
      states.push({ code, state });
    }
    expect(await server.db.selectFrom('slack_oauth_states').select('state_hash').where('user_id', '=', admin.userId).execute()).toHaveLength(5);
    expect((await callAs(server, admin, 'POST', ChannelPaths.slackCode, { body: states[0] })).status).toBe(400);
    expect((await callAs(server, admin, 'POST', ChannelPaths.slackCode, { body: states[5] })).status).toBe(200);

    // A made-up state.
    expect((await callAs(server, admin, 'POST', ChannelPaths.slackCode, { body: { code: 'x', state: 'made-up' } })).status).toBe(400);
  });

  it("answers Slack's refusal of a code as a 502 naming Slack's error, and 409 when the operator has not set up the Slack app", async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const scope = await callAs(server, admin, 'GET', ChannelPaths.slackScope);
    const approved = slack.approve(scope.body.authorizeUrl);
    const bad = await callAs(server, admin, 'POST', ChannelPaths.slackCode, { body: { code: `${approved.code}-tampered`, state: approved.state } });
    expect(bad.status).toBe(502);
    expect(bad.body).toMatchObject({ errorCode: ChannelErrorCodes.slackApiFailed, errors: ['Slack refused the request (oauth.v2.access: invalid_code)'] });
    expect((await callAs(server, admin, 'GET', ChannelPaths.slack)).body.connected).toBe(false);

    const bare = await harness.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60', GATEHOUSE_KEY_ENCRYPTION_KEY: KEK });
    const bareAdmin = await tenantWithAdmin(bare);
    const unset = await callAs(bare, bareAdmin, 'GET', ChannelPaths.slackScope);
    expect(unset.status).toBe(409);
    expect(unset.body.errorCode).toBe(ChannelErrorCodes.slackNotConfigured);
  });

  it('saves slackEvents (created only with channels, updated by id, deleted when channelIds become empty) and posts a raised event to the subscribed channel with the bot token', async () => {
    const clock = movableClock();
    const server = await start(clock);
    const admin = await tenantWithAdmin(server);
    await connect(server, admin);
    const token = [...slack.tokens.keys()].at(-1)!;

    const saved = await callAs(server, admin, 'POST', ChannelPaths.slack, {
      body: {
        slackEvents: [
          { eventKey: 'user.sign_in_failed', channelIds: ['C02SECURITY', 'C02SECURITY'], enabled: true },
          { eventKey: 'user.locked', channelIds: [], enabled: true },
        ],
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.slackEvents).toEqual([{ id: expect.any(String), eventKey: 'user.sign_in_failed', channelIds: ['C02SECURITY'], enabled: true }]);
    const id = saved.body.slackEvents[0].id as string;

    const bad = await callAs(server, admin, 'POST', ChannelPaths.slack, { body: { slackEvents: [{ eventKey: 'user.nothing', channelIds: ['C01GENERAL'], enabled: true }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatch(/^slackEvents\.0\.eventKey: /);
    const badChannel = await callAs(server, admin, 'POST', ChannelPaths.slack, { body: { slackEvents: [{ eventKey: 'user.locked', channelIds: ['#general'], enabled: true }] } });
    expect(badChannel.status).toBe(400);
    expect(badChannel.body.errors[0]).toMatch(/^slackEvents\.0\.channelIds\.0: /);
    expect((await callAs(server, admin, 'POST', ChannelPaths.slack, { body: { id: 'not-ours', slackEvents: [] } })).status).toBe(404);

    await raiseEvent(server.db, { tenantId: admin.tenantId, key: 'user.sign_in_failed', data: { userId: null, email: 'victim@example.com', reason: 'wrong_password' }, actor: null }, clock.now());
    await raiseEvent(server.db, { tenantId: admin.tenantId, key: 'user.locked', data: { userId: 'u1', email: 'victim@example.com', reason: 'admin' }, actor: null }, clock.now());
    const postedBefore = slack.posted.length;
    await server.connectivity.worker.runDue();
    const posted = slack.posted.slice(postedBefore);
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({ token, channel: 'C02SECURITY', text: expect.stringContaining('(user.sign_in_failed)') });
    expect(JSON.stringify(posted[0]!.blocks)).toContain('victim@example.com');
    const post = slack.requests.filter((r) => r.method === 'chat.postMessage').at(-1)!;
    expect(post.contentType).toBe('application/json; charset=utf-8');
    expect(post.authorization).toBe(`Bearer ${token}`);

    // Update by id, then empty channelIds delete it.
    const updated = await callAs(server, admin, 'POST', ChannelPaths.slack, { body: { id: saved.body.id, slackEvents: [{ id, eventKey: 'user.sign_in_failed', channelIds: ['C01GENERAL'], enabled: false }] } });
    expect(updated.body.slackEvents).toEqual([{ id, eventKey: 'user.sign_in_failed', channelIds: ['C01GENERAL'], enabled: false }]);
    const emptied = await callAs(server, admin, 'POST', ChannelPaths.slack, { body: { slackEvents: [{ id, eventKey: 'user.sign_in_failed', channelIds: [], enabled: true }] } });
    expect(emptied.body.slackEvents).toEqual([]);
    expect((await auditsOf(server, admin.tenantId)).filter((a) => a.action === 'Slack notifications updated')).toHaveLength(3);
  });

  it('caps Slack subscriptions per event key (10) and per account (100) with a 400 naming slackEvents and nothing saved, and posts once per channel per event whatever number of subscriptions name it (security review: uncapped Slack subscriptions)', async () => {
    const clock = movableClock();
    const server = await start(clock);
    const admin = await tenantWithAdmin(server);
    await connect(server, admin);
    const sub = (eventKey: string, channelIds: string[]) => ({ eventKey, channelIds, enabled: true });

    // Ten subscriptions of one key, all naming the same two channels: saved.
    const ten = Array.from({ length: 10 }, () => sub('user.sign_in_failed', ['C01GENERAL', 'C02SECURITY']));
    expect((await callAs(server, admin, 'POST', ChannelPaths.slack, { body: { slackEvents: ten } })).status).toBe(200);
    // An eleventh by a later save: refused whole, naming the field and the key.
    const eleventh = await callAs(server, admin, 'POST', ChannelPaths.slack, { body: { slackEvents: [sub('user.sign_in_failed', ['C01GENERAL']), sub('user.locked', ['C01GENERAL'])] } });
    expect(eleventh.status).toBe(400);
    expect(eleventh.body.errors[0]).toMatch(/^slackEvents: user\.sign_in_failed takes at most 10 Slack subscriptions/);
    const stored = await server.db.selectFrom('slack_subscriptions').select('event_key').where('tenant_id', '=', admin.tenantId).execute();
    expect(stored).toHaveLength(10);

    // One event: one post per channel, not one per subscription.
    await raiseEvent(server.db, { tenantId: admin.tenantId, key: 'user.sign_in_failed', data: { userId: null, email: 'victim@example.com', reason: 'wrong_password' }, actor: null }, clock.now());
    const postedBefore = slack.posted.length;
    await server.connectivity.worker.runDue();
    expect(slack.posted.slice(postedBefore).map((p) => p.channel).sort()).toEqual(['C01GENERAL', 'C02SECURITY']);
    expect(await server.db.selectFrom('jobs').select('id').where('tenant_id', '=', admin.tenantId).where('kind', '=', 'slack').execute()).toHaveLength(2);

    // The account's total: 10 keys x 9 subscriptions = 90 more would make 100 -> fine; one more is refused.
    const keys = ['user.created', 'user.updated', 'user.deleted', 'user.invited', 'user.activated', 'user.disabled', 'user.enabled', 'user.locked', 'user.unlocked', 'user.signed_in'];
    const ninety = keys.flatMap((k) => Array.from({ length: 9 }, () => sub(k, ['C01GENERAL'])));
    expect((await callAs(server, admin, 'POST', ChannelPaths.slack, { body: { slackEvents: ninety } })).status).toBe(200);
    const over = await callAs(server, admin, 'POST', ChannelPaths.slack, { body: { slackEvents: [sub('role.created', ['C01GENERAL'])] } });
    expect(over.status).toBe(400);
    expect(over.body.errors[0]).toMatch(/^slackEvents: an account takes at most 100 Slack subscriptions \(this save would make 101\)/);
    // More than 100 in one body: the wire refuses it.
    const tooMany = await callAs(server, admin, 'POST', ChannelPaths.slack, { body: { slackEvents: Array.from({ length: 101 }, () => sub('role.created', ['C01GENERAL'])) } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors[0]).toMatch(/^slackEvents: /);
    expect(await server.db.selectFrom('slack_subscriptions').select('id').where('tenant_id', '=', admin.tenantId).execute()).toHaveLength(100);
  });

  it('sends SLACK_REDIRECT_URL as redirect_uri on both legs, and a disconnect whose auth.revoke Slack refuses still deletes the token and stops queued posts', async () => {
    const clock = movableClock();
    const redirect = 'https://app.example.com/admin/connectivity';
    const server = await start(clock, { SLACK_REDIRECT_URL: redirect });
    const admin = await tenantWithAdmin(server);
    const { scope, approved, done } = await connect(server, admin);
    expect(new URL(scope.body.authorizeUrl).searchParams.get('redirect_uri')).toBe(redirect);
    expect(approved.redirectUri).toBe(redirect);
    expect(done.status).toBe(200);
    expect(slack.requests.filter((r) => r.method === 'oauth.v2.access').at(-1)!.body.redirect_uri).toBe(redirect);
    const token = [...slack.tokens.keys()].at(-1)!;

    await callAs(server, admin, 'POST', ChannelPaths.slack, { body: { slackEvents: [{ eventKey: 'user.locked', channelIds: ['C01GENERAL'], enabled: true }] } });
    // The event is dispatched (a post queued), then the workspace is disconnected before the post runs.
    slack.failNext('chat.postMessage', 'ratelimited', (body) => body.channel === 'C01GENERAL');
    await raiseEvent(server.db, { tenantId: admin.tenantId, key: 'user.locked', data: { userId: 'u1', email: 'x@example.com', reason: 'admin' }, actor: null }, clock.now());
    await server.connectivity.worker.runDue();
    slack.failNext('auth.revoke', 'internal_error');
    expect((await callAs(server, admin, 'DELETE', ChannelPaths.slack)).status).toBe(204);
    expect(slack.tokens.get(token)).toEqual({ revoked: false });
    expect(await server.db.selectFrom('slack_workspaces').selectAll().where('tenant_id', '=', admin.tenantId).executeTakeFirst()).toBeUndefined();
    const postsBefore = slack.posted.length;
    clock.advance(60_000);
    await server.connectivity.worker.runDue();
    expect(slack.posted.length).toBe(postsBefore);
    expect(await server.db.selectFrom('jobs').select('status').where('tenant_id', '=', admin.tenantId).where('kind', '=', 'slack').execute()).toEqual([{ status: 'succeeded' }]);
  });

  it('retries a post Slack rate-limited and gives up at once on a channel the bot is not in', async () => {
    const clock = movableClock();
    const server = await start(clock);
    const admin = await tenantWithAdmin(server);
    await connect(server, admin);
    await callAs(server, admin, 'POST', ChannelPaths.slack, {
      body: { slackEvents: [{ eventKey: 'user.locked', channelIds: ['C01GENERAL', 'G03PRIVATE'], enabled: true }] },
    });
    slack.failNext('chat.postMessage', 'ratelimited', (body) => body.channel === 'C01GENERAL');
    await raiseEvent(server.db, { tenantId: admin.tenantId, key: 'user.locked', data: { userId: 'u1', email: 'x@example.com', reason: 'admin' }, actor: null }, clock.now());
    await server.connectivity.worker.runDue();
    const jobs = () => server.db.selectFrom('jobs').select(['status', 'attempt', 'last_error', 'payload']).where('tenant_id', '=', admin.tenantId).where('kind', '=', 'slack').execute();
    const first = await jobs();
    expect(first).toHaveLength(2);
    // One was rate-limited (pending, to retry); the private channel without the bot failed for good.
    const byChannel = (rows: typeof first, channel: string) => rows.find((j) => j.payload.includes(`"to":"${channel}"`))!;
    expect(byChannel(first, 'G03PRIVATE')).toMatchObject({ status: 'failed', last_error: 'Slack chat.postMessage failed: not_in_channel' });
    const limited = byChannel(first, 'C01GENERAL');
    expect(limited.status).toBe('pending');
    expect(limited.last_error).toBe('Slack chat.postMessage failed: ratelimited');

    clock.advance(60_000);
    await server.connectivity.worker.runDue();
    expect(byChannel(await jobs(), 'C01GENERAL').status).toBe('succeeded');
    expect(slack.posted.filter((p) => p.channel === 'C01GENERAL' && p.text?.includes('user.locked'))).toHaveLength(1);
  });
});

it('pages through conversations.list with its cursor', async () => {
  const many = await startTestSlack({ channels: Array.from({ length: 450 }, (_, i) => ({ id: `C${String(i).padStart(6, '0')}`, name: `channel-${String(i).padStart(3, '0')}`, isMember: true })) });
  try {
    const api = createSlackApi({ apiBaseUrl: many.apiBaseUrl, clientId: SLACK_TEST_CLIENT_ID, clientSecret: SLACK_TEST_CLIENT_SECRET });
    const approved = many.approve(`${many.authorizeUrl}?client_id=${SLACK_TEST_CLIENT_ID}&scope=chat:write,channels:read,groups:read&state=s`);
    const grant = await api.oauthAccess({ code: approved.code, redirectUri: null });
    const channels = await api.listChannels(grant.accessToken);
    expect(channels).toHaveLength(450);
    expect(channels[0]).toEqual({ id: 'C000000', name: 'channel-000' });
    expect(many.requests.filter((r) => r.method === 'conversations.list').map((r) => r.body.cursor ?? null)).toEqual([null, expect.any(String), expect.any(String)]);
  } finally {
    await many.stop();
  }
});
