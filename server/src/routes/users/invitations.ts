import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import {
  AcceptInvitationRequest,
  AcceptInvitationResponse,
  AcceptInvitationWithCodeRequest,
  ApiPaths,
  Permissions,
  InvitationTokenRequest,
  InvitedUserResponse,
  InviteUserRequest,
  ResendInvitationRequest,
  VerifyInvitationResponse,
} from '@gatehouse/shared/wire';
import type { Context } from 'hono';
import { setRefreshCookie } from '../../http/cookies';
import type { AppEnv } from '../../http/env';
import { rateLimitedResponse, validationHook } from '../../http/errors';
import { clientIp, emailLinkBase, requireAllowedOrigin } from '../../http/middleware';
import type { Clock } from '../../clock';
import type { InvitationService } from '../../services/users/invitations';
import { guardFor, TenantQuery } from '../admin/shared';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';

/** Inviting a user into the current tenant (admin), and the invitee's side: verify, accept, resend. */
export function invitationRoutes(deps: RouteDeps, invitations: InvitationService, clock: Clock): OpenAPIHono<AppEnv> {
  const { config, auth } = deps;
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const originGuard = requireAllowedOrigin(config);
  // An admin call like those of routes/admin: tenant, permission, impersonation and API tokens by the admin guard.
  const inviteGuard = guardFor(deps, clock)(Permissions.usersWrite, 'write');
  const client = (c: Context<AppEnv>) => ({ ...c.get('client') });

  app.openapi(
    createRoute({
      method: 'post',
      path: ApiPaths.inviteUser,
      tags: ['admin: users'],
      summary: 'Invite a user into the tenant the caller acts in (token tenant, or ?tenantId=); emails an invitation link',
      ...inviteGuard,
      request: { query: TenantQuery, ...body(InviteUserRequest) },
      responses: {
        201: json(InvitedUserResponse, 'Invited; the invitation email was sent'),
        400: err('Invalid body, phone number or role'),
        401: err('Not signed in'),
        403: err('Missing permission fe.secure.write.users, a role beyond the inviter\'s own permissions, or an impersonation session'),
        409: err('Already a member of (or already invited to) this tenant'),
        429: rateLimitedResponse,
      },
    }),
    async (c) => c.json(await invitations.invite(c.get('admin'), c.req.valid('json'), emailLinkBase(c, config)), 201),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: ApiPaths.invitationVerify,
      tags: ['invitations'],
      summary: "Check an invitation link and get the invitee's name for the greeting (uses nothing up)",
      request: body(InvitationTokenRequest),
      responses: { 200: json(VerifyInvitationResponse, 'The invitation is live'), 400: err("We couldn't verify your invitation (or it was accepted, or expired)"), 403: err('User is disabled'), 429: rateLimitedResponse },
    }),
    async (c) => c.json(await invitations.verify(c.req.valid('json'), client(c)), 200),
  );

  const acceptResponses = {
    200: json(AcceptInvitationResponse, 'Accepted: signed in (refresh cookie set, or mfaRequired), or joined'),
    400: err('Invalid, used or expired invitation, wrong code, or password policy'),
    403: err("User is disabled, the tenant's email-domain restrictions refuse the address (ER-02803), or its IP restrictions the network (ER-IP-RESTRICTED)"),
    429: rateLimitedResponse,
  };

  app.openapi(
    createRoute({
      method: 'post',
      path: ApiPaths.invitationAccept,
      tags: ['invitations'],
      summary: 'Accept with the emailed link; a new account sets its password here and is signed in',
      middleware: [originGuard] as const,
      request: body(AcceptInvitationRequest),
      responses: acceptResponses,
    }),
    async (c) => {
      const { response, refreshToken } = await invitations.accept(c.req.valid('json'), client(c));
      if (refreshToken) setRefreshCookie(c, config, refreshToken);
      return c.json(response, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: ApiPaths.invitationAcceptCode,
      tags: ['invitations'],
      summary: 'Accept with the emailed link and the code printed in the invitation email (INVITATION_STRATEGY=code)',
      middleware: [originGuard] as const,
      request: body(AcceptInvitationWithCodeRequest),
      responses: acceptResponses,
    }),
    async (c) => {
      const { response, refreshToken } = await invitations.accept(c.req.valid('json'), client(c));
      if (refreshToken) setRefreshCookie(c, config, refreshToken);
      return c.json(response, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: ApiPaths.invitationResend,
      tags: ['invitations'],
      summary: 'Email a new invitation link for the newest open invitation of an address (same answer for any address)',
      request: body(ResendInvitationRequest),
      responses: { 200: json(z.object({}), 'Accepted (also when nothing was sent)'), 400: err('Invalid body'), 429: rateLimitedResponse },
    }),
    async (c) => {
      await invitations.resend(c.req.valid('json').email, emailLinkBase(c, config), client(c));
      return c.json({}, 200);
    },
  );

  return app;
}
