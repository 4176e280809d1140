/**
 * IP restriction endpoints over HTTP, on both dialects: CRUD with canonical storage and 400s naming
 * the field, paging, bulk (all or nothing), config, verify, "Add my IP", anti-lockout (409 unless
 * confirmed) and the audit record of every change. The server trusts X-Forwarded-For here, so each
 * call can play a different client address.
 */
import { MY_IP_DESCRIPTION, SecurityErrorCodes, SecurityPaths } from '@gatehouse/shared/wire';
import { beforeEach, expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { auditsOf, callAs, memberWithoutPermissions, pathOf, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { describeDialects, movableClock } from '../../test/harness';

const ADMIN_IP = '198.51.100.7';
const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });

describeDialects('IP restriction endpoints', (h) => {
  let server: GatehouseServer;
  let admin: TenantAdmin;
  let clock: ReturnType<typeof movableClock>;
  const as = (method: string, path: string, opts: { body?: unknown; ip?: string } = {}) =>
    callAs(server, admin, method, path, { ...(opts.body !== undefined ? { body: opts.body } : {}), ...from(opts.ip ?? ADMIN_IP) });

  beforeEach(async () => {
    // A clock of its own: entries made in one millisecond would list in id order, not creation order.
    clock = movableClock();
    server = await h.start({ TRUST_PROXY: 'true' }, { clock });
    admin = await tenantWithAdmin(server);
  });

  it('creates entries in canonical form, lists them a page at a time with the total, and audits old and new values', async () => {
    const created = await as('POST', SecurityPaths.ipRestrictions, { body: { ip: '2001:0DB8:0:0::/32', strategy: 'BLOCK', description: 'lab' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ ip: '2001:db8::/32', strategy: 'BLOCK', isActive: true, description: 'lab' });
    expect(Date.parse(created.body.createdAt)).not.toBeNaN();
    for (const ip of ['10.0.0.0/8', '203.0.113.9/32', '::ffff:192.0.2.1']) {
      clock.advance(1000);
      expect((await as('POST', SecurityPaths.ipRestrictions, { body: { ip, strategy: 'BLOCK' } })).status).toBe(201);
    }
    const page = await as('GET', `${SecurityPaths.ipRestrictions}?offset=1&limit=2`);
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(4);
    expect(page.body.items.map((i: { ip: string }) => i.ip)).toEqual(['10.0.0.0/8', '203.0.113.9']);
    expect((await as('GET', `${SecurityPaths.ipRestrictions}?offset=4`)).body.items).toEqual([]);
    const mapped = (await as('GET', SecurityPaths.ipRestrictions)).body.items.at(-1);
    expect(mapped.ip).toBe('192.0.2.1');

    const audit = (await auditsOf(server, admin.tenantId)).find((r) => r.action === 'IP restriction created' && r.json?.includes('2001:db8::/32'));
    expect(JSON.parse(audit!.json!)).toMatchObject({ old: null, new: { ip: '2001:db8::/32', strategy: 'BLOCK' } });
    expect(audit!.ip).toBe(ADMIN_IP);
  });

  it('answers 400 naming `ip` for an invalid address, a zone id, leading zeros or host bits, and saves nothing', async () => {
    for (const ip of ['300.1.1.1', 'fe80::1%eth0', '010.0.0.1', '10.1.2.3/8', 'example.com']) {
      const res = await as('POST', SecurityPaths.ipRestrictions, { body: { ip, strategy: 'ALLOW' } });
      expect(res.status, ip).toBe(400);
      expect(res.body.errors[0], ip).toMatch(/^ip: /);
    }
    expect((await as('POST', SecurityPaths.ipRestrictions, { body: { ip: '10.0.0.1', strategy: 'MAYBE' } })).status).toBe(400);
    expect((await as('GET', SecurityPaths.ipRestrictions)).body.total).toBe(0);
  });

  it('refuses the same address twice on one list (409), in any spelling, but lets it be on both lists', async () => {
    expect((await as('POST', SecurityPaths.ipRestrictions, { body: { ip: '2001:db8::1', strategy: 'BLOCK' } })).status).toBe(201);
    const again = await as('POST', SecurityPaths.ipRestrictions, { body: { ip: '2001:DB8:0::1/128', strategy: 'BLOCK' } });
    expect(again.status).toBe(409);
    expect((await as('POST', SecurityPaths.ipRestrictions, { body: { ip: '2001:db8::1', strategy: 'ALLOW' } })).status).toBe(201);
  });

  it('patches and deletes an entry, auditing the old and new values; an unknown id is 404', async () => {
    const created = (await as('POST', SecurityPaths.ipRestrictions, { body: { ip: '192.0.2.0/24', strategy: 'BLOCK' } })).body;
    const one = pathOf(SecurityPaths.ipRestriction, { id: created.id });
    const patched = await as('PATCH', one, { body: { ip: '192.0.2.128/25', isActive: false, description: 'half' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: created.id, ip: '192.0.2.128/25', isActive: false, description: 'half', strategy: 'BLOCK' });
    expect((await as('PATCH', one, { body: { ip: '192.0.2.1/24' } })).body.errors[0]).toMatch(/^ip: .*did you mean 192\.0\.2\.0\/24/);
    const audits = await auditsOf(server, admin.tenantId);
    const update = JSON.parse(audits.find((r) => r.action === 'IP restriction updated')!.json!);
    expect(update.old).toMatchObject({ ip: '192.0.2.0/24', isActive: true });
    expect(update.new).toMatchObject({ ip: '192.0.2.128/25', isActive: false });

    expect((await as('DELETE', one)).status).toBe(204);
    expect((await as('DELETE', one)).status).toBe(404);
    expect((await as('PATCH', pathOf(SecurityPaths.ipRestriction, { id: 'nope' }), { body: { description: 'x' } })).status).toBe(404);
    const removed = JSON.parse((await auditsOf(server, admin.tenantId)).find((r) => r.action === 'IP restriction deleted')!.json!);
    expect(removed).toMatchObject({ old: { ip: '192.0.2.128/25' }, new: null });
  });

  it('saves a bulk list all or nothing: one bad entry is a 400 naming it, and nothing is saved', async () => {
    const bad = await as('POST', SecurityPaths.ipRestrictionsBulk, { body: { restrictions: [{ ip: '10.0.0.0/8', strategy: 'BLOCK' }, { ip: '10.0.0.256', strategy: 'BLOCK' }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatch(/^restrictions\.1\.ip: /);
    expect((await as('GET', SecurityPaths.ipRestrictions)).body.total).toBe(0);

    const ok = await as('POST', SecurityPaths.ipRestrictionsBulk, {
      body: { restrictions: [{ ip: '10.0.0.0/8', strategy: 'BLOCK' }, { ip: '2001:db8::/48', strategy: 'BLOCK', description: 'v6' }, { ip: '10.0.0.0/8', strategy: 'BLOCK', description: 'again' }] },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.items.map((i: { ip: string; description: string }) => [i.ip, i.description])).toEqual([['10.0.0.0/8', 'again'], ['2001:db8::/48', 'v6']]);
    expect((await as('GET', SecurityPaths.ipRestrictions)).body.total).toBe(2);
    expect((await auditsOf(server, admin.tenantId)).filter((r) => r.action === 'IP restrictions saved in bulk')).toHaveLength(1);
  });

  it('keeps the config inactive until saved, and saves and audits it', async () => {
    expect((await as('GET', SecurityPaths.ipRestrictionsConfig)).body).toEqual({ isActive: false, strategy: 'ALLOW' });
    const saved = await as('POST', SecurityPaths.ipRestrictionsConfig, { body: { isActive: true, strategy: 'BLOCK' } });
    expect(saved.status).toBe(200);
    expect((await as('GET', SecurityPaths.ipRestrictionsConfig)).body).toEqual({ isActive: true, strategy: 'BLOCK' });
    const audit = JSON.parse((await auditsOf(server, admin.tenantId)).find((r) => r.action === 'IP restriction settings updated')!.json!);
    expect(audit).toEqual({ old: { isActive: false, strategy: 'ALLOW' }, new: { isActive: true, strategy: 'BLOCK' } });
    expect((await as('POST', SecurityPaths.ipRestrictionsConfig, { body: { isActive: 'yes', strategy: 'BLOCK' } })).status).toBe(400);
  });

  it('verifies the caller\'s own address, and "Add my IP" allow-lists it described "My IP" (once)', async () => {
    expect((await as('POST', SecurityPaths.ipRestrictionsVerify, { ip: '::ffff:198.51.100.7' })).body).toEqual({ allowed: true, ip: ADMIN_IP });
    expect((await as('POST', SecurityPaths.ipRestrictionsVerify, { ip: '198.51.100.7:51234' })).body).toEqual({ allowed: true, ip: ADMIN_IP });
    const added = await as('POST', SecurityPaths.ipRestrictionsVerifyAllow);
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ ip: ADMIN_IP, strategy: 'ALLOW', isActive: true, description: MY_IP_DESCRIPTION });
    expect((await as('POST', SecurityPaths.ipRestrictionsVerifyAllow)).status).toBe(200);
    expect((await as('GET', SecurityPaths.ipRestrictions)).body.total).toBe(1);

    expect((await as('POST', SecurityPaths.ipRestrictionsConfig, { body: { isActive: true, strategy: 'ALLOW' } })).status).toBe(200);
    expect((await as('POST', SecurityPaths.ipRestrictionsVerify)).body).toEqual({ allowed: true, ip: ADMIN_IP });
  });

  it('refuses a config that would shut the admin out (409 ER-02802) unless confirmSelfLockout, then shuts them out', async () => {
    const refused = await as('POST', SecurityPaths.ipRestrictionsConfig, { body: { isActive: true, strategy: 'ALLOW' } });
    expect(refused.status).toBe(409);
    expect(refused.body.errorCode).toBe(SecurityErrorCodes.selfLockout);
    expect((await as('GET', SecurityPaths.ipRestrictionsConfig)).body.isActive).toBe(false);

    const confirmed = await as('POST', SecurityPaths.ipRestrictionsConfig, { body: { isActive: true, strategy: 'ALLOW', confirmSelfLockout: true } });
    expect(confirmed.status).toBe(200);
    const after = await as('GET', SecurityPaths.ipRestrictionsConfig);
    expect(after.status).toBe(403);
    expect(after.body.errorCode).toBe(SecurityErrorCodes.ipRestricted);
  });

  it('refuses an entry create, patch, delete or bulk that would shut the admin out, unless confirmed', async () => {
    const mine = (await as('POST', SecurityPaths.ipRestrictionsVerifyAllow)).body;
    expect((await as('POST', SecurityPaths.ipRestrictionsConfig, { body: { isActive: true, strategy: 'ALLOW' } })).status).toBe(200);
    const one = pathOf(SecurityPaths.ipRestriction, { id: mine.id });

    const block = await as('POST', SecurityPaths.ipRestrictions, { body: { ip: '198.51.100.0/24', strategy: 'BLOCK' } });
    expect([block.status, block.body.errorCode]).toEqual([409, SecurityErrorCodes.selfLockout]);
    const bulk = await as('POST', SecurityPaths.ipRestrictionsBulk, { body: { restrictions: [{ ip: '0.0.0.0/0', strategy: 'BLOCK' }] } });
    expect(bulk.status).toBe(409);
    expect((await as('PATCH', one, { body: { isActive: false } })).status).toBe(409);
    expect((await as('DELETE', one)).status).toBe(409);
    expect((await as('GET', SecurityPaths.ipRestrictions)).body.total).toBe(1);

    // A change that keeps the admin in needs no confirmation.
    expect((await as('POST', SecurityPaths.ipRestrictions, { body: { ip: '203.0.113.0/24', strategy: 'BLOCK' } })).status).toBe(201);
    // Confirmed, the delete goes through, and the admin is out.
    expect((await as('DELETE', `${one}?confirmSelfLockout=true`)).status).toBe(204);
    expect((await as('GET', SecurityPaths.ipRestrictions)).status).toBe(403);
  });

  it('needs fe.secure.read.securityPolicy to read and fe.secure.write.securityPolicy to change', async () => {
    const plain = await memberWithoutPermissions(server, admin.tenantId);
    for (const [method, path] of [['GET', SecurityPaths.ipRestrictions], ['POST', SecurityPaths.ipRestrictionsVerify], ['POST', SecurityPaths.ipRestrictionsVerifyAllow]] as const) {
      const res = await callAs(server, plain, method, path, { tenantId: admin.tenantId, ...from(ADMIN_IP) });
      expect(res.status, path).toBe(403);
      expect(res.body.errors[0], path).toContain('fe.secure.');
    }
  });
});
