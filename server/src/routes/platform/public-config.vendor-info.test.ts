/**
 * GET /vendors/public/info (seed 000 section 7.3 "vendor public info"): the deployment's name and
 * application address, the same for every caller, and nothing of any tenant, user or secret.
 */
import { ApiPaths, VENDOR_PUBLIC_INFO_PATH } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { tenantWithAdmin } from '../../test/admin-helpers';
import { call, describeDialects } from '../../test/harness';

describeDialects('vendor public info', (h) => {
  it('answers the configured name and application address, to anyone, and nothing else', async () => {
    const server = await h.start({ GATEHOUSE_APP_NAME: '  Acme Cloud  ', GATEHOUSE_APP_URL: 'https://app.acme.test/', RATE_LIMIT_SIGNUP_PER_IP: '1000/60' });
    const anonymous = await call(server, 'GET', VENDOR_PUBLIC_INFO_PATH);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toEqual({ name: 'Acme Cloud', applicationUrl: 'https://app.acme.test' });
    expect(anonymous.headers.get('cache-control')).toBe('public, max-age=300');

    // A signed-in caller, or one naming a tenant, gets the very same answer: nothing of the user or the tenant.
    const admin = await tenantWithAdmin(server);
    const signedIn = await call(server, 'GET', `${VENDOR_PUBLIC_INFO_PATH}?tenantId=${admin.tenantId}`, { token: admin.accessToken });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toEqual(anonymous.body);
    expect(JSON.stringify(signedIn.body)).not.toContain(admin.email);

    // It does not shadow the vendor public config beside it.
    expect((await call(server, 'GET', ApiPaths.vendorPublic)).body).toHaveProperty('loginStrategy');
  });

  it("defaults to the product's name and the public URL", async () => {
    const server = await h.start();
    expect((await call(server, 'GET', VENDOR_PUBLIC_INFO_PATH)).body).toEqual({ name: 'Gatehouse', applicationUrl: server.config.publicUrl });
  });

  it('is read-only', async () => {
    const server = await h.start();
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const res = await call(server, method, VENDOR_PUBLIC_INFO_PATH, { body: { name: 'Mallory' } });
      expect(res.status, method).toBeGreaterThanOrEqual(400);
    }
    expect((await call(server, 'GET', VENDOR_PUBLIC_INFO_PATH)).body.name).toBe('Gatehouse');
  });
});
