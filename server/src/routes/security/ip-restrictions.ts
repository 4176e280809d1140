/**
 * IP restrictions of the caller's tenant (issue 12; seed 001 sections 3, 7 "Email-domain and IP
 * restrictions: CRUD, bulk create, config, verify, verify/allow", 9): reading needs
 * fe.secure.read.securityPolicy, every change fe.secure.write.securityPolicy and is audited.
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import {
  BulkIpRestrictionsRequest,
  CreateIpRestrictionRequest,
  IpRestriction,
  IpRestrictionConfig,
  IpRestrictionList,
  IpVerifyResponse,
  Permissions,
  RestrictionListQuery,
  SaveIpRestrictionConfigRequest,
  SecurityPaths,
  UpdateIpRestrictionRequest,
} from '@gatehouse/shared/wire';
import type { AppEnv } from '../../http/env';
import { validationHook } from '../../http/errors';
import type { IpRestrictionService } from '../../services/security/ip-restrictions';
import { adminErrors, guardFor, TenantQuery } from '../admin/shared';
import type { RouteDeps } from '../deps';
import { body, err, json } from '../openapi';

const tags = ['admin: IP restrictions'];
const IdParam = z.object({ id: z.string().min(1).max(64) });
const selfLockout = { 409: err('ER-02802: the change would shut out the caller\'s own address (send confirmSelfLockout: true to save it anyway), or ER-01020: the address is already on that list') };
/** DELETE takes the confirmation as a query parameter: a DELETE has no body. */
const DeleteQuery = TenantQuery.extend({ confirmSelfLockout: z.enum(['true', 'false']).optional() });

export function ipRestrictionRoutes(deps: RouteDeps, restrictions: IpRestrictionService): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const guard = guardFor(deps, deps.clock);
  const read = guard(Permissions.securityPolicyRead, 'read');
  const write = guard(Permissions.securityPolicyWrite, 'write');

  app.openapi(
    createRoute({
      method: 'get',
      path: SecurityPaths.ipRestrictions,
      tags,
      summary: "Lists the tenant's IP restrictions (addresses and CIDR ranges, allow and block), oldest first, a page at a time",
      ...read,
      request: { query: TenantQuery.extend(RestrictionListQuery.shape) },
      responses: { 200: json(IpRestrictionList, 'A page of entries and how many there are'), 400: err('Invalid offset or limit'), ...adminErrors },
    }),
    async (c) => {
      const { offset, limit } = c.req.valid('query');
      return c.json(await restrictions.list(c.get('admin'), { offset, limit }), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: SecurityPaths.ipRestrictions,
      tags,
      summary: 'Adds an address or CIDR range to the allow or block list (stored in canonical form)',
      ...write,
      request: { query: TenantQuery, ...body(CreateIpRestrictionRequest) },
      responses: { 201: json(IpRestriction, 'The entry'), 400: err('Invalid body; `ip` is not an IPv4 or IPv6 address or CIDR range'), ...adminErrors, ...selfLockout },
    }),
    async (c) => c.json(await restrictions.create(c.get('admin'), c.req.valid('json')), 201),
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: SecurityPaths.ipRestriction,
      tags,
      summary: 'Changes an entry: its address or range, strategy, description or whether it is active',
      ...write,
      request: { params: IdParam, query: TenantQuery, ...body(UpdateIpRestrictionRequest) },
      responses: { 200: json(IpRestriction, 'The entry as saved'), 400: err('Invalid body'), ...adminErrors, ...selfLockout },
    }),
    async (c) => c.json(await restrictions.update(c.get('admin'), c.req.valid('param').id, c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: SecurityPaths.ipRestriction,
      tags,
      summary: 'Removes an entry (`?confirmSelfLockout=true` when removing it shuts out the caller)',
      ...write,
      request: { params: IdParam, query: DeleteQuery },
      responses: { 204: { description: 'Removed' }, 400: err('Invalid query'), ...adminErrors, ...selfLockout },
    }),
    async (c) => {
      await restrictions.remove(c.get('admin'), c.req.valid('param').id, c.req.valid('query').confirmSelfLockout === 'true');
      return c.body(null, 204);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: SecurityPaths.ipRestrictionsBulk,
      tags,
      summary: 'Adds many entries at once (an address already on that list is updated); one invalid entry saves none',
      ...write,
      request: { query: TenantQuery, ...body(BulkIpRestrictionsRequest) },
      responses: { 200: json(IpRestrictionList, 'The entries as saved'), 400: err('Invalid body; restrictions.N.ip names the bad entry'), ...adminErrors, ...selfLockout },
    }),
    async (c) => {
      const items = await restrictions.bulk(c.get('admin'), c.req.valid('json'));
      return c.json({ items, total: items.length }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: SecurityPaths.ipRestrictionsConfig,
      tags,
      summary: 'Whether IP restrictions apply, and their strategy (ALLOW: only listed ranges; BLOCK: all but listed ranges)',
      ...read,
      request: { query: TenantQuery },
      responses: { 200: json(IpRestrictionConfig, 'The config (inactive until saved)'), ...adminErrors },
    }),
    async (c) => c.json(await restrictions.getConfig(c.get('admin')), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: SecurityPaths.ipRestrictionsConfig,
      tags,
      summary: 'Saves whether IP restrictions apply and their strategy; takes effect on the next request of every member',
      ...write,
      request: { query: TenantQuery, ...body(SaveIpRestrictionConfigRequest) },
      responses: { 200: json(IpRestrictionConfig, 'The config as saved'), 400: err('Invalid body'), ...adminErrors, ...selfLockout },
    }),
    async (c) => c.json(await restrictions.saveConfig(c.get('admin'), c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: SecurityPaths.ipRestrictionsVerify,
      tags,
      summary: "Whether the caller's own address is allowed under the tenant's current restrictions",
      ...read,
      request: { query: TenantQuery },
      responses: { 200: json(IpVerifyResponse, 'The verdict and the address it was made for'), ...adminErrors },
    }),
    async (c) => c.json(await restrictions.verify(c.get('admin')), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: SecurityPaths.ipRestrictionsVerifyAllow,
      tags,
      summary: "\"Add my IP\": puts the caller's own address on the allow list, described 'My IP' (seed 001 section 9)",
      ...write,
      request: { query: TenantQuery },
      responses: {
        200: json(IpRestriction, 'The address was on the allow list already (now active)'),
        201: json(IpRestriction, 'The new entry'),
        400: err("The request's address is not known"),
        ...adminErrors,
      },
    }),
    async (c) => {
      const { entry, created } = await restrictions.allowMyIp(c.get('admin'));
      return created ? c.json(entry, 201) : c.json(entry, 200);
    },
  );

  return app;
}
