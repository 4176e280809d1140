import { describe, expect, it } from 'vitest';
import { createApiClient } from './client';
import { APPLICATION_ID_HEADER, FRAMEWORK_HEADER, LOGIN_ALIAS_HEADER, SCOPED_TENANT_HEADER } from './client-headers';
import { createFetchStub, json } from '../testing/fetch-stub';

describe('client header names', () => {
  it('are the names the API client sends (the client writes them out to save bytes)', async () => {
    const stub = createFetchStub({ 'GET /identity/resources/users/v2/me': () => json({}) });
    const api = createApiClient({ baseUrl: 'http://api.test', clientId: 'c', getAccessToken: () => null, fetch: stub.fetch, getLocationSearch: () => '?tenantId=t', loginAlias: 'a', applicationId: 'b', framework: 'f' });
    await api.me();
    const headers = stub.calls[0]!.headers;
    expect([SCOPED_TENANT_HEADER, LOGIN_ALIAS_HEADER, APPLICATION_ID_HEADER, FRAMEWORK_HEADER].map((name) => headers.get(name))).toEqual(['t', 'a', 'b', 'f']);
  });
});
