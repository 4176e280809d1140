import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { ApiPaths, CaptchaPolicyResponse, type CaptchaAction } from '@gatehouse/shared/wire';
import type { Context } from 'hono';
import type { CaptchaConfig } from '../../config';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import { clientIp } from '../../http/middleware';
import type { RouteDeps } from '../deps';
import { err, json } from '../openapi';

/** The 503 of every captcha-protected route, for its OpenAPI description. */
export const captchaUnavailableResponse = err('A captcha policy is set and its verify URL could not answer: refused (fails closed)');

/**
 * The captcha check a protected route runs first, before it touches any credential: nothing
 * without a policy; else the call's recaptchaToken must pass for `action` (400 / 503 otherwise).
 * A call through an invite link names its tenant, whose captcha policy may ask a higher score.
 */
export async function checkCaptcha(
  c: Context,
  deps: Pick<RouteDeps, 'captcha' | 'config' | 'security'>,
  action: CaptchaAction,
  body: { recaptchaToken?: string; email?: string | null; username?: string; phoneNumber?: string; invitationToken?: string },
): Promise<void> {
  // An ignored email counts only when it is what the call acts on: a passwordless prelogin naming one
  // next to a username or phone number emails or texts those, so it must not skip the check. (A
  // sign-up's phone number is only a profile field of the email's new account.)
  const actsOnAnother = action !== 'signup' && Boolean(body.username || body.phoneNumber);
  const email = actsOnAnother ? null : (body.email ?? null);
  const minScore = body.invitationToken ? await deps.security.policies.captchaMinScoreOfInvitation(body.invitationToken) : undefined;
  return deps.captcha.verify(body.recaptchaToken, { action, ip: clientIp(c, deps.config), email, minScore });
}

/**
 * The frame sources a page under a strict CSP must allow for the captcha script: reCAPTCHA does its
 * work in frames from the script's site (Google also uses recaptcha.google.com). None without a policy.
 */
export function captchaFrameSources(captcha: Pick<CaptchaConfig, 'scriptUrl'> | null): string[] {
  if (!captcha) return [];
  const script = new URL(captcha.scriptUrl);
  return script.hostname === 'www.google.com' ? ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'] : [script.origin];
}

/** GET captcha-policy/public: what the login box needs to run reCAPTCHA v3 (never the secret). */
export function captchaPolicyRoutes(deps: RouteDeps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.openapi(
    createRoute({
      method: 'get',
      path: ApiPaths.captchaPolicyPublic,
      tags: ['public'],
      summary: 'The captcha policy: whether sign-in, sign-up, passwordless and reset requests need a reCAPTCHA v3 token, the site key and the script',
      responses: { 200: json(CaptchaPolicyResponse, 'The public captcha policy (enabled false when none is set)') },
    }),
    (c) => c.json(deps.captcha.policy(), 200),
  );
  return app;
}
