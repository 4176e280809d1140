import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import {
  CreateSsoConfigurationRequest, Permissions, SamlConfigurationRequest, SamlMetadataFileRequest, SamlMetadataUrlRequest, SsoConfiguration, SsoConfigurationParam, SsoDomainParam, SsoDomainRequest, SsoGroupsRequest,
  SsoPaths, SsoRolesRequest, SsoTestParam, SsoTestReport, SsoTestStartRequest, SsoTestStartResponse, UpdateSsoConfigurationRequest,
} from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import type { SsoConfigurationService } from '../../services/sso/configurations';
import type { SsoConnectionTestService } from '../../services/sso/connection-test';
import { guardFor, TenantQuery } from '../admin/shared';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';

/**
 * The tenant's SSO configuration (seed 001 section 7 "SSO"), for the admin portal's SSO section.
 * Through the admin guard: acts in the caller's tenant (or `?tenantId=`); read needs
 * fe.secure.read.samlConfiguration, changes need fe.secure.write.samlConfiguration and are audited.
 * Another tenant's configuration answers 404.
 */
export function ssoConfigurationRoutes(deps: RouteDeps, sso: SsoConfigurationService, tests: Pick<SsoConnectionTestService, 'start' | 'report'>): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const guard = guardFor(deps, deps.clock);
  const read = { tags: ['admin: SSO'], ...guard(Permissions.samlRead, 'read') };
  const one = json(SsoConfiguration, 'The configuration');
  const common = { 401: err('Not signed in'), 403: err('Missing permission, or an impersonation session (changes)'), 404: err('No such configuration in this tenant, or a tenant the caller cannot act in') };
  const guarded = { tags: ['admin: SSO'], ...guard(Permissions.samlWrite, 'write') };

  app.openapi(
    createRoute({
      method: 'get',
      path: SsoPaths.configurations,
      summary: "The tenant's SSO configurations (SAML and OIDC identity providers), with domains, default roles and group mappings",
      ...read,
      request: { query: TenantQuery },
      responses: { 200: json(z.array(SsoConfiguration), 'Every configuration of the tenant'), ...common },
    }),
    async (c) => c.json(await sso.list(c.get('admin')), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: SsoPaths.configurations,
      summary: 'Adds an identity provider (SAML: metadata next; OIDC: issuer, client id and secret now)',
      ...guarded,
      request: { query: TenantQuery, ...body(CreateSsoConfigurationRequest) },
      responses: { 201: json(SsoConfiguration, 'Created'), 400: err('Invalid body, an issuer that is not https, or signRequest without an SP key'), ...common },
    }),
    async (c) => c.json(await sso.create(c.get('admin'), c.req.valid('json')), 201),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: SsoPaths.configuration,
      summary: 'One SSO configuration',
      ...read,
      request: { params: SsoConfigurationParam, query: TenantQuery },
      responses: { 200: one, ...common },
    }),
    async (c) => c.json(await sso.get(c.get('admin'), c.req.valid('param').configId), 200),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: SsoPaths.configuration,
      summary: 'Turns a configuration on or off, asks for signed AuthnRequests, or changes its OIDC client',
      ...guarded,
      request: { params: SsoConfigurationParam, query: TenantQuery, ...body(UpdateSsoConfigurationRequest) },
      responses: { 200: one, 400: err('Invalid body'), ...common },
    }),
    async (c) => c.json(await sso.update(c.get('admin'), c.req.valid('param').configId, c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: SsoPaths.configuration,
      summary: 'Removes a configuration with its domains and group mappings (users it created stay)',
      ...guarded,
      request: { params: SsoConfigurationParam, query: TenantQuery },
      responses: { 204: { description: 'Removed' }, ...common },
    }),
    async (c) => {
      await sso.remove(c.get('admin'), c.req.valid('param').configId);
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: SsoPaths.metadata,
      summary: "Sets the IdP from its SAML metadata XML (an uploaded file's text): entity id, sign-in URL, signing certificates",
      ...guarded,
      request: { params: SsoConfigurationParam, query: TenantQuery, ...body(SamlMetadataFileRequest) },
      responses: { 200: one, 400: err('Not SAML, or the metadata is unreadable or lacks an HTTP-Redirect sign-in URL or a signing certificate'), ...common },
    }),
    async (c) => c.json(await sso.setMetadata(c.get('admin'), c.req.valid('param').configId, c.req.valid('json').metadata), 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: SsoPaths.metadataUrl,
      summary: "Sets the IdP from its SAML metadata URL (https, public address), fetched by the server now",
      ...guarded,
      request: { params: SsoConfigurationParam, query: TenantQuery, ...body(SamlMetadataUrlRequest) },
      responses: { 200: one, 400: err('Not SAML, a URL that is not https or not public, or metadata that could not be fetched or read'), ...common },
    }),
    async (c) => c.json(await sso.setMetadataUrl(c.get('admin'), c.req.valid('param').configId, c.req.valid('json').url), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: SsoPaths.domains,
      summary: 'Adds an email domain; it counts once validated through the TXT record in generatedVerification',
      ...guarded,
      request: { params: SsoConfigurationParam, query: TenantQuery, ...body(SsoDomainRequest) },
      responses: { 201: one, 400: err('Not a domain name'), 409: err('Already a domain of this configuration, or validated by another one'), ...common },
    }),
    async (c) => c.json(await sso.addDomain(c.get('admin'), c.req.valid('param').configId, c.req.valid('json').domain), 201),
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: SsoPaths.domain,
      summary: 'Removes a domain',
      ...guarded,
      request: { params: SsoDomainParam, query: TenantQuery },
      responses: { 200: one, ...common },
    }),
    async (c) => c.json(await sso.removeDomain(c.get('admin'), c.req.valid('param').configId, c.req.valid('param').domainId), 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: SsoPaths.validateDomain,
      summary: "Validates a domain: looks up its DNS TXT records for the generatedVerification value",
      ...guarded,
      request: { params: SsoDomainParam, query: TenantQuery },
      responses: { 200: one, 400: err('The TXT record was not found'), 409: err('Another configuration validated this domain first'), ...common },
    }),
    async (c) => c.json(await sso.validateDomain(c.get('admin'), c.req.valid('param').configId, c.req.valid('param').domainId), 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: SsoPaths.roles,
      summary: 'Sets the default roles every user signing in through this configuration gets',
      ...guarded,
      request: { params: SsoConfigurationParam, query: TenantQuery, ...body(SsoRolesRequest) },
      responses: { 200: one, 400: err('A role id that is not a role of this tenant'), ...common },
    }),
    async (c) => c.json(await sso.setRoles(c.get('admin'), c.req.valid('param').configId, c.req.valid('json').roleIds), 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: SsoPaths.groups,
      summary: "Replaces the group-to-role mappings: an IdP group name -> roles of this tenant",
      ...guarded,
      request: { params: SsoConfigurationParam, query: TenantQuery, ...body(SsoGroupsRequest) },
      responses: { 200: one, 400: err('A role id that is not a role of this tenant, or a group listed twice'), ...common },
    }),
    async (c) => c.json(await sso.setGroups(c.get('admin'), c.req.valid('param').configId, c.req.valid('json').groups), 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: SsoPaths.saml,
      summary: "Saves the SAML configuration by hand (seed 001 section 5): only with a domain; changing the domain clears the SSO endpoint, certificate and signRequest",
      ...guarded,
      request: { params: SsoConfigurationParam, query: TenantQuery, ...body(SamlConfigurationRequest) },
      responses: {
        200: one,
        400: err('No domain, a domain change sent with IdP settings, a bad URL or certificate, not a SAML configuration, or signRequest without an SP key'),
        409: err('The domain is already one of this configuration, or validated by another one'),
        ...common,
      },
    }),
    async (c) => c.json(await sso.saveSaml(c.get('admin'), c.req.valid('param').configId, c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: SsoPaths.test,
      summary:
        "Test connection: starts a test sign-in at the IdP (SAML or OIDC, turned on or not) for this session; open the answered address in a new window, then read the report. OIDC: the body's redirectUri is the login box's oidcRedirectUrl",
      ...guarded,
      request: {
        params: SsoConfigurationParam,
        query: TenantQuery,
        body: { required: false, content: { 'application/json': { schema: SsoTestStartRequest } } },
      },
      responses: {
        201: json(SsoTestStartResponse, "The IdP address carrying a new AuthnRequest (SAML) or authorization request (OIDC: PKCE, state, nonce), the test id, and until when the test waits for the IdP"),
        400: err("The identity provider is not set yet, or (OIDC) redirectUri is missing or not a page of an allowed origin"),
        502: err('The identity provider could not be reached'),
        ...common,
      },
    }),
    async (c) => c.json(await tests.start(c.get('admin'), c.req.valid('param').configId, c.req.valid('json')), 201),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: SsoPaths.testReport,
      summary: "A connection test's report: pending while the IdP has not answered; then, once and only to the session that started it, what the IdP sent and the problems found, or why its answer was refused",
      ...guarded,
      request: { params: SsoTestParam, query: TenantQuery },
      responses: { 200: json(SsoTestReport, 'Pending, passed or failed'), 400: err('A blank or too long configId, testId or tenantId'), ...common, 404: err('No such test of this session and tenant: unknown, expired, or already read') },
    }),
    async (c) => c.json(await tests.report(c.get('admin'), c.req.valid('param').configId, c.req.valid('param').testId), 200),
  );

  return app;
}
