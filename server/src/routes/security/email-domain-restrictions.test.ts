/**
 * Email-domain restriction endpoints over HTTP on both dialects (CRUD, bulk, config, verify, audit),
 * and their enforcement wherever an address joins or moves into the tenant: admin invitation (403
 * ER-02803), bulk invite ("unallowed"), sign-up through an invite link, joining by invite link, and
 * self-service email change. A sign-up that makes a new tenant is not restricted.
 */
import { AdminPaths, ApiPaths, SecurityErrorCodes, SecurityPaths, SelfServicePaths } from '@gatehouse/shared/wire';
import { beforeEach, expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { auditsOf, callAs, memberWithoutPermissions, pathOf, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { invitationMailFor } from '../../test/invitation-helpers';
import { activationLinkFor, call, describeDialects, mailbox, PASSWORD, signUpAndActivate } from '../../test/harness';

const hex = () => Math.random().toString(16).slice(2, 10);

describeDialects('email-domain restriction endpoints and enforcement', (h) => {
  let server: GatehouseServer;
  let admin: TenantAdmin;
  const as = (method: string, path: string, body?: unknown) => callAs(server, admin, method, path, body !== undefined ? { body } : {});
  const restrict = async (config: { listType: 'ALLOW' | 'BLOCK'; blockPublicDomains?: boolean }, entries: { domain: string; type: 'ALLOW' | 'BLOCK' }[]) => {
    if (entries.length) expect((await as('POST', SecurityPaths.emailDomainRestrictionsBulk, { restrictions: entries })).status).toBe(200);
    expect((await as('POST', SecurityPaths.emailDomainRestrictionsConfig, { active: true, blockPublicDomains: false, ...config })).status).toBe(200);
  };

  beforeEach(async () => {
    server = await h.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60', RATE_LIMIT_INVITATION_ACCEPT_PER_IP: '1000/60' });
    admin = await tenantWithAdmin(server);
  });

  it('creates, lists, patches and deletes domains (lower case, validated, audited with old and new values)', async () => {
    const created = await as('POST', SecurityPaths.emailDomainRestrictions, { domain: 'Acme.Example.', type: 'ALLOW' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ domain: 'acme.example', type: 'ALLOW' });
    expect((await as('POST', SecurityPaths.emailDomainRestrictions, { domain: 'acme.example', type: 'ALLOW' })).status).toBe(409);
    for (const domain of ['@acme.example', 'user@acme.example', 'localhost', 'bad_domain.com']) {
      const bad = await as('POST', SecurityPaths.emailDomainRestrictions, { domain, type: 'BLOCK' });
      expect(bad.status, domain).toBe(400);
      expect(bad.body.errors[0], domain).toMatch(/^domain: /);
    }
    const one = pathOf(SecurityPaths.emailDomainRestriction, { id: created.body.id });
    const patched = await as('PATCH', one, { type: 'BLOCK' });
    expect(patched.body).toMatchObject({ id: created.body.id, domain: 'acme.example', type: 'BLOCK' });
    const list = await as('GET', `${SecurityPaths.emailDomainRestrictions}?offset=0&limit=10`);
    expect([list.body.total, list.body.items[0].type]).toEqual([1, 'BLOCK']);
    expect((await as('DELETE', one)).status).toBe(204);
    expect((await as('DELETE', one)).status).toBe(404);

    const audits = await auditsOf(server, admin.tenantId);
    const update = JSON.parse(audits.find((r) => r.action === 'Email domain restriction updated')!.json!);
    expect([update.old.type, update.new.type]).toEqual(['ALLOW', 'BLOCK']);
    expect(JSON.parse(audits.find((r) => r.action === 'Email domain restriction deleted')!.json!)).toMatchObject({ old: { domain: 'acme.example' }, new: null });
  });

  it('saves a bulk list all or nothing, and keeps the config inactive until saved (audited)', async () => {
    const bad = await as('POST', SecurityPaths.emailDomainRestrictionsBulk, { restrictions: [{ domain: 'ok.example', type: 'BLOCK' }, { domain: 'not a domain', type: 'BLOCK' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatch(/^restrictions\.1\.domain: /);
    expect((await as('GET', SecurityPaths.emailDomainRestrictions)).body.total).toBe(0);

    expect((await as('GET', SecurityPaths.emailDomainRestrictionsConfig)).body).toEqual({ active: false, listType: 'BLOCK', blockPublicDomains: false });
    await restrict({ listType: 'ALLOW', blockPublicDomains: true }, [{ domain: 'acme.example', type: 'ALLOW' }, { domain: 'ACME.example', type: 'ALLOW' }]);
    expect((await as('GET', SecurityPaths.emailDomainRestrictions)).body.total).toBe(1);
    expect((await as('GET', SecurityPaths.emailDomainRestrictionsConfig)).body).toEqual({ active: true, listType: 'ALLOW', blockPublicDomains: true });
    const audit = JSON.parse((await auditsOf(server, admin.tenantId)).find((r) => r.action === 'Email domain restriction settings updated')!.json!);
    expect(audit).toEqual({ old: { active: false, listType: 'BLOCK', blockPublicDomains: false }, new: { active: true, listType: 'ALLOW', blockPublicDomains: true } });
  });

  it('verifies an address with the reason it would be refused (subdomains count, public domains when asked)', async () => {
    const verify = async (email: string) => (await as('POST', SecurityPaths.emailDomainRestrictionsVerify, { email })).body;
    expect(await verify('someone@gmail.com')).toEqual({ allowed: true });
    await restrict({ listType: 'ALLOW', blockPublicDomains: true }, [{ domain: 'acme.example', type: 'ALLOW' }, { domain: 'old.acme.example', type: 'BLOCK' }]);
    expect(await verify('a@acme.example')).toEqual({ allowed: true });
    expect(await verify('a@eu.ACME.example')).toEqual({ allowed: true });
    expect(await verify('a@x.old.acme.example')).toEqual({ allowed: false, reason: 'IN_BLOCKLIST' });
    expect(await verify('a@other.example')).toEqual({ allowed: false, reason: 'NOT_IN_ALLOWLIST' });
    expect(await verify('a@gmail.com')).toEqual({ allowed: false, reason: 'PUBLIC_DOMAIN' });
  });

  it('needs the security policy permissions, and never shows or changes another tenant\'s lists', async () => {
    const plain = await memberWithoutPermissions(server, admin.tenantId);
    expect((await callAs(server, plain, 'GET', SecurityPaths.emailDomainRestrictions, { tenantId: admin.tenantId })).status).toBe(403);
    expect((await callAs(server, plain, 'POST', SecurityPaths.emailDomainRestrictions, { tenantId: admin.tenantId, body: { domain: 'x.example', type: 'BLOCK' } })).status).toBe(403);
    const entry = (await as('POST', SecurityPaths.emailDomainRestrictions, { domain: 'secret.example', type: 'BLOCK' })).body;
    const other = await tenantWithAdmin(server);
    expect((await callAs(server, other, 'GET', SecurityPaths.emailDomainRestrictions)).body).toEqual({ items: [], total: 0 });
    expect((await callAs(server, other, 'DELETE', pathOf(SecurityPaths.emailDomainRestriction, { id: entry.id }))).status).toBe(404);
    expect((await callAs(server, other, 'GET', SecurityPaths.emailDomainRestrictions, { tenantId: admin.tenantId })).status).toBe(404);
  });

  it('refuses an admin invitation of a refused address with 403 ER-02803, and creates nobody', async () => {
    await restrict({ listType: 'BLOCK' }, [{ domain: 'blocked.example', type: 'BLOCK' }]);
    const email = `new-${hex()}@blocked.example`;
    const refused = await as('POST', ApiPaths.inviteUser, { email, name: 'Blocked' });
    expect([refused.status, refused.body.errorCode]).toEqual([403, SecurityErrorCodes.emailDomainRestricted]);
    expect(await server.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
    expect((await as('POST', ApiPaths.inviteUser, { email: `ok-${hex()}@fine.example`, name: 'Fine' })).status).toBe(201);
  });

  it('refuses the acceptance of an invitation whose domain the tenant restricted since it was sent, and accepts it once lifted', async () => {
    const email = `invited-${hex()}@later.example`;
    expect((await as('POST', ApiPaths.inviteUser, { email, name: 'Invited' })).status).toBe(201);
    const mail = await invitationMailFor(server, email);
    await restrict({ listType: 'BLOCK' }, [{ domain: 'later.example', type: 'BLOCK' }]);
    const accept = () => call(server, 'POST', ApiPaths.invitationAccept, { body: { userId: mail.userId, token: mail.token, password: PASSWORD } });
    const refused = await accept();
    expect([refused.status, refused.body.errorCode]).toEqual([403, SecurityErrorCodes.emailDomainRestricted]);
    expect((await as('POST', SecurityPaths.emailDomainRestrictionsConfig, { active: false, listType: 'BLOCK', blockPublicDomains: false })).status).toBe(200);
    expect((await accept()).status).toBe(200);
  });

  it('puts a refused address of a bulk invite on the unallowed list and invites the rest', async () => {
    await restrict({ listType: 'ALLOW' }, [{ domain: 'acme.example', type: 'ALLOW' }]);
    const ok = `ok-${hex()}@acme.example`;
    const out = `out-${hex()}@elsewhere.example`;
    const res = await as('POST', AdminPaths.bulkInvite, { emails: [ok, out] });
    expect(res.status).toBe(200);
    expect(res.body.allowed.map((a: { email: string }) => a.email)).toEqual([ok]);
    expect(res.body.unallowed).toEqual([{ email: out, reason: expect.stringContaining('domain'), errorCode: SecurityErrorCodes.emailDomainRestricted }]);
  });

  it('refuses a sign-up through the invite link of a tenant whose restrictions refuse the address, before anything is made', async () => {
    const link = (await as('POST', AdminPaths.inviteLink, { expiresInMinutes: 60 })).body.token as string;
    await restrict({ listType: 'BLOCK', blockPublicDomains: true }, []);
    const email = `someone-${hex()}@gmail.com`;
    const refused = await call(server, 'POST', ApiPaths.signUp, { body: { email, password: PASSWORD, invitationToken: link } });
    expect([refused.status, refused.body.errorCode]).toEqual([403, SecurityErrorCodes.emailDomainRestricted]);
    expect(await server.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
    // A sign-up that makes a tenant of its own has no restrictions yet.
    expect((await call(server, 'POST', ApiPaths.signUp, { body: { email, password: PASSWORD } })).status).toBe(200);
    // The same link lets an allowed address in.
    expect((await call(server, 'POST', ApiPaths.signUp, { body: { email: `someone-${hex()}@acme.example`, password: PASSWORD, invitationToken: link } })).status).toBe(200);
  });

  it('refuses a signed-in user joining by invite link when the tenant refuses their address', async () => {
    const link = (await as('POST', AdminPaths.inviteLink, { expiresInMinutes: 60 })).body.token as string;
    const someone = await signUpAndActivate(server, `joiner-${hex()}@gmail.com`);
    await restrict({ listType: 'BLOCK', blockPublicDomains: true }, []);
    const refused = await call(server, 'POST', AdminPaths.inviteLinkJoin, { token: someone.accessToken, body: { token: link } });
    expect([refused.status, refused.body.errorCode]).toEqual([403, SecurityErrorCodes.emailDomainRestricted]);
    const member = await server.db.selectFrom('user_tenants').select('user_id').where('user_id', '=', someone.userId).where('tenant_id', '=', admin.tenantId).executeTakeFirst();
    expect(member).toBeUndefined();
  });

  it('refuses a self-service email change to a domain a tenant of the user refuses, at the request', async () => {
    await restrict({ listType: 'BLOCK' }, [{ domain: 'blocked.example', type: 'BLOCK' }]);
    const refused = await as('POST', SelfServicePaths.changeEmail, { email: `me-${hex()}@blocked.example` });
    expect([refused.status, refused.body.errorCode]).toEqual([403, SecurityErrorCodes.emailDomainRestricted]);
    expect((await as('POST', SelfServicePaths.changeEmail, { email: `me-${hex()}@fine.example` })).status).toBe(200);
  });

  it('refuses the proof of an email change to a domain restricted since the request, and keeps the old address', async () => {
    const target = `me-${hex()}@later-blocked.example`;
    expect((await as('POST', SelfServicePaths.changeEmail, { email: target })).status).toBe(200);
    const mail = (await mailbox(server)).find((m) => m.to === target);
    const link = new URL(/https?:\/\/\S+\/account\/email\/verify\?\S+/.exec(mail!.text)![0]);
    await restrict({ listType: 'BLOCK' }, [{ domain: 'later-blocked.example', type: 'BLOCK' }]);
    const refused = await call(server, 'POST', SelfServicePaths.verifyEmailChange, { body: { token: link.searchParams.get('token') } });
    expect([refused.status, refused.body.errorCode]).toEqual([403, SecurityErrorCodes.emailDomainRestricted]);
    expect((await as('GET', ApiPaths.me)).body.email).toBe(admin.email);
  });

  it('activates a sign-up made through the link before the domain was restricted with a tenant of its own, not the link\'s', async () => {
    const link = (await as('POST', AdminPaths.inviteLink, { expiresInMinutes: 60 })).body.token as string;
    const email = `early-${hex()}@soon-blocked.example`;
    const signUp = await call(server, 'POST', ApiPaths.signUp, { body: { email, password: PASSWORD, invitationToken: link } });
    expect(signUp.status).toBe(200);
    await restrict({ listType: 'BLOCK' }, [{ domain: 'soon-blocked.example', type: 'BLOCK' }]);
    const { userId, token } = await activationLinkFor(server, email);
    const activated = await call(server, 'POST', ApiPaths.activate, { body: { userId, token, password: PASSWORD } });
    expect(activated.status).toBe(200);
    const tenants = (await server.db.selectFrom('user_tenants').select('tenant_id').where('user_id', '=', userId).execute()).map((r) => r.tenant_id);
    expect(tenants).toHaveLength(1);
    expect(tenants).not.toContain(admin.tenantId);
  });
});
