import { describe, expect, it } from 'vitest';
import { createApiClient } from './client';
import { getSsoPublicConfiguration, getVendorPublicInfo, requestMeToken } from './identity-calls';
import { createFetchStub, json } from '../testing/fetch-stub';
import { isGatehouseError } from '../errors';

const BASE = 'http://api.test';
const TOKEN_PATH = 'POST /identity/resources/users/v3/me/token';

function client(stub: ReturnType<typeof createFetchStub>, token: string | null = null) {
  return createApiClient({ baseUrl: BASE, clientId: 'client-1', getAccessToken: () => token, fetch: stub.fetch, getLocationSearch: () => '', retry: { delayMs: 1 } });
}

describe('the calls made after sign-in or on demand', () => {
  it("requestMeToken posts the tenant asked for with the user's bearer token, and an empty body without one", async () => {
    const answer = { accessToken: 'fresh', expiresIn: 120, expires: '2026-01-01T00:00:00.000Z', tenantId: 't-2', userId: 'u-1' };
    const stub = createFetchStub({ [TOKEN_PATH]: () => json(answer) });
    const api = client(stub, 'current');
    expect(await requestMeToken(api, 't-2')).toEqual(answer);
    await requestMeToken(api);
    expect(stub.calls.map((c) => [c.method, c.url.pathname, c.body, c.headers.get('authorization')])).toEqual([
      ['POST', '/identity/resources/users/v3/me/token', { tenantId: 't-2' }, 'Bearer current'],
      ['POST', '/identity/resources/users/v3/me/token', {}, 'Bearer current'],
    ]);
  });

  it("requestMeToken surfaces the server's refusal as a GatehouseError with its status and code", async () => {
    const stub = createFetchStub({ [TOKEN_PATH]: () => json({ errors: ['Tenant not found'], errorCode: 'ER-TENANT-NOT-FOUND' }, { status: 404 }) });
    const error = await requestMeToken(client(stub, 'current'), 'elsewhere').catch((e: unknown) => e);
    expect(isGatehouseError(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 404, message: 'Tenant not found', errorCode: 'ER-TENANT-NOT-FOUND' });
  });

  it('reads vendor public info and the public SSO configuration with GET and no token', async () => {
    const stub = createFetchStub({
      'GET /vendors/public/info': () => json({ name: 'Acme Cloud', applicationUrl: 'https://app.acme.test' }),
      'GET /identity/resources/configurations/v1/sso/public': () => json({ isActive: true }),
    });
    const api = client(stub);
    expect(await getVendorPublicInfo(api)).toEqual({ name: 'Acme Cloud', applicationUrl: 'https://app.acme.test' });
    expect(await getSsoPublicConfiguration(api)).toEqual({ isActive: true });
    expect(stub.calls.map((c) => [c.method, c.url.pathname, c.headers.get('authorization')])).toEqual([
      ['GET', '/vendors/public/info', null],
      ['GET', '/identity/resources/configurations/v1/sso/public', null],
    ]);
  });
});
