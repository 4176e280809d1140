/**
 * Authenticated reads at scale (issue 17): what `GET users/v2/me` costs the database, counted over
 * HTTP on both dialects. The token check is one read (session, membership expiry and the tenant's
 * IP restrictions switch together), the profile one (with MFA enrolment), the tenants one and the
 * roles with their permissions one: four reads, never a write.
 */
import { ApiPaths, SecurityErrorCodes, SecurityPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { callAs, tenantWithAdmin } from '../../test/admin-helpers';
import { describeDialects } from '../../test/harness';
import { countStatements } from '../../test/statement-counter';

describeDialects('GET users/v2/me statements', (h) => {
  it('answers the profile with 4 reads and no write', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const counted = await countStatements(server.db, async () => {
      const me = await callAs(server, admin, 'GET', ApiPaths.me);
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ id: admin.userId, tenantId: admin.tenantId, mfaEnrolled: false });
      expect(me.body.roles.map((r: { key: string }) => r.key)).toEqual(['Admin']);
      expect(me.body.permissions.length).toBeGreaterThan(0);
    });
    expect(counted, counted.sql.join('\n')).toMatchObject({ total: 4, writes: 0 });
  });

  it('reads the IP restriction lists only when the tenant has them on, and then refuses a network they keep out', async () => {
    const server = await h.start({ TRUST_PROXY: 'true' });
    const admin = await tenantWithAdmin(server);
    const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });
    expect((await callAs(server, admin, 'POST', SecurityPaths.ipRestrictions, { body: { ip: '203.0.113.0/24', strategy: 'ALLOW' }, ...from('203.0.113.10') })).status).toBe(201);
    expect((await callAs(server, admin, 'POST', SecurityPaths.ipRestrictionsConfig, { body: { isActive: true, strategy: 'ALLOW' }, ...from('203.0.113.10') })).status).toBe(200);
    const inside = await countStatements(server.db, async () => expect((await callAs(server, admin, 'GET', ApiPaths.me, from('203.0.113.10'))).status).toBe(200));
    // The switch came with the session; being on, the service reads the config and the lists.
    expect(inside.total).toBe(6);
    expect(inside.sql.filter((s) => s.includes('ip_restriction')).length).toBe(3);
    const outside = await callAs(server, admin, 'GET', ApiPaths.me, from('198.51.100.66'));
    expect(outside.status).toBe(403);
    expect(outside.body.errorCode).toBe(SecurityErrorCodes.ipRestricted);
  });
});
