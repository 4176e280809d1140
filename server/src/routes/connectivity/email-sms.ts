/**
 * Email and SMS subscriptions of the caller's tenant (issue 16; seed 001 sections 3, 5, 7 "get/post
 * config for email, sms; patch and put/delete subscriptions"): reading needs
 * fe.connectivity.read.emailConfig (smsConfig), every change the write key, and is audited.
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import {
  ChannelConfigList,
  ChannelEventConfig,
  ChannelEventKey,
  ChannelPaths,
  PatchChannelEventRequest,
  Permissions,
  PutEmailSubscriptionRequest,
  PutSmsSubscriptionRequest,
  SaveEmailConfigRequest,
  SaveSmsConfigRequest,
  type PermissionKey,
} from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import type { ChannelSubscriptionService, SubscriptionChannel } from '../../services/connectivity/channels';
import { adminErrors, guardFor, TenantQuery } from '../admin/shared';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';

const EventParam = z.object({ eventKey: ChannelEventKey });
const SubscriptionParam = EventParam.extend({ id: z.string().min(1).max(64) });

interface ChannelSpec {
  channel: SubscriptionChannel;
  label: string;
  recipients: string;
  read: PermissionKey;
  write: PermissionKey;
  paths: { list: string; event: string; subscription: string };
  save: typeof SaveEmailConfigRequest | typeof SaveSmsConfigRequest;
  put: typeof PutEmailSubscriptionRequest | typeof PutSmsSubscriptionRequest;
}

const EMAIL: ChannelSpec = {
  channel: 'email',
  label: 'email',
  recipients: 'email addresses',
  read: Permissions.emailConfigRead,
  write: Permissions.emailConfigWrite,
  paths: { list: ChannelPaths.email, event: ChannelPaths.emailEvent, subscription: ChannelPaths.emailSubscription },
  save: SaveEmailConfigRequest,
  put: PutEmailSubscriptionRequest,
};

const SMS: ChannelSpec = {
  channel: 'sms',
  label: 'SMS',
  recipients: 'phone numbers in international format',
  read: Permissions.smsConfigRead,
  write: Permissions.smsConfigWrite,
  paths: { list: ChannelPaths.sms, event: ChannelPaths.smsEvent, subscription: ChannelPaths.smsSubscription },
  save: SaveSmsConfigRequest,
  put: PutSmsSubscriptionRequest,
};

function channelRoutes(deps: RouteDeps, service: ChannelSubscriptionService, spec: ChannelSpec): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const guard = guardFor(deps, deps.clock);
  const read = guard(spec.read, 'read');
  const write = guard(spec.write, 'write');
  const tags = [`admin: connectivity ${spec.label}`];
  const badBody = err(`Invalid body: an unknown eventKey, a recipient that is not one of ${spec.recipients}, more than 20 recipients or 10 subscriptions; the message names the field`);

  app.openapi(
    createRoute({
      method: 'get',
      path: spec.paths.list,
      tags,
      summary: `Lists the ${spec.label} configuration of every event key that has one: its switch and subscriptions`,
      ...read,
      request: { query: TenantQuery },
      responses: { 200: json(ChannelConfigList, 'The configurations, by event key'), ...adminErrors },
    }),
    async (c) => c.json(await service.list(c.get('admin'), spec.channel), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: spec.paths.list,
      tags,
      summary: `Saves an event key's ${spec.label} configuration: subscriptions with an id are updated (no recipients: deleted), the others created when they have recipients`,
      ...write,
      request: { query: TenantQuery, ...body(spec.save) },
      responses: { 200: json(ChannelEventConfig, 'The event key as saved'), 400: badBody, ...adminErrors },
    }),
    async (c) => c.json(await service.save(c.get('admin'), spec.channel, c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: spec.paths.event,
      tags,
      summary: `Switches ${spec.label} notifications of an event key on or off (its subscriptions stay)`,
      ...write,
      request: { params: EventParam, query: TenantQuery, ...body(PatchChannelEventRequest) },
      responses: { 200: json(ChannelEventConfig, 'The event key as saved'), 400: err('Invalid body, or eventKey is not an event key of the catalogue'), ...adminErrors },
    }),
    async (c) => c.json(await service.setEnabled(c.get('admin'), spec.channel, c.req.valid('param').eventKey, c.req.valid('json').enabled), 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: spec.paths.subscription,
      tags,
      summary: `Replaces one ${spec.label} subscription; with no recipients left it is deleted`,
      ...write,
      request: { params: SubscriptionParam, query: TenantQuery, ...body(spec.put) },
      responses: { 200: json(ChannelEventConfig, 'The event key as saved'), 400: badBody, ...adminErrors },
    }),
    async (c) => {
      const { eventKey, id } = c.req.valid('param');
      return c.json(await service.putSubscription(c.get('admin'), spec.channel, eventKey, id, c.req.valid('json')), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: spec.paths.subscription,
      tags,
      summary: `Deletes one ${spec.label} subscription`,
      ...write,
      request: { params: SubscriptionParam, query: TenantQuery },
      responses: { 204: { description: 'Deleted' }, 400: err('eventKey is not an event key of the catalogue'), ...adminErrors },
    }),
    async (c) => {
      const { eventKey, id } = c.req.valid('param');
      await service.deleteSubscription(c.get('admin'), spec.channel, eventKey, id);
      return c.body(null, 204);
    },
  );

  return app;
}

export const emailRoutes = (deps: RouteDeps, service: ChannelSubscriptionService) => channelRoutes(deps, service, EMAIL);
export const smsRoutes = (deps: RouteDeps, service: ChannelSubscriptionService) => channelRoutes(deps, service, SMS);
