import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import {
  ActivateRequest,
  ActivateStrategyResponse,
  ApiPaths,
  LoginResponse,
  PasswordConfig,
  ResendActivationRequest,
  ActivateWithCodeRequest,
  SelfServicePaths,
  SignUpRequest,
  SignUpResponse,
  SignUpStrategiesResponse,
} from '@gatehouse/shared/wire';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Config } from '../../config';
import { sameSite, setRefreshCookie } from '../../http/cookies';
import type { AppEnv } from '../../http/env';
import { rateLimitedResponse, validationHook } from '../../http/errors';
import { clientIp, requireAllowedOrigin, emailLinkBase } from '../../http/middleware';
import type { SignUpService } from '../../services/users/signup';
import type { RouteDeps } from '../deps';
import { captchaUnavailableResponse, checkCaptcha } from '../platform/captcha-policy';
import { json, err, body } from '../openapi';

/** Binds a sign-up to the browser that made it; sent only to the activation endpoints. */
export const SIGNUP_COOKIE = 'gatehouse-signup';
const SIGNUP_COOKIE_PATH = ApiPaths.activate;

type CookieConfig = Pick<Config, 'cookieSameSite' | 'cookieSecure' | 'activationTokenTtl'>;

/** Same SameSite/Secure rules as the refresh cookie. */
function signUpCookieOptions(config: CookieConfig) {
  return { httpOnly: true, secure: config.cookieSecure, sameSite: sameSite(config.cookieSameSite), path: SIGNUP_COOKIE_PATH } as const;
}

function setSignUpCookie(c: Context, config: CookieConfig, binding: string): void {
  setCookie(c, SIGNUP_COOKIE, binding, { ...signUpCookieOptions(config), maxAge: config.activationTokenTtl });
}

function readSignUpCookie(c: Context): string | undefined {
  return getCookie(c, SIGNUP_COOKIE) || undefined;
}

function clearSignUpCookie(c: Context, config: CookieConfig): void {
  deleteCookie(c, SIGNUP_COOKIE, signUpCookieOptions(config));
}

/** Sign-up, activation and the public password/sign-up configuration. */
export function signUpRoutes(deps: RouteDeps, signUp: SignUpService): OpenAPIHono<AppEnv> {
  const { config } = deps;
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  app.openapi(
    createRoute({
      method: 'post',
      path: ApiPaths.signUp,
      tags: ['sign-up'],
      request: body(SignUpRequest),
      responses: { 200: json(SignUpResponse, 'Created; an activation link was emailed'), 400: err('Invalid body, password policy, or (captcha policy set) a missing or refused recaptchaToken'), 403: err("Sign up disabled, or (through an invite link) the tenant's email-domain restrictions refuse the address (ER-02803)"), 409: err('User already exists'), 429: rateLimitedResponse, 503: captchaUnavailableResponse },
    }),
    async (c) => {
      await checkCaptcha(c, deps, 'signup', c.req.valid('json'));
      const { response, binding } = await signUp.signUp(c.req.valid('json'), emailLinkBase(c, config), c.get('client'));
      setSignUpCookie(c, config, binding);
      return c.json(response, 200);
    },
  );

  app.openapi(
    createRoute({ method: 'get', path: ApiPaths.signUpStrategies, tags: ['sign-up'], responses: { 200: json(SignUpStrategiesResponse, 'Enabled sign-up strategies') } }),
    (c) => c.json(signUp.strategies(), 200),
  );

  app.openapi(
    createRoute({ method: 'get', path: ApiPaths.passwordsConfig, tags: ['sign-up'], responses: { 200: json(PasswordConfig, 'Password policy') } }),
    (c) => c.json({ ...config.password }, 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: ApiPaths.activateStrategy,
      tags: ['activation'],
      request: { query: z.object({ userId: z.string().min(1).max(64), token: z.string().min(1).max(512) }) },
      responses: { 200: json(ActivateStrategyResponse, 'Whether activation must set a password'), 400: err('Invalid or expired link'), 429: rateLimitedResponse },
    }),
    async (c) => {
      const q = c.req.valid('query');
      return c.json(await signUp.activationStrategy(q.userId, q.token, { ip: clientIp(c, config) }, readSignUpCookie(c)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: ApiPaths.activate,
      tags: ['activation'],
      summary: 'Activate the account (single-use link) and sign in',
      middleware: [requireAllowedOrigin(config)] as const,
      request: body(ActivateRequest),
      responses: { 200: json(LoginResponse, 'Activated and signed in; refresh cookie set'), 400: err('Invalid or expired link, or password policy'), 429: rateLimitedResponse },
    }),
    async (c) => {
      const issued = await signUp.activate(c.req.valid('json'), { ...c.get('client') }, readSignUpCookie(c));
      setRefreshCookie(c, config, issued.refreshToken);
      clearSignUpCookie(c, config);
      return c.json(issued.response, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: SelfServicePaths.activateWithCode,
      tags: ['activation'],
      summary: 'Activate the account with the code printed in the activation email (activateWithOTCUrl) and sign in',
      description:
        'The 6-digit code of the newest activation email, with the address that signed up (or the userId of the sign-up answer). Single use, 5 wrong tries per email; one answer (ER-02704) for an unknown address, an active account and a wrong, used or expired code. The browser that signed up needs no password; any other must choose one here.',
      middleware: [requireAllowedOrigin(config)] as const,
      request: body(ActivateWithCodeRequest),
      responses: {
        200: json(LoginResponse, 'Activated and signed in; refresh cookie set'),
        400: err('Invalid or expired code (ER-02704), password required, or password policy'),
        403: err('Origin not allowed, or the user is disabled'),
        429: rateLimitedResponse,
      },
    }),
    async (c) => {
      const issued = await signUp.activateWithCode(c.req.valid('json'), { ...c.get('client') }, readSignUpCookie(c));
      setRefreshCookie(c, config, issued.refreshToken);
      clearSignUpCookie(c, config);
      return c.json(issued.response, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: ApiPaths.activateResend,
      tags: ['activation'],
      summary: 'Resend the activation email (same answer whether or not the account exists)',
      request: body(ResendActivationRequest),
      responses: { 200: json(z.object({}), 'Accepted (also when nothing was sent)'), 429: rateLimitedResponse },
    }),
    async (c) => {
      await signUp.resendActivation(c.req.valid('json').email, emailLinkBase(c, config), c.get('client'));
      return c.json({}, 200);
    },
  );

  return app;
}
