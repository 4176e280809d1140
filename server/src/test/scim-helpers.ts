/** Helpers of the SCIM tests: a provisioning connection made through the admin API, and calls as a SCIM client (an IdP) makes them. */
import { ProvisioningPaths } from '@gatehouse/shared/wire';
import type { GatehouseServer } from '../app';
import { callAs, type TenantAdmin } from './admin-helpers';
import { call, type CallResult } from './harness';

export const SCHEMA_USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const SCHEMA_GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const SCHEMA_PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const SCHEMA_ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const SCHEMA_ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

/** A new connection of the admin's tenant: its id and bearer token. */
export async function scimConnection(server: GatehouseServer, admin: TenantAdmin, source = 'okta'): Promise<{ id: string; token: string }> {
  const res = await callAs(server, admin, 'POST', ProvisioningPaths.scim2Configurations, { body: { source } });
  if (res.status !== 201) throw new Error(`connection failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.id, token: res.body.token };
}

/** A SCIM call (`path` relative to /scim/v2) with the connection's token, as `application/scim+json`. */
export function scim<T = any>(server: GatehouseServer, token: string | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<CallResult<T>> {
  return call<T>(server, method, `${ProvisioningPaths.scimBase}${path}`, {
    ...(body !== undefined ? { rawBody: JSON.stringify(body) } : {}),
    headers: { ...(body !== undefined ? { 'content-type': 'application/scim+json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
}

/** A SCIM User body as Okta sends it on create. */
export function oktaUser(userName: string, extra: Record<string, unknown> = {}) {
  const [given = 'Ada', family = 'Lovelace'] = userName.split('@')[0]!.split('.');
  return { schemas: [SCHEMA_USER], userName, name: { givenName: given, familyName: family }, emails: [{ primary: true, value: userName, type: 'work' }], displayName: `${given} ${family}`, active: true, ...extra };
}
