/**
 * The scenario every framework's guards are tested with: a host app with four guarded routes,
 * called over HTTP with real tokens of a Gatehouse server.
 */
import { expect } from 'vitest';
import { signIn, superUser, tenantWithAdmin } from '../../../../server/src/test/admin-helpers.js';
import { insertFeature, insertGrant } from '../../../../server/src/test/entitlement-helpers.js';
import type { Harness } from '../../../../server/src/test/harness.js';
import type { VerifyOptions } from '../verify/verify-access-token.js';
import { countingFetch, get, JWKS_PATH, sdkOptions } from './gatehouse.js';

/** The routes a host app under test serves: `/me` (requireAuth), `/users` (requirePermissions(['fe.secure.read.*'])), `/export` (requirePermissions(['reports.export'])), `/reports` (requireEntitlement({ featureKey: 'reports' })); each answers `{ sub }` of the claims. */
export type HostApp = (options: VerifyOptions) => Promise<{ url: string; close: () => Promise<void> }>;

export async function guardScenario(harness: Harness, startHost: HostApp): Promise<void> {
  const server = await harness.start();
  const admin = await tenantWithAdmin(server);
  const other = await tenantWithAdmin(server, 'other');
  const made = await superUser(server);
  // The super-user flag is in tokens from the next sign-in on.
  const operator = { ...made, accessToken: (await signIn(server, made.email)).body.accessToken as string };
  await insertGrant(server, await insertFeature(server, 'reports'), admin.tenantId);
  // Entitlements are in the token from the next sign-in on.
  const entitled = (await signIn(server, admin.email)).body.accessToken as string;
  const fetch = countingFetch(server);
  const host = await startHost(sdkOptions(server, fetch));
  try {
    const none = await get(`${host.url}/me`);
    expect([none.status, none.body]).toEqual([401, { errors: [expect.stringContaining('Bearer')], errorCode: 'ER-01004' }]);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    const bad = await get(`${host.url}/me`, `${admin.accessToken.slice(0, -4)}AAAA`);
    expect([bad.status, bad.body.errorCode]).toEqual([401, 'ER-01004']);
    expect(await get(`${host.url}/me`, admin.accessToken)).toMatchObject({ status: 200, body: { sub: admin.userId } });

    // Permissions: a granted key covers a wildcard requirement; a key nobody holds is 403; super users pass.
    expect(await get(`${host.url}/users`, admin.accessToken)).toMatchObject({ status: 200, body: { sub: admin.userId } });
    expect(await get(`${host.url}/users`)).toMatchObject({ status: 401 });
    const denied = await get(`${host.url}/export`, admin.accessToken);
    expect([denied.status, denied.body]).toEqual([403, { errors: [expect.any(String)], errorCode: 'ER-01005' }]);
    expect(await get(`${host.url}/export`, operator.accessToken)).toMatchObject({ status: 200, body: { sub: operator.userId } });

    // Entitlements: from the token's compact claim; another tenant without the grant is refused.
    expect(await get(`${host.url}/reports`, entitled)).toMatchObject({ status: 200, body: { sub: admin.userId } });
    expect(await get(`${host.url}/reports`, other.accessToken)).toMatchObject({ status: 403, body: { errorCode: 'ER-01005' } });
    expect(await get(`${host.url}/reports`, operator.accessToken)).toMatchObject({ status: 200 });
    // Every verification after the first used the cached key set.
    expect(fetch.count(JWKS_PATH)).toBe(1);
  } finally {
    await host.close();
  }
}
