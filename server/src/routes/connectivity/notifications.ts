/**
 * The portal's notifications (issue 16 "Notifications"; seed 001 sections 3 and 7): the caller's
 * list, read/unread, pinned/unpinned, mark-all-read, and a server-sent event stream of the unread
 * count. Every call is the caller's own: they see their tenant's notifications of the categories
 * their permissions reach (services/connectivity/notifications.ts), and change only their own state.
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import {
  ErrorCodes,
  NotificationList,
  NotificationListQuery,
  NotificationPaths,
  NotificationPinRequest,
  NotificationStatusRequest,
  NotificationUnread,
  NOTIFICATION_READER_PERMISSIONS,
  type PermissionKey,
} from '@gatehouse/shared/wire';
import type { MiddlewareHandler } from 'hono';
import { AppError } from '../../errors';
import { adminGuard } from '../../http/admin-guard';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import type { AdminAccess, AdminCaller } from '../../services/admin/access';
import { listNotifications, markAllRead, setPinStatus, setReadStatus, type NotificationReader } from '../../services/connectivity/notifications';
import { DEFAULT_STREAM_OPTIONS, openNotificationStream, type NotificationStreamOptions } from '../../services/connectivity/notification-stream';
import type { RouteDeps } from '../deps';
import { adminErrors, TenantQuery } from '../admin/shared';
import { body, err, json } from '../openapi';

const tags = ['admin: notifications'];

/** Every key that lets its holder read some category of notifications. */
const READER_PERMISSIONS = NOTIFICATION_READER_PERMISSIONS as readonly PermissionKey[];

/**
 * The admin guard, passed when the caller holds any key of some notification category (super users
 * hold all). Notifications are a person's: an API token is refused (its state would be its creator's).
 */
function readerGuard(deps: RouteDeps, access: AdminAccess): MiddlewareHandler<AppEnv> {
  const admin = adminGuard({ db: deps.db, auth: deps.auth, keys: deps.keys, clock: deps.clock, config: deps.config, ipRestrictions: deps.security.ipRestrictions });
  return async (c, next) => {
    for (const permission of READER_PERMISSIONS) {
      try {
        return await admin(permission, access)(c, async () => {
          if (c.get('admin').apiTokenId) throw new AppError(ErrorCodes.forbidden, 403, 'Notifications are read by people in the portal, not with API tokens');
          await next();
        });
      } catch (err) {
        // Only a missing permission tries the next key; 401, 404 and the API-token refusal answer at once.
        if ((err as AppError).status !== 403 || (err as AppError).context?.permission !== permission) throw err;
      }
    }
    throw new AppError(ErrorCodes.forbidden, 403, `You do not have permission to read notifications (${READER_PERMISSIONS.join(' or ')})`, { permission: READER_PERMISSIONS.join(' ') });
  };
}

function readerOf(caller: AdminCaller): NotificationReader {
  return { userId: caller.userId, tenantId: caller.tenantId, superUser: caller.superUser, keys: caller.keys };
}

const guarded = (deps: RouteDeps, access: AdminAccess) => ({ security: [{ Bearer: [] }], middleware: [readerGuard(deps, access)] });

// One parsed server-sent event, as OpenAPI 3.1 tools (schemathesis among them) read a
// text/event-stream schema: fields event, data, id and retry; a retry or comment line alone is no event.
const StreamEvent = z.object({
  event: z.literal('unread'),
  data: z.string().describe('JSON: {"unread": N}, the caller\'s unread count'),
  id: z.string().optional(),
  retry: z.number().int().optional(),
});

/** The notification routes; `stream` tunes the event stream (tests shorten its intervals). */
export function notificationRoutes(deps: RouteDeps, stream: Partial<NotificationStreamOptions> = {}): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const { db, clock } = deps;

  app.openapi(
    createRoute({
      method: 'get',
      path: NotificationPaths.list,
      tags,
      summary: "The caller's notifications: pinned first, then newest first, with the total and the unread count (admins of the tenant, by the permissions of each category)",
      ...guarded(deps, 'read'),
      request: { query: NotificationListQuery.merge(TenantQuery) },
      responses: { 200: json(NotificationList, 'One page of notifications'), 400: err('offset or limit out of range (limit 1-100)'), ...adminErrors },
    }),
    async (c) => {
      const { offset, limit } = c.req.valid('query');
      return c.json(await listNotifications(db, readerOf(c.get('admin')), { offset, limit }), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: NotificationPaths.status,
      tags,
      summary: 'Marks one notification read or unread for the caller; answers their unread count',
      ...guarded(deps, 'read'),
      request: { query: TenantQuery, ...body(NotificationStatusRequest) },
      responses: { 200: json(NotificationUnread, 'The caller\'s unread count after the change'), 400: err('A missing or invalid notificationId or status (the message names the field)'), ...adminErrors },
    }),
    async (c) => {
      const { notificationId, status } = c.req.valid('json');
      const unread = await setReadStatus(db, readerOf(c.get('admin')), notificationId, status, clock.now());
      return c.json({ unread }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: NotificationPaths.pin,
      tags,
      summary: 'Pins or unpins one notification for the caller (pinned ones list first); answers their unread count',
      ...guarded(deps, 'read'),
      request: { query: TenantQuery, ...body(NotificationPinRequest) },
      responses: { 200: json(NotificationUnread, "The caller's unread count"), 400: err('A missing or invalid notificationId or status (the message names the field)'), ...adminErrors },
    }),
    async (c) => {
      const { notificationId, status } = c.req.valid('json');
      const unread = await setPinStatus(db, readerOf(c.get('admin')), notificationId, status, clock.now());
      return c.json({ unread }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: NotificationPaths.markAllRead,
      tags,
      summary: 'Marks every notification the caller sees as read',
      ...guarded(deps, 'read'),
      request: { query: TenantQuery },
      responses: { 200: json(NotificationUnread, "The caller's unread count after (0)"), ...adminErrors },
    }),
    async (c) => c.json({ unread: await markAllRead(db, readerOf(c.get('admin')), clock.now()) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: NotificationPaths.stream,
      tags,
      summary:
        "Server-sent events of the caller's unread count: `event: unread` with `{\"unread\":N}` on connect and on every change, a comment line as heartbeat. Streams while the request accepts text/event-stream (up to 10 minutes, then the client reconnects); any other request gets the first event and the end. At most 3 open streams per user: a 4th closes the oldest.",
      ...guarded(deps, 'read'),
      request: { query: TenantQuery },
      responses: {
        200: { description: 'The event stream', content: { 'text/event-stream': { schema: StreamEvent } } },
        ...adminErrors,
      },
    }),
    async (c) => {
      const live = (c.req.header('accept') ?? '').toLowerCase().includes('text/event-stream');
      const caller = c.get('admin');
      // The stream ends when the access token that opened it expires (the client reconnects with a
      // fresh one, and the permissions and session it has then), never later than its lifetime.
      const untilExpiry = caller.auth.claims.exp * 1000 - clock.now();
      const lifetimeMs = Math.max(1, Math.min(stream.lifetimeMs ?? DEFAULT_STREAM_OPTIONS.lifetimeMs, untilExpiry));
      const res = openNotificationStream({ db, reader: readerOf(caller), signal: c.req.raw.signal, live, ...stream, lifetimeMs });
      return res as never;
    },
  );

  return app;
}
