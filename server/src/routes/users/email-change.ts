import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { ChangeEmailRequest, ChangeEmailResponse, SelfServicePaths, VerifyEmailChangeRequest, VerifyEmailChangeResponse } from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { rateLimitedResponse, validationHook } from '../../http/errors';
import { emailLinkBase, requireAuth } from '../../http/middleware';
import type { EmailChangeService } from '../../services/users/email-change';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';

/** The signed-in user's change of email address: ask (email/me), then prove the new address (email/me/verify). */
export function emailChangeRoutes(deps: RouteDeps, emailChange: EmailChangeService): OpenAPIHono<AppEnv> {
  const { auth, config } = deps;
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  app.openapi(
    createRoute({
      method: 'post',
      path: SelfServicePaths.changeEmail,
      tags: ['users'],
      summary: "Ask to change the signed-in user's email address: the new address gets a link and a 6-digit code (30 minutes)",
      description: 'Needs a recent sign-in, or a recent step-up once the account has a second factor. Nothing changes until the new address is proven through email/me/verify; a newer request ends the older link and code.',
      security: [{ Bearer: [] }],
      middleware: [requireAuth(auth)] as const,
      request: body(ChangeEmailRequest),
      responses: {
        200: json(ChangeEmailResponse, 'Link and code sent; the new address masked'),
        400: err('Invalid address, or the current one (ER-02703)'),
        401: err('Not signed in'),
        403: err("No recent sign-in (ER-01306) or step-up (ER-01307), errorContext.maxAge; an impersonation session; a tenant of the user whose email-domain restrictions refuse the new address (ER-02803); or the user-emails policy of a tenant of the user does not allow changing the address (ER-02806)"),
        409: err('The address belongs to another account (ER-02701)'),
        429: rateLimitedResponse,
      },
    }),
    // The user-emails policy of every tenant of the user (issue 12) may forbid changing the address (403 ER-02806).
    async (c) => c.json(await emailChange.request(c.get('auth'), c.req.valid('json').email, emailLinkBase(c, config)), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: SelfServicePaths.verifyEmailChange,
      tags: ['users'],
      summary: 'Prove the new email address: the link token (signed in or not) or the code (signed in); the new address replaces the old one, which is told',
      description: 'The Bearer token is optional: the emailed link works in any browser (signed in or not), the code only with the access token of the user who asked.',
      request: body(VerifyEmailChangeRequest),
      responses: {
        200: json(VerifyEmailChangeResponse, 'The address changed'),
        400: err('Wrong, used or expired link or code, or out of attempts (ER-02702)'),
        401: err('A code without a valid access token, or an invalid access token'),
        403: err("A tenant of the user whose email-domain restrictions refuse the new address (ER-02803), whose user-emails policy no longer allows the change (ER-02806), or whose IP restrictions refuse the caller's network (ER-IP-RESTRICTED)"),
        404: err("The access token's tenant is no longer one of the user's"),
        409: err('The address was taken by another account meanwhile (ER-02701)'),
      },
    }),
    async (c) => {
      const authorization = c.req.header('authorization');
      const ctx = authorization ? { ...(await auth.authenticate(authorization, undefined, c.get('client') ?? { ip: null })), client: c.get('client') } : null;
      return c.json(await emailChange.verify(c.req.valid('json'), ctx, c.get('client')), 200);
    },
  );

  return app;
}
