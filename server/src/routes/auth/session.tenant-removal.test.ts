import { ApiPaths } from '@gatehouse/shared/wire';
import { decodeJwt } from 'jose';
import { expect, it } from 'vitest';
import { call, describeDialects, signUpAndActivate } from '../../test/harness';

describeDialects('refresh after removal from a tenant', (h) => {
  // Regression (security review M2): refresh kept minting tokens for the session's tenant after the
  // user had been removed from it.
  it('never issues a token for a tenant the user no longer belongs to', async () => {
    const server = await h.start();
    const owner = await signUpAndActivate(server);
    const first = await call(server, 'POST', ApiPaths.refresh, { cookie: owner.cookie, body: {} });
    expect(first.status).toBe(200);
    expect(decodeJwt(first.body.accessToken).tenantId).toBe(owner.tenantId);

    await server.db.deleteFrom('user_tenants').where('user_id', '=', owner.userId).where('tenant_id', '=', owner.tenantId).execute();

    const after = await call(server, 'POST', ApiPaths.refresh, { cookie: first.refreshCookie!, body: {} });
    expect(after.status).toBe(403);
    expect(after.body.errors).toEqual(['User has no tenant']);
  });
});
