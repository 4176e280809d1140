/**
 * POST …/.search (RFC 7644 section 3.4.3): Users/.search and Groups/.search answer as GET Users and
 * GET Groups do with the same parameters; the root /.search lists Users then Groups.
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { ProvisioningPaths } from '@gatehouse/shared/wire';
import { selectAttributes } from '../../services/scim/attributes';
import type { ScimGroupService } from '../../services/scim/groups';
import { listResponse, parsePagination } from '../../services/scim/list-response';
import { GROUP_RESOURCE, USER_RESOURCE } from '../../services/scim/schemas';
import { SCHEMA_SEARCH_REQUEST, searchParams, searchTypes } from '../../services/scim/search';
import type { ScimUserService } from '../../services/scim/users';
import { SCIM_CONTENT_TYPE, scimBodyErrors, scimCommonErrors, scimJson, scimList, ScimListResponseSchema, scimValidationHook, type ScimEnv } from './scim-http';
import { scimSecurity, scimTags } from './service-provider';

const names = z.array(z.string().max(200)).max(100);
/** The SearchRequest message (RFC 7644 section 3.4.3); the service checks it again and names the field it refuses. */
export const ScimSearchRequestSchema = z
  .object({
    schemas: z.array(z.string().max(200)).max(10).openapi({ example: [SCHEMA_SEARCH_REQUEST] }),
    filter: z.string().max(2048).optional(),
    attributes: names.optional(),
    excludedAttributes: names.optional(),
    sortBy: z.string().max(200).optional(),
    sortOrder: z.enum(['ascending', 'descending']).optional(),
    startIndex: z.number().int().optional(),
    count: z.number().int().optional(),
  })
  .passthrough()
  .openapi('ScimSearchRequest');
const searchBody = () => ({ body: { required: true, content: { [SCIM_CONTENT_TYPE]: { schema: ScimSearchRequestSchema }, 'application/json': { schema: ScimSearchRequestSchema } } } });

export function scimSearchRoutes(services: { users: ScimUserService; groups: ScimGroupService }): OpenAPIHono<ScimEnv> {
  const app = new OpenAPIHono<ScimEnv>({ defaultHook: scimValidationHook });
  const kinds = [
    { endpoint: 'Users', rt: USER_RESOURCE, service: services.users as ScimUserService | ScimGroupService, what: 'user' },
    { endpoint: 'Groups', rt: GROUP_RESOURCE, service: services.groups as ScimUserService | ScimGroupService, what: 'group' },
  ];
  for (const { endpoint, rt, service, what } of kinds) {
    app.openapi(
      createRoute({
        method: 'post', path: `${ProvisioningPaths.scimBase}/${endpoint}/.search`, tags: scimTags, security: scimSecurity,
        summary: `Searches the tenant's SCIM ${what}s with a SearchRequest body: as GET ${endpoint} with the same filter, attributes/excludedAttributes and startIndex/count`,
        request: searchBody(),
        responses: { 200: scimJson(ScimListResponseSchema, `A page of ${what}s and the total matching`), ...scimBodyErrors, ...scimCommonErrors },
      }),
      async (c) => {
        const q = searchParams(c.req.valid('json'));
        const page = parsePagination(q);
        const { resources, total } = await service.list(c.get('scim'), { filter: q.filter, ...page });
        return scimList(c, listResponse(resources.map((r) => selectAttributes(r, rt, q)), total, page.startIndex));
      },
    );
  }
  app.openapi(
    createRoute({
      method: 'post', path: `${ProvisioningPaths.scimBase}/.search`, tags: scimTags, security: scimSecurity,
      summary: 'Searches all resource types (Users, then Groups) with a SearchRequest body; a filter attribute a type does not have matches none of it',
      request: searchBody(),
      responses: { 200: scimJson(ScimListResponseSchema, 'A page of users and groups and the total matching'), ...scimBodyErrors, ...scimCommonErrors },
    }),
    async (c) => {
      const q = searchParams(c.req.valid('json'));
      const page = parsePagination(q);
      const caller = c.get('scim');
      const found = await searchTypes(kinds.map(({ rt, service }) => ({ rt, list: (query) => service.list(caller, query) })), { filter: q.filter, ...page });
      return scimList(c, listResponse(found.resources.map(({ rt, resource }) => selectAttributes(resource, rt, q)), found.total, page.startIndex));
    },
  );
  return app;
}
