/**
 * Seed 000 section 7.3 client headers beyond source, SDK and client id: the scoped tenant (the
 * page's `tenantId` parameter), the login alias, the requested application id and the host
 * framework's marker. Not re-exported by the shared index (whose exports the runtime ships whole
 * to the bundles): import this file where needed (the Node SDK's proxy forwards them, the stage-1
 * loader sends them).
 */
export const SCOPED_TENANT_HEADER = 'x-gatehouse-tenant-id';
export const LOGIN_ALIAS_HEADER = 'x-gatehouse-login-alias';
export const APPLICATION_ID_HEADER = 'x-gatehouse-application-id';
export const FRAMEWORK_HEADER = 'x-gatehouse-framework';

/** The headers whose value fetch would accept (printable ASCII) and is at most 256 characters; others are left out. */
export function validHeaders(headers: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([, value]) => typeof value === 'string' && /^[ -~]{1,256}$/.test(value))) as Record<string, string>;
}
