import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { AdminPaths, CreateInviteLinkRequest, InviteLink, JoinByInviteLinkRequest, JoinByInviteLinkResponse, Permissions, UpdateInviteLinkRequest, VerifyInviteLinkRequest, VerifyInviteLinkResponse } from '@gatehouse/shared/wire';
import type { Clock } from '../../clock';
import type { AppEnv } from '../../http/env';
import { rateLimitedResponse, validationHook } from '../../http/errors';
import { clientIp, emailLinkBase, requireAuth } from '../../http/middleware';
import type { InviteLinkService } from '../../services/admin/invite-links';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';
import { adminErrors, guardFor, TenantQuery } from './shared';

const tags = ['admin: invite links'];

/**
 * The tenant's invite link (seed 001 section 7 "invite links get, create, update, delete"). The link
 * lets anyone holding it join, so even reading it needs fe.secure.write.users.
 */
export function inviteLinkRoutes(deps: RouteDeps, clock: Clock, links: InviteLinkService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const write = guardFor(deps, clock)(Permissions.usersWrite, 'write');
  const read = guardFor(deps, clock)(Permissions.usersWrite, 'read');
  const link = json(InviteLink, 'The invite link');

  app.openapi(
    createRoute({ method: 'get', path: AdminPaths.inviteLink, tags, summary: "The tenant's invite link", ...read, request: { query: TenantQuery }, responses: { 200: link, ...adminErrors } }),
    async (c) => c.json(await links.get(c.get('admin'), emailLinkBase(c, deps.config)), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: AdminPaths.inviteLink,
      tags,
      summary: 'Creates the invite link (expiresInMinutes, default 43200); an expired one is replaced',
      ...write,
      request: { query: TenantQuery, ...body(CreateInviteLinkRequest) },
      responses: { 201: link, 400: err('Invalid body'), 409: err('The tenant already has a live invite link'), ...adminErrors },
    }),
    async (c) => c.json(await links.create(c.get('admin'), c.req.valid('json'), emailLinkBase(c, deps.config)), 201),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: AdminPaths.inviteLink,
      tags,
      summary: 'Sets the invite link to expire expiresInMinutes from now (same token)',
      ...write,
      request: { query: TenantQuery, ...body(UpdateInviteLinkRequest) },
      responses: { 200: link, 400: err('Invalid body'), ...adminErrors },
    }),
    async (c) => c.json(await links.update(c.get('admin'), c.req.valid('json'), emailLinkBase(c, deps.config)), 200),
  );

  app.openapi(
    createRoute({ method: 'delete', path: AdminPaths.inviteLink, tags, summary: 'Deletes the invite link: it stops working at once', ...write, request: { query: TenantQuery }, responses: { 204: { description: 'Deleted' }, ...adminErrors } }),
    async (c) => {
      await links.remove(c.get('admin'));
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: AdminPaths.inviteLinkJoin,
      tags,
      summary: "The signed-in user joins the invite link's tenant with its default roles (then switches to it with PUT users v1 tenant)",
      security: [{ Bearer: [] }],
      middleware: [requireAuth(deps.auth)] as const,
      request: body(JoinByInviteLinkRequest),
      responses: { 200: json(JoinByInviteLinkResponse, 'Joined (or already a member)'), 400: err('Invalid or expired link'), 401: err('Not signed in'), 403: err("An impersonation session, or the tenant's email-domain restrictions refuse the user's address (ER-02803)"), 429: rateLimitedResponse },
    }),
    async (c) => c.json(await links.join(c.get('auth'), c.req.valid('json').token, { ip: clientIp(c, deps.config), userAgent: c.req.header('user-agent') ?? null }), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: AdminPaths.inviteLinkVerify,
      // Public (the login box greets the visitor with the tenant's name), so not an admin: tag.
      tags: ['invite links'],
      summary: "Verify invite token returns name: the invite link's tenant name (same 404 for unknown, expired or deleted)",
      request: body(VerifyInviteLinkRequest),
      responses: { 200: json(VerifyInviteLinkResponse, "The tenant's name"), 400: err('Invalid body'), 404: err("We couldn't verify your invitation"), 429: rateLimitedResponse },
    }),
    async (c) => c.json(await links.verify(c.req.valid('json').token, { ip: clientIp(c, deps.config) }), 200),
  );

  return app;
}

