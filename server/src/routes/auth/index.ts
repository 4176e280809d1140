/** The auth area: password sign-in, sessions and tokens, with lockout, rotation and breached-password policies. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/env';
import { createAuthService, type AuthService } from '../../services/auth/auth';
import { createPasswordPolicyService, type PasswordPolicyService } from '../../services/auth/password-policies';
import type { AreaContext, RouteDeps, SecondFactor } from '../deps';
import { sessionRoutes } from './session';
import { unlockRoutes } from './unlock';

export interface AuthArea {
  auth: AuthService;
  policies: PasswordPolicyService;
}

/**
 * Builds auth and registers its routes. `secondFactor` is asked once a password is proven; it is the
 * MFA area's gate, and MFA is built on auth, so it comes as a closure first called at a sign-in.
 */
export function authArea(app: OpenAPIHono<AppEnv>, ctx: AreaContext, areas: { secondFactor: SecondFactor }): AuthArea {
  const { db, mail, emails, clock, keys, limiter, config } = ctx;
  const policies = createPasswordPolicyService({ db, mail, emails, clock, limiter, config, security: ctx.security.policies });
  const auth = createAuthService({ db, keys, clock, limiter, config, policies, secondFactor: areas.secondFactor, sessionPolicy: ctx.security.sessions, ipRestrictions: ctx.security.ipRestrictions, mfaPolicy: ctx.security.policies, entitlements: ctx.entitlements });
  const deps: RouteDeps = { ...ctx, auth };
  app.route('/', sessionRoutes(deps));
  app.route('/', unlockRoutes(deps, policies));
  return { auth, policies };
}
