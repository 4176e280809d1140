import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { ApiPaths, ErrorCodes, FlagsResponse, IpMetadataResponse, MetadataResponse, VENDOR_PUBLIC_INFO_PATH, VendorPublicConfig, VendorPublicInfo } from '@gatehouse/shared/wire';
import { AppError, isAppError } from '../../errors';
import type { EntitlementSubject } from '../../services/entitlements';
import type { AppEnv } from '../../http/env';
import { ErrorBodySchema, validationHook } from '../../http/errors';
import { clientIp } from '../../http/middleware';
import type { PublicService } from '../../services/platform/public';
import type { RouteDeps } from '../deps';
import { json } from '../openapi';
import { compressPublicJson } from './compress';

/** Unauthenticated calls the loader makes at start: flags, metadata, vendor and account settings. */
export function publicRoutes(deps: RouteDeps, publicInfo: PublicService): OpenAPIHono<AppEnv> {
  const { config } = deps;
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  /** The caller of a public call that may carry a bearer token; anything not a valid token of a member is anonymous (never an error, nothing told). */
  async function optionalSubject(authorization: string | undefined, ip: string | null): Promise<EntitlementSubject | null> {
    if (!authorization) return null;
    try {
      const auth = await deps.auth.authenticate(authorization, undefined, { ip });
      return { userId: auth.userId, tenantId: auth.tenantId, email: auth.claims.email ?? null, emailVerified: auth.claims.email_verified, claims: auth.claims as unknown as Record<string, unknown> };
    } catch (error) {
      if (isAppError(error)) return null;
      throw error;
    }
  }
  // Fetched before the login form on every page, the same for every caller: sent compressed.
  app.use(ApiPaths.metadata, compressPublicJson());
  app.use(ApiPaths.vendorPublic, compressPublicJson());

  app.openapi(
    createRoute({
      method: 'get',
      path: ApiPaths.flags,
      tags: ['public'],
      summary: "Feature flags: the environment's, and the operator's evaluated for the caller ('on' | 'off'); with a valid bearer access token, for that user and tenant; without one (or with an invalid one), the flags' off/default treatments",
      security: [{}, { Bearer: [] }],
      responses: { 200: json(FlagsResponse, 'Feature flags') },
    }),
    async (c) => {
      // Answers differ per caller: caches keep them apart.
      c.header('Vary', 'Authorization');
      return c.json(await publicInfo.flags(await optionalSubject(c.req.header('authorization'), clientIp(c, config))), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: ApiPaths.metadata,
      tags: ['public'],
      request: { query: z.object({ entityName: z.string().min(1).max(64) }) },
      responses: { 200: json(MetadataResponse, 'Stored metadata'), 404: json(ErrorBodySchema, 'metadata not found') },
    }),
    async (c) => c.json(await publicInfo.metadata(c.req.valid('query').entityName), 200),
  );

  app.openapi(
    createRoute({ method: 'get', path: ApiPaths.metadataIp, tags: ['public'], responses: { 200: json(IpMetadataResponse, "The caller's IP"), 404: json(ErrorBodySchema, 'ip metadata not found') } }),
    (c) => {
      const ip = clientIp(c, config);
      if (!ip) throw new AppError(ErrorCodes.metadataNotFound, 404, 'ip metadata not found');
      return c.json({ ip, country_code: null }, 200);
    },
  );

  // GET ApiPaths.accountSettingsPublic: routes/account/settings.ts, with the account settings.

  app.openapi(createRoute({ method: 'get', path: ApiPaths.vendorPublic, tags: ['public'], responses: { 200: json(VendorPublicConfig, 'Deployment configuration for the login box') } }), (c) =>
    c.json(publicInfo.vendorPublic(), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: VENDOR_PUBLIC_INFO_PATH,
      tags: ['public'],
      summary: "Vendor public info: the deployment's name and application address (the same for every caller)",
      responses: { 200: json(VendorPublicInfo, 'Who runs this deployment') },
    }),
    (c) => {
      // Set at start-up, the same for everyone: shared caches may keep it a while.
      c.header('Cache-Control', 'public, max-age=300');
      return c.json(publicInfo.vendorInfo(), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: ApiPaths.jwks,
      tags: ['public'],
      responses: { 200: json(z.object({ keys: z.array(z.record(z.string(), z.unknown())) }), 'Public signing keys (active and recently retired)') },
    }),
    async (c) => {
      c.header('Cache-Control', 'public, max-age=300');
      c.header('Access-Control-Allow-Origin', '*');
      return c.json((await deps.keys.jwks()) as { keys: Record<string, unknown>[] }, 200);
    },
  );

  return app;
}
