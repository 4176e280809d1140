import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { ApiPaths, PhoneSignUpRequest, SignUpResponse } from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { rateLimitedResponse, validationHook } from '../../http/errors';
import { clientIp } from '../../http/middleware';
import type { PhoneSignUpService } from '../../services/users/phone-signup';
import { captchaUnavailableResponse, checkCaptcha } from '../platform/captcha-policy';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';

/** Sign-up by phone number: `POST users v1 signUp/phoneNumber` (seed 000 section 7.3). */
export function phoneSignUpRoutes(deps: RouteDeps, phoneSignUp: PhoneSignUpService): OpenAPIHono<AppEnv> {
  const { config } = deps;
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  app.openapi(
    createRoute({
      method: 'post',
      path: ApiPaths.signUpPhoneNumber,
      tags: ['sign-up'],
      summary:
        'Create an account identified by a phone number (no email, no password). It is activated by proving the number: request an SMS code with passwordless/smscode/prelogin { phoneNumber }, then passwordless/smscode/postlogin { phoneNumber, code } verifies the number and signs in.',
      request: body(PhoneSignUpRequest),
      responses: {
        200: json(SignUpResponse, 'Created, waiting for the texted code (shouldActivate true)'),
        400: err("'Phone number is required for phone number signup', a number not in international format, the email strategy required, or (captcha policy set) a missing or refused recaptchaToken"),
        403: err('Sign up, or sign-up by phone number, is disabled'),
        409: err('An account already verified this phone number'),
        429: rateLimitedResponse,
        503: captchaUnavailableResponse,
      },
    }),
    async (c) => {
      await checkCaptcha(c, deps, 'signup', c.req.valid('json'));
      return c.json(await phoneSignUp.signUp(c.req.valid('json'), { ip: clientIp(c, config) }), 200);
    },
  );

  return app;
}
