import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { ProvisioningPaths } from '@gatehouse/shared/wire';
import { selectAttributes } from '../../services/scim/attributes';
import { isNotModified } from '../../services/scim/etag';
import { listResponse, parsePagination } from '../../services/scim/list-response';
import { GROUP_RESOURCE, USER_RESOURCE } from '../../services/scim/schemas';
import type { ScimResult, ScimUserService } from '../../services/scim/users';
import type { ScimGroupService } from '../../services/scim/groups';
import type { Context } from 'hono';
import { scimBody, scimBodyErrors, scimList, scimResource, scimCommonErrors, scimErr, scimJson, ScimListResponseSchema, ScimResourceSchema, scimValidationHook, type ScimEnv } from './scim-http';
import { scimSecurity, scimTags } from './service-provider';

const text = (max: number) => z.string().max(max).optional();
const ListQuery = z.object({ filter: text(2048), startIndex: text(16), count: text(16), attributes: text(2048), excludedAttributes: text(2048) });
const SelectQuery = z.object({ attributes: text(2048), excludedAttributes: text(2048) });
const IdParam = z.object({ id: z.string().min(1).max(64) });
const etagHeader = { ETag: { description: 'The resource version (weak ETag), as meta.version', schema: { type: 'string' as const } } };

/**
 * Users and Groups (RFC 7644 section 3): list with filter, startIndex/count and attribute selection;
 * POST, GET, PUT, PATCH and DELETE, with ETags (If-Match on writes: 412; If-None-Match on reads: 304).
 */
export function scimResourceRoutes(services: { users: ScimUserService; groups: ScimGroupService }): OpenAPIHono<ScimEnv> {
  const app = new OpenAPIHono<ScimEnv>({ defaultHook: scimValidationHook });
  const kinds = [
    { endpoint: 'Users', rt: USER_RESOURCE, service: services.users as ScimUserService | ScimGroupService, what: 'user' },
    { endpoint: 'Groups', rt: GROUP_RESOURCE, service: services.groups as ScimUserService | ScimGroupService, what: 'group' },
  ];
  for (const { endpoint, rt, service, what } of kinds) {
    const list = `${ProvisioningPaths.scimBase}/${endpoint}`;
    const one = `${list}/{id}`;
    const answer = <S extends 200 | 201>(c: Context, status: S, r: ScimResult, select: { attributes?: string; excludedAttributes?: string }) =>
      scimResource(c, status, selectAttributes(r.resource, rt, select), { ETag: r.etag, ...(status === 201 ? { Location: String((r.resource.meta as { location: string }).location) } : {}) });

    app.openapi(
      createRoute({
        method: 'get', path: list, tags: scimTags, security: scimSecurity,
        summary: `Lists the tenant's SCIM ${what}s: filter (eq, ne, co, sw, ew, gt, ge, lt, le, pr, and, or, not, value paths), startIndex/count (at most 200), attributes/excludedAttributes`,
        request: { query: ListQuery },
        responses: { 200: scimJson(ScimListResponseSchema, `A page of ${what}s and the total matching`), ...scimCommonErrors },
      }),
      async (c) => {
        const q = c.req.valid('query');
        const page = parsePagination({ startIndex: q.startIndex, count: q.count });
        const { resources, total } = await service.list(c.get('scim'), { filter: q.filter, ...page });
        return scimList(c, listResponse(resources.map((r) => selectAttributes(r, rt, q)), total, page.startIndex));
      },
    );

    app.openapi(
      createRoute({
        method: 'post', path: list, tags: scimTags, security: scimSecurity, summary: `Provisions a ${what} (managedBy scim2)`,
        request: { query: SelectQuery, ...scimBody() },
        responses: { 201: { ...scimJson(ScimResourceSchema, `The ${what}`), headers: { ...etagHeader, Location: { description: 'The resource URL', schema: { type: 'string' as const } } } }, 403: scimErr("The tenant's seat limit or email-domain restrictions refuse the user, or the existing account with that email may not be linked (a super user, or permissions the connection's creator does not hold)"), 409: scimErr('uniqueness: the userName / displayName / externalId is taken in the tenant, or the email belongs to an account outside it and outside its validated SSO domains'), ...scimBodyErrors, ...scimCommonErrors },
      }),
      async (c) => {
        const r = await service.create(c.get('scim'), c.req.valid('json'));
        if (r.change) c.set('scimChange', r.change);
        return answer(c, 201, r, c.req.valid('query'));
      },
    );

    app.openapi(
      createRoute({
        method: 'get', path: one, tags: scimTags, security: scimSecurity, summary: `One ${what}; If-None-Match with its ETag answers 304`,
        request: { params: IdParam, query: SelectQuery },
        responses: { 200: { ...scimJson(ScimResourceSchema, `The ${what}`), headers: etagHeader }, 304: { description: 'Not modified (If-None-Match matched)', headers: etagHeader }, 404: scimErr('Not found in the tenant'), ...scimCommonErrors },
      }),
      async (c) => {
        const r = await service.get(c.get('scim'), c.req.valid('param').id);
        if (isNotModified(c.req.header('if-none-match'), r.etag)) return c.body(null, 304, { ETag: r.etag });
        return answer(c, 200, r, c.req.valid('query'));
      },
    );

    for (const method of ['put', 'patch'] as const) {
      app.openapi(
        createRoute({
          method, path: one, tags: scimTags, security: scimSecurity,
          summary: method === 'put' ? `Replaces the ${what}` : `Patches the ${what} (add, replace, remove; value filters in paths; Entra ID's and Okta's forms)`,
          request: { params: IdParam, query: SelectQuery, ...scimBody() },
          responses: {
            200: { ...scimJson(ScimResourceSchema, `The ${what} after the change`), headers: etagHeader },
            403: scimErr("Re-activating the user (active from false to true): the tenant's seat limit refuses it, or the linked account holds permissions the connection's creator does not hold"),
            404: scimErr('Not found in the tenant'),
            409: scimErr('uniqueness'),
            412: scimErr('If-Match does not match the current version'),
            ...scimBodyErrors,
            ...scimCommonErrors,
          },
        }),
        async (c) => {
          const { id } = c.req.valid('param');
          const body = c.req.valid('json');
          const ifMatch = c.req.header('if-match');
          const r = method === 'put' ? await service.replace(c.get('scim'), id, body, ifMatch) : await service.patch(c.get('scim'), id, body, ifMatch);
          if (r.change) c.set('scimChange', r.change);
          return answer(c, 200, r, c.req.valid('query'));
        },
      );
    }

    app.openapi(
      createRoute({
        method: 'delete', path: one, tags: scimTags, security: scimSecurity,
        summary: what === 'user' ? 'Deprovisions the user: removed from the tenant, its sessions there revoked (the account too only when SCIM created it and it is in no other tenant)' : 'Deletes the group',
        request: { params: IdParam },
        responses: { 204: { description: 'Deleted' }, 404: scimErr('Not found in the tenant'), 412: scimErr('If-Match does not match the current version'), ...scimCommonErrors },
      }),
      async (c) => {
        c.set('scimChange', await service.remove(c.get('scim'), c.req.valid('param').id, c.req.header('if-match')));
        return c.body(null, 204);
      },
    );
  }
  return app;
}
