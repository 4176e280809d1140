/**
 * The Slack channel of the caller's tenant (issue 16; seed 001 sections 3, 5, 7 "get/post config for
 * slack; slack channels, scope, code"): reading needs fe.connectivity.read.slackApp, connecting,
 * saving and disconnecting fe.connectivity.write.slackApp; changes are audited. The bot token never
 * leaves the server.
 */
import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { ChannelPaths, Permissions, SaveSlackConfigRequest, SlackChannelList, SlackCodeRequest, SlackCodeResponse, SlackConfig, SlackScopeResponse } from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import type { SlackService } from '../../services/connectivity/slack';
import { adminErrors, guardFor, TenantQuery } from '../admin/shared';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';

const tags = ['admin: connectivity Slack'];
const slackFailed = { 502: err("ER-16303: Slack refused the call or could not be reached; Slack's error code is in the message") };
const notConnected = { 409: err('ER-16304: no Slack workspace is connected to the account') };
/** As billing answers an unconfigured payment provider: a state of the deployment, not a server fault. */
const notConfigured = { 409: err('ER-16301: the operator has not set SLACK_CLIENT_ID and SLACK_CLIENT_SECRET') };

export function slackRoutes(deps: RouteDeps, slack: SlackService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const guard = guardFor(deps, deps.clock);
  const read = guard(Permissions.slackAppRead, 'read');
  const write = guard(Permissions.slackAppWrite, 'write');

  app.openapi(
    createRoute({
      method: 'get',
      path: ChannelPaths.slack,
      tags,
      summary: 'The Slack configuration: whether a workspace is connected, its name, and the subscriptions (slackEvents with channelIds)',
      ...read,
      request: { query: TenantQuery },
      responses: { 200: json(SlackConfig, 'The configuration (id null before the first save or connection)'), ...adminErrors },
    }),
    async (c) => c.json(await slack.get(c.get('admin')), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: ChannelPaths.slack,
      tags,
      summary: 'Saves Slack subscriptions: those with an id are updated (empty channelIds: deleted), the others created when they name channels',
      ...write,
      request: { query: TenantQuery, ...body(SaveSlackConfigRequest) },
      responses: { 200: json(SlackConfig, 'The configuration as saved'), 400: err('Invalid body: an unknown eventKey or a malformed channel id; the message names the field'), ...adminErrors },
    }),
    async (c) => c.json(await slack.save(c.get('admin'), c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: ChannelPaths.slack,
      tags,
      summary: "Disconnects Slack: deletes the workspace's bot token and every Slack subscription, and revokes the token at Slack",
      ...write,
      request: { query: TenantQuery },
      responses: { 204: { description: 'Disconnected (also when nothing was connected)' }, ...adminErrors },
    }),
    async (c) => {
      await slack.disconnect(c.get('admin'));
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: ChannelPaths.slackScope,
      tags,
      summary: "What the portal needs to send the admin to Slack's authorize page: the client id, the scopes and a single-use state (10 minutes, bound to the admin and the account)",
      ...write,
      request: { query: TenantQuery },
      responses: { 200: json(SlackScopeResponse, 'Client id, scopes, authorize URL and state'), ...adminErrors, ...notConfigured },
    }),
    async (c) => c.json(await slack.scope(c.get('admin')), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: ChannelPaths.slackCode,
      tags,
      summary: "Finishes connecting Slack: checks the state (single use, this admin and account) and exchanges the code for the workspace's bot token",
      ...write,
      request: { query: TenantQuery, ...body(SlackCodeRequest) },
      responses: {
        200: json(SlackCodeResponse, 'Connected'),
        400: err('Invalid body, or ER-16302: the state is unknown, expired, already used, or another admin\'s or account\'s'),
        ...adminErrors,
        ...slackFailed,
        ...notConfigured,
      },
    }),
    async (c) => c.json(await slack.exchangeCode(c.get('admin'), c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: ChannelPaths.slackChannels,
      tags,
      summary: "The connected workspace's public and private channels the app can see (not archived), by name",
      ...read,
      request: { query: TenantQuery },
      responses: { 200: json(SlackChannelList, 'The channels'), ...adminErrors, ...notConnected, ...slackFailed },
    }),
    async (c) => c.json(await slack.channels(c.get('admin')), 200),
  );

  return app;
}
