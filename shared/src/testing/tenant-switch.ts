/**
 * Test fixtures of a user in two tenants who signs in and switches tenant: the fetch-stub keys of
 * the calls it makes and a login answer for a tenant. Shared by the store's and the login box's
 * tests of the tenant choice after sign-in.
 */
import { ApiPaths } from '../wire/paths';
import { json } from './fetch-stub';

/** The calls of a sign-in and a tenant switch, as fetch-stub route keys. */
export const TENANT_SWITCH_CALLS = {
  login: `POST ${ApiPaths.login}`,
  me: `GET ${ApiPaths.me}`,
  switchTenant: `PUT ${ApiPaths.switchTenant}`,
  refresh: `POST ${ApiPaths.refresh}`,
} as const;

/** Two tenants of one user; t1 is where the sign-in lands. */
export const TWO_TENANTS = [
  { id: 'a', tenantId: 't1', name: 'Analytical Engines', createdAt: '2026-01-01T00:00:00.000Z' },
  { id: 'b', tenantId: 't2', name: 'Difference Engines', createdAt: '2026-01-01T00:00:00.000Z' },
];

/** A login (or refresh) answer with `accessToken`, for `tenantId`. */
export const tokenAnswer = (accessToken: string, tenantId: string) => json({ accessToken, expiresIn: 300, expires: '', mfaRequired: false, tenantId, userId: 'u1' });
