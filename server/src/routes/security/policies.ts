import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import {
  CaptchaPolicyBody, DryRunQuery, LockoutPolicy, LockoutPolicyBody, MfaPolicy, MfaPolicyBody, PasswordHistoryPolicy, PasswordHistoryPolicyBody, PasswordPolicy,
  PasswordPolicyBody, PasswordRotation, PasswordRotationBody, Permissions, PolicyDryRun, SecurityPaths, TenantCaptchaPolicy, UserEmailsPolicy, UserEmailsPolicyBody,
} from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import type { PolicyKind, SecurityPolicyService } from '../../services/security/policies';
import { adminErrors, guardFor, TenantQuery } from '../admin/shared';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';

const tags = ['admin: security policies'];

/** The seven tenant policies: path, kind, the body to save and the effective policy answered. */
const POLICIES: { kind: PolicyKind; path: string; name: string; body: z.ZodObject<z.ZodRawShape>; view: z.ZodType }[] = [
  { kind: 'mfa', path: SecurityPaths.mfaPolicy, name: 'MFA policy (enforcement, remember this device)', body: MfaPolicyBody, view: MfaPolicy },
  { kind: 'lockout', path: SecurityPaths.lockoutPolicy, name: 'lockout policy', body: LockoutPolicyBody, view: LockoutPolicy },
  { kind: 'password-history', path: SecurityPaths.passwordHistoryPolicy, name: 'password history policy', body: PasswordHistoryPolicyBody, view: PasswordHistoryPolicy },
  { kind: 'password', path: SecurityPaths.passwordPolicy, name: 'password rules', body: PasswordPolicyBody, view: PasswordPolicy },
  { kind: 'password-rotation', path: SecurityPaths.passwordRotation, name: 'password rotation (days)', body: PasswordRotationBody, view: PasswordRotation },
  { kind: 'captcha', path: SecurityPaths.captchaPolicy, name: 'captcha policy', body: CaptchaPolicyBody, view: TenantCaptchaPolicy },
  { kind: 'user-emails', path: SecurityPaths.userEmailsPolicy, name: 'user emails policy', body: UserEmailsPolicyBody, view: UserEmailsPolicy },
];

const SaveQuery = TenantQuery.merge(DryRunQuery);
const saveErrors = {
  400: err("Invalid body (the message names the field), or looser than the vendor's policy (ER-02801, naming the vendor's value), or captcha without the vendor's keys (ER-02807)"),
  ...adminErrors,
};

/**
 * The tenant's security policies (issue 12; seed 001 section 7 "Security policies GET/POST/PATCH"):
 * GET answers the effective policy (`id` when the tenant has its own), POST saves a whole body,
 * PATCH any part of it over the effective one; both only tighten the vendor's, write an audit row,
 * and with `?dryRun=true` answer what the save would do instead of saving.
 */
export function securityPolicyRoutes(deps: RouteDeps, policies: SecurityPolicyService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const guard = guardFor(deps, deps.clock);
  const read = guard(Permissions.securityPolicyRead, 'read');
  const write = guard(Permissions.securityPolicyWrite, 'write');

  for (const p of POLICIES) {
    const saved = json(z.union([p.view, PolicyDryRun]), 'The saved effective policy with its id; with ?dryRun=true, what saving would do (nothing saved)');

    app.openapi(
      createRoute({ method: 'get', path: p.path, tags, summary: `The tenant's effective ${p.name}: the vendor's, tightened by the tenant's own (id set when it has one)`, ...read, request: { query: TenantQuery }, responses: { 200: json(p.view, 'The effective policy'), ...adminErrors } }),
      async (c) => c.json(await policies.read(c.get('admin'), p.kind), 200),
    );

    for (const method of ['post', 'patch'] as const) {
      const schema = method === 'post' ? p.body : p.body.partial().strict();
      app.openapi(
        createRoute({
          method,
          path: p.path,
          tags,
          summary: `${method === 'post' ? 'Saves' : 'Changes part of'} the tenant's ${p.name} (creates it, or updates the tenant's own); tighten only; ?dryRun=true previews the effects`,
          ...write,
          request: { query: SaveQuery, ...body(schema) },
          responses: { 200: saved, ...saveErrors },
        }),
        async (c) => {
          const input = c.req.valid('json') as Record<string, unknown>;
          return c.json(await policies.save(c.get('admin'), p.kind, input, { dryRun: c.req.valid('query').dryRun === 'true' }), 200);
        },
      );
    }
  }
  return app;
}
