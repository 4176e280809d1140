import { ApiTokenPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { callAs, roleIdByKey, tenantWithAdmin } from '../../../server/src/test/admin-helpers.js';
import { describeDialects, movableClock } from '../../../server/src/test/harness.js';
import { ClientCredentialsError, createClientCredentialsClient } from './m2m.js';
import { countingFetch, sdkOptions } from './test/gatehouse.js';
import { verifyAccessToken } from './verify/verify-access-token.js';

describeDialects('sdk/node client-credentials tokens from a Gatehouse server', (harness) => {
  it('fetches one token for concurrent callers, reuses it until near expiry, and the token verifies with the API token roles', async () => {
    const clock = movableClock();
    const server = await harness.start({ ACCESS_TOKEN_TTL: '600' }, { clock });
    const admin = await tenantWithAdmin(server);
    const readOnly = await roleIdByKey(server, admin, 'ReadOnly');
    const apiToken = (await callAs(server, admin, 'POST', ApiTokenPaths.tenantApiTokens, { body: { description: 'backend', roleIds: [readOnly] } })).body as { clientId: string; secret: string };
    const fetch = countingFetch(server);
    const client = createClientCredentialsClient({ baseUrl: server.config.publicUrl, clientId: apiToken.clientId, clientSecret: apiToken.secret, fetch, now: clock.now });

    const tokens = await Promise.all(Array.from({ length: 10 }, () => client.getToken()));
    expect(new Set(tokens).size).toBe(1);
    expect(fetch.count('/oauth/token')).toBe(1);
    const claims = await verifyAccessToken(tokens[0]!, sdkOptions(server, fetch, clock.now));
    expect(claims).toMatchObject({ tenantId: admin.tenantId, roles: ['ReadOnly'], azp: apiToken.clientId });
    expect(await client.authorizationHeader()).toBe(`Bearer ${tokens[0]}`);

    // Reused until 30 s before its expiry (600 s), then fetched again.
    clock.advance(569_000);
    expect(await client.getToken()).toBe(tokens[0]);
    expect(fetch.count('/oauth/token')).toBe(1);
    clock.advance(2_000);
    const next = await client.getToken();
    expect(fetch.count('/oauth/token')).toBe(2);
    expect((await verifyAccessToken(next, sdkOptions(server, fetch, clock.now))).tenantId).toBe(admin.tenantId);
  });

  it('rejects wrong credentials with a ClientCredentialsError, caches nothing, and never puts the secret in the message', async () => {
    const server = await harness.start();
    const fetch = countingFetch(server);
    const secret = 'not-the-secret-0123456789abcdefghijklmnopq';
    const client = createClientCredentialsClient({ baseUrl: server.config.publicUrl, clientId: 'CLIENT_ID_00000000000000000000000000000000', clientSecret: secret, fetch });
    for (let i = 0; i < 2; i++) {
      const err = await client.getToken().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ClientCredentialsError);
      expect((err as ClientCredentialsError).status).toBe(401);
      expect((err as Error).message).not.toContain(secret);
    }
    expect(fetch.count('/oauth/token')).toBe(2);
    expect(() => createClientCredentialsClient({ baseUrl: server.config.publicUrl, clientId: 'x', clientSecret: '' })).toThrow('clientSecret is required');
  });
});
