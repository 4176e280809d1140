// Type-checks against the packed .d.ts files through the exports map (moduleResolution NodeNext).
import { createClientCredentialsClient, isGatehouseAuthError, verifyAccessToken, type AccessTokenClaims } from '@gatehouse/node';
import * as express from '@gatehouse/node/express';
import * as hono from '@gatehouse/node/hono';
import * as next from '@gatehouse/node/next';

export const claims: Promise<AccessTokenClaims> = verifyAccessToken('token', { baseUrl: 'https://auth.example.com', clientId: 'demo-client' });
export const guards = [express.requirePermissions(['fe.secure.read.users']), hono.requireEntitlement({ featureKey: 'reports' })];
export const GET = next.requireAuth()(async (_req, auth) => Response.json({ tenant: auth.tenantId }));
export const m2m = createClientCredentialsClient({ baseUrl: 'https://auth.example.com', clientId: 'CLIENT_ID_x', clientSecret: 's' });
export const refused = (err: unknown): number | null => (isGatehouseAuthError(err) ? err.status : null);
