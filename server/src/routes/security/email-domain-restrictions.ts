/**
 * Email-domain restrictions of the caller's tenant (issue 12; seed 001 sections 3 "Domain
 * restriction", 7): reading needs fe.secure.read.securityPolicy, every change
 * fe.secure.write.securityPolicy and is audited.
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import {
  BulkEmailDomainRestrictionsRequest,
  CreateEmailDomainRestrictionRequest,
  EmailDomainRestriction,
  EmailDomainRestrictionConfig,
  EmailDomainRestrictionList,
  EmailDomainVerifyRequest,
  EmailDomainVerifyResponse,
  Permissions,
  RestrictionListQuery,
  SecurityPaths,
  UpdateEmailDomainRestrictionRequest,
} from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import type { EmailDomainRestrictionService } from '../../services/security/email-domain-restrictions';
import { adminErrors, guardFor, TenantQuery } from '../admin/shared';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';

const tags = ['admin: email-domain restrictions'];
const IdParam = z.object({ id: z.string().min(1).max(64) });
const duplicate = { 409: err('ER-01020: the domain is already on that list') };

export function emailDomainRestrictionRoutes(deps: RouteDeps, domains: EmailDomainRestrictionService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const guard = guardFor(deps, deps.clock);
  const read = guard(Permissions.securityPolicyRead, 'read');
  const write = guard(Permissions.securityPolicyWrite, 'write');

  app.openapi(
    createRoute({
      method: 'get',
      path: SecurityPaths.emailDomainRestrictions,
      tags,
      summary: "Lists the tenant's allowed and blocked email domains, oldest first, a page at a time",
      ...read,
      request: { query: TenantQuery.extend(RestrictionListQuery.shape) },
      responses: { 200: json(EmailDomainRestrictionList, 'A page of domains and how many there are'), 400: err('Invalid offset or limit'), ...adminErrors },
    }),
    async (c) => {
      const { offset, limit } = c.req.valid('query');
      return c.json(await domains.list(c.get('admin'), { offset, limit }), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: SecurityPaths.emailDomainRestrictions,
      tags,
      summary: 'Adds a domain (and its subdomains) to the allow or block list',
      ...write,
      request: { query: TenantQuery, ...body(CreateEmailDomainRestrictionRequest) },
      responses: { 201: json(EmailDomainRestriction, 'The entry'), 400: err('Invalid body; `domain` is not a domain name'), ...adminErrors, ...duplicate },
    }),
    async (c) => c.json(await domains.create(c.get('admin'), c.req.valid('json')), 201),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: SecurityPaths.emailDomainRestriction,
      tags,
      summary: 'Changes an entry: its domain or list',
      ...write,
      request: { params: IdParam, query: TenantQuery, ...body(UpdateEmailDomainRestrictionRequest) },
      responses: { 200: json(EmailDomainRestriction, 'The entry as saved'), 400: err('Invalid body'), ...adminErrors, ...duplicate },
    }),
    async (c) => c.json(await domains.update(c.get('admin'), c.req.valid('param').id, c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: SecurityPaths.emailDomainRestriction,
      tags,
      summary: 'Removes an entry',
      ...write,
      request: { params: IdParam, query: TenantQuery },
      responses: { 204: { description: 'Removed' }, ...adminErrors },
    }),
    async (c) => {
      await domains.remove(c.get('admin'), c.req.valid('param').id);
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: SecurityPaths.emailDomainRestrictionsBulk,
      tags,
      summary: 'Adds many domains at once (one already on that list is kept); one invalid domain saves none',
      ...write,
      request: { query: TenantQuery, ...body(BulkEmailDomainRestrictionsRequest) },
      responses: { 200: json(EmailDomainRestrictionList, 'The entries as saved'), 400: err('Invalid body; restrictions.N.domain names the bad entry'), ...adminErrors },
    }),
    async (c) => {
      const items = await domains.bulk(c.get('admin'), c.req.valid('json'));
      return c.json({ items, total: items.length }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: SecurityPaths.emailDomainRestrictionsConfig,
      tags,
      summary: 'Whether email-domain restrictions apply, which list decides, and whether public mail domains are kept out',
      ...read,
      request: { query: TenantQuery },
      responses: { 200: json(EmailDomainRestrictionConfig, 'The config (inactive until saved)'), ...adminErrors },
    }),
    async (c) => c.json(await domains.getConfig(c.get('admin')), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: SecurityPaths.emailDomainRestrictionsConfig,
      tags,
      summary: 'Saves the email-domain restriction config; takes effect at the next sign-up, invitation or email change',
      ...write,
      request: { query: TenantQuery, ...body(EmailDomainRestrictionConfig) },
      responses: { 200: json(EmailDomainRestrictionConfig, 'The config as saved'), 400: err('Invalid body'), ...adminErrors },
    }),
    async (c) => c.json(await domains.saveConfig(c.get('admin'), c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: SecurityPaths.emailDomainRestrictionsVerify,
      tags,
      summary: 'Would this email address be let into the tenant? And if not, why',
      ...read,
      request: { query: TenantQuery, ...body(EmailDomainVerifyRequest) },
      responses: { 200: json(EmailDomainVerifyResponse, 'The verdict'), 400: err('Invalid body'), ...adminErrors },
    }),
    async (c) => c.json(await domains.check(c.get('admin').tenantId, c.req.valid('json').email), 200),
  );

  return app;
}
