/**
 * SCIM Users against account takeover (issue 15 security review, findings 1, 2 and 4): a provisioning
 * token of a tenant links an existing account only when it may (never a super user, never someone
 * holding permissions its creator lacks, another tenant's account only in a validated SSO domain of
 * the tenant), writes the account's own fields and deletes the account only when SCIM created it,
 * never vouches for an address outside those domains, and loses its record of a membership removed another way.
 */
import { AdminPaths, ApiPaths, ErrorCodes, Permissions, ProvisioningPaths, SelfServiceErrorCodes, SelfServicePaths } from '@gatehouse/shared/wire';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { deleteUserAccount, removeMembership } from '../../db/queries/admin-users';
import { findPermissionByKey } from '../../db/queries/admin-roles';
import { updateUser } from '../../db/queries/users';
import { activeMember, auditsOf, callAs, inviteMember, memberWithoutPermissions, pathOf, roleIdByKey, signIn, superUser, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { startTestDns, type TestDns } from '../../test/dns-server';
import { activationLinkFor, call, describeDialects, mailbox, movableClock, PASSWORD, signUpAndActivate, uniqueEmail } from '../../test/harness';
import { tenantWithSso } from '../../test/sso-helpers';
import { oktaUser, scim, scimConnection, SCHEMA_ERROR, SCHEMA_PATCH } from '../../test/scim-helpers';

let dns: TestDns;
beforeAll(async () => {
  dns = await startTestDns();
});
afterAll(async () => {
  await dns?.stop();
});

async function roleWith(server: GatehouseServer, admin: TenantAdmin, key: string, permissionKeys: string[]): Promise<string> {
  const permissionIds = await Promise.all(permissionKeys.map(async (k) => (await findPermissionByKey(server.db, k))!.id));
  const res = await callAs(server, admin, 'POST', AdminPaths.rolesV2, { body: { key, name: key, permissionIds } });
  expect(res.status).toBe(201);
  return res.body.id;
}

const accountOf = (server: GatehouseServer, id: string) => server.db.selectFrom('users').select(['email', 'name', 'verified', 'super_user']).where('id', '=', id).executeTakeFirst();
const scimRowOf = (server: GatehouseServer, tenantId: string, id: string) => server.db.selectFrom('scim_resources').select(['resource_id', 'created_account']).where('tenant_id', '=', tenantId).where('resource_id', '=', id).executeTakeFirst();

describeDialects('SCIM Users: no account takeover', (harness) => {
  const start = () => harness.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60', SSO_DNS_SERVERS: dns.address, RATE_LIMIT_SSO_PER_IP: '1000/600' }, { clock: movableClock() });

  it("refuses to link a super user (the tenant's owner, an operator): 403, and neither the account nor the tenant gets anything of the request", async () => {
    const server = await start();
    const owner = await tenantWithAdmin(server, 'owner');
    const { token } = await scimConnection(server, owner);
    await updateUser(server.db, owner.userId, { super_user: 1 });
    const before = await accountOf(server, owner.userId);
    const res = await scim(server, token, 'POST', '/Users', oktaUser(owner.email, { displayName: 'Mallory' }));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ schemas: [SCHEMA_ERROR], status: '403', detail: expect.stringContaining('operator account') });
    expect(await accountOf(server, owner.userId)).toEqual(before);
    expect(await scimRowOf(server, owner.tenantId, owner.userId)).toBeUndefined();
  });

  it("links a member only when the connection's creator holds every permission the member holds; of a linked account it writes no own field, and DELETE removes the membership only", async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const provisionerRole = await roleWith(server, admin, 'provisioner', [Permissions.provisioningRead, Permissions.provisioningWrite]);
    const provisioner = await activeMember(server, admin, { roleIds: [provisionerRole] });
    const { token } = await scimConnection(server, provisioner);
    // The admin, and a ReadOnly member, hold permissions the provisioner does not.
    for (const email of [admin.email, (await activeMember(server, admin)).email]) {
      const refused = await scim(server, token, 'POST', '/Users', oktaUser(email));
      expect([refused.status, refused.body.detail], email).toEqual([403, expect.stringContaining('permissions the creator of this provisioning connection does not hold')]);
    }
    const plain = await memberWithoutPermissions(server, admin.tenantId);
    const before = await accountOf(server, plain.userId);
    const linked = await scim(server, token, 'POST', '/Users', oktaUser(plain.email, { displayName: 'Someone Else' }));
    expect([linked.status, linked.body.id]).toEqual([201, plain.userId]);
    expect((await scimRowOf(server, admin.tenantId, plain.userId))?.created_account).toBe(0);
    const audit = (await auditsOf(server, admin.tenantId)).find((a) => a.action === 'User provisioned by SCIM');
    expect(audit).toMatchObject({ severity: 'High' });

    const attacker = uniqueEmail('attacker');
    const patched = await scim(server, token, 'PATCH', `/Users/${plain.userId}`, { schemas: [SCHEMA_PATCH], Operations: [{ op: 'replace', path: 'emails[type eq "work"].value', value: attacker }, { op: 'replace', path: 'displayName', value: 'Mallory' }] });
    expect(patched.status).toBe(200);
    // The SCIM record keeps what the identity provider wrote; the account is untouched.
    expect((await scim(server, token, 'GET', `/Users/${plain.userId}`)).body.displayName).toBe('Mallory');
    expect(await accountOf(server, plain.userId)).toEqual(before);

    expect((await scim(server, token, 'DELETE', `/Users/${plain.userId}`)).status).toBe(204);
    expect(await accountOf(server, plain.userId)).toEqual(before);
    expect(await server.db.selectFrom('user_tenants').select('user_id').where('user_id', '=', plain.userId).where('tenant_id', '=', admin.tenantId).executeTakeFirst()).toBeUndefined();
  });

  it('deleteAll of a connection takes the linked member out of the tenant but keeps its account; an account SCIM created goes', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const conn = await scimConnection(server, admin);
    // Invited: this tenant is the account's only one, so only the linked/created distinction keeps it.
    const plain = await activeMember(server, admin);
    expect((await scim(server, conn.token, 'POST', '/Users', oktaUser(plain.email))).status).toBe(201);
    const created = (await scim(server, conn.token, 'POST', '/Users', oktaUser(uniqueEmail('made')))).body;
    expect((await callAs(server, admin, 'DELETE', `${pathOf(ProvisioningPaths.scim2Configuration, { id: conn.id })}?deleteAll=true`)).status).toBe(204);
    expect(await accountOf(server, plain.userId)).toBeDefined();
    expect(await server.db.selectFrom('user_tenants').select('user_id').where('user_id', '=', plain.userId).where('tenant_id', '=', admin.tenantId).executeTakeFirst()).toBeUndefined();
    expect(await accountOf(server, created.id)).toBeUndefined();
  });

  it('refuses to link any account once the connection creator is gone from the tenant', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const creator = await activeMember(server, admin, { roleIds: [await roleWith(server, admin, 'provisioner', [Permissions.provisioningRead, Permissions.provisioningWrite])] });
    const { token } = await scimConnection(server, creator);
    await removeMembership(server.db, admin.tenantId, creator.userId);
    const plain = await memberWithoutPermissions(server, admin.tenantId);
    const res = await scim(server, token, 'POST', '/Users', oktaUser(plain.email));
    expect([res.status, res.body.detail]).toEqual([403, expect.stringContaining('no longer in the tenant')]);
  });

  it('counts a connection creator whose membership an admin disabled as gone: linking is refused', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const creator = await activeMember(server, admin, { roleIds: [await roleIdByKey(server, admin, 'Admin')] });
    const { token } = await scimConnection(server, creator);
    expect((await callAs(server, admin, 'POST', pathOf(AdminPaths.tenantUserDisable, { userId: creator.userId }))).status).toBe(200);
    const plain = await memberWithoutPermissions(server, admin.tenantId);
    const res = await scim(server, token, 'POST', '/Users', oktaUser(plain.email));
    expect([res.status, res.body.detail]).toEqual([403, expect.stringContaining('no longer in the tenant')]);
    expect(await scimRowOf(server, admin.tenantId, plain.userId)).toBeUndefined();
  });

  it("offboards a linked member whatever happened since: after the connection's creator left, PATCH active=false disables and DELETE removes a linked ReadOnly member; enabling it again (PATCH or PUT active=true) is 403", async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const creator = await activeMember(server, admin, { roleIds: [await roleIdByKey(server, admin, 'Admin')] });
    const { token } = await scimConnection(server, creator);
    const person = await activeMember(server, admin, { roleIds: [await roleIdByKey(server, admin, 'ReadOnly')] });
    const linked = await scim(server, token, 'POST', '/Users', oktaUser(person.email));
    expect([linked.status, linked.body.id, linked.body.active]).toEqual([201, person.userId, true]);
    const before = await accountOf(server, person.userId);
    // The creator leaves: it holds nothing in the tenant now, less than the ReadOnly member.
    await removeMembership(server.db, admin.tenantId, creator.userId);
    const membership = () => server.db.selectFrom('user_tenants').select('disabled_at').where('user_id', '=', person.userId).where('tenant_id', '=', admin.tenantId).executeTakeFirst();

    const off = await scim(server, token, 'PATCH', `/Users/${person.userId}`, { schemas: [SCHEMA_PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] });
    expect([off.status, off.body.active]).toEqual([200, false]);
    expect((await membership())?.disabled_at).not.toBeNull();
    const updated = (await auditsOf(server, admin.tenantId)).find((a) => a.action === 'User updated by SCIM');
    expect(updated).toMatchObject({ severity: 'High' });

    // Enabling it again grants access: refused by PATCH and by PUT, the membership stays disabled.
    const refusal = [403, expect.stringContaining('permissions the creator of this provisioning connection does not hold')];
    const on = await scim(server, token, 'PATCH', `/Users/${person.userId}`, { schemas: [SCHEMA_PATCH], Operations: [{ op: 'replace', path: 'active', value: true }] });
    expect([on.status, on.body.detail]).toEqual(refusal);
    const put = await scim(server, token, 'PUT', `/Users/${person.userId}`, oktaUser(person.email, { active: true }));
    expect([put.status, put.body.detail]).toEqual(refusal);
    expect((await membership())?.disabled_at).not.toBeNull();
    expect((await scim(server, token, 'GET', `/Users/${person.userId}`)).body.active).toBe(false);

    const removed = await scim(server, token, 'DELETE', `/Users/${person.userId}`);
    expect(removed.status).toBe(204);
    expect(await membership()).toBeUndefined();
    expect(await accountOf(server, person.userId)).toEqual(before);
    expect((await auditsOf(server, admin.tenantId)).find((a) => a.action === 'User deprovisioned by SCIM')).toMatchObject({ severity: 'High' });
  });

  it('links through a connection an operator (super user, not a member) made for the tenant', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const operator = await superUser(server);
    const made = await callAs(server, operator, 'POST', ProvisioningPaths.scim2Configurations, { body: { source: 'okta' }, tenantId: admin.tenantId });
    expect(made.status).toBe(201);
    const person = await activeMember(server, admin);
    const linked = await scim(server, made.body.token, 'POST', '/Users', oktaUser(person.email));
    expect([linked.status, linked.body.id]).toEqual([201, person.userId]);
  });

  it("does not enable a member an admin disabled when SCIM takes it over (the admin's disable wins until SCIM sets active=true)", async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const person = await activeMember(server, admin, { roleIds: [] });
    expect((await callAs(server, admin, 'POST', pathOf(AdminPaths.tenantUserDisable, { userId: person.userId }))).status).toBe(200);
    const { token } = await scimConnection(server, admin);
    const linked = await scim(server, token, 'POST', '/Users', oktaUser(person.email, { active: true }));
    expect([linked.status, linked.body.active]).toEqual([201, false]);
    expect((await scim(server, token, 'GET', `/Users/${person.userId}`)).body.active).toBe(false);
    const refused = await signIn(server, person.email);
    expect([refused.status, refused.body.errorCode, refused.body.accessToken]).toEqual([403, ErrorCodes.userDisabled, undefined]);
  });

  it("joins another tenant's account only inside a validated SSO domain of the tenant; elsewhere 409 telling to invite or validate the domain, naming no tenant", async () => {
    const server = await start();
    const sso = await tenantWithSso(server, dns, { type: 'saml' });
    const admin: TenantAdmin = { email: sso.adminEmail, userId: '', tenantId: sso.tenantId, accessToken: sso.token };
    const { token } = await scimConnection(server, admin);
    const elsewhere = await tenantWithAdmin(server, 'elsewhere');
    const refused = await scim(server, token, 'POST', '/Users', oktaUser(elsewhere.email));
    expect([refused.status, refused.body.scimType]).toEqual([409, 'uniqueness']);
    expect(refused.body.detail).toContain('invite the user from the portal, or validate the email\'s domain for SSO');
    expect(refused.body.detail).not.toContain(elsewhere.tenantId);
    expect(await server.db.selectFrom('user_tenants').select('user_id').where('user_id', '=', elsewhere.userId).where('tenant_id', '=', sso.tenantId).executeTakeFirst()).toBeUndefined();

    const inDomain = await signUpAndActivate(server, `someone@${sso.domain}`);
    const joined = await scim(server, token, 'POST', '/Users', oktaUser(inDomain.email));
    expect([joined.status, joined.body.id]).toEqual([201, inDomain.userId]);
  });

  it('vouches (verified, listed active) only for accounts it creates in a validated SSO domain of the tenant; others are created unverified', async () => {
    const server = await start();
    const sso = await tenantWithSso(server, dns, { type: 'saml' });
    const admin: TenantAdmin = { email: sso.adminEmail, userId: '', tenantId: sso.tenantId, accessToken: sso.token };
    const { token } = await scimConnection(server, admin);
    const vouched = (await scim(server, token, 'POST', '/Users', oktaUser(`ada.lovelace@${sso.domain}`))).body;
    const outside = (await scim(server, token, 'POST', '/Users', oktaUser(uniqueEmail('outside')))).body;
    expect((await accountOf(server, vouched.id))?.verified).toBe(1);
    expect((await accountOf(server, outside.id))?.verified).toBe(0);
    expect((await scimRowOf(server, sso.tenantId, vouched.id))?.created_account).toBe(1);
    // The person behind an unverified address activates through the activation email, choosing a password.
    expect((await call(server, 'POST', ApiPaths.activateResend, { body: { email: outside.userName } })).status).toBe(200);
    const link = await activationLinkFor(server, outside.userName);
    expect(link.userId).toBe(outside.id);
    expect((await call(server, 'POST', ApiPaths.activate, { body: { userId: link.userId, token: link.token, password: PASSWORD } })).status).toBe(200);
    expect((await signIn(server, outside.userName)).status).toBe(200);
    // An address moved out of the domain is no longer vouched for.
    const moved = uniqueEmail('moved');
    expect((await scim(server, token, 'PATCH', `/Users/${vouched.id}`, { schemas: [SCHEMA_PATCH], Operations: [{ op: 'replace', path: 'emails[type eq "work"].value', value: moved }] })).status).toBe(200);
    expect(await accountOf(server, vouched.id)).toMatchObject({ email: moved, verified: 0 });
  });

  it('a new address SCIM writes on an account it created revokes its sessions and cancels its open reset and activation links and its pending email change', async () => {
    const server = await start();
    const sso = await tenantWithSso(server, dns, { type: 'saml' });
    const admin: TenantAdmin = { email: sso.adminEmail, userId: '', tenantId: sso.tenantId, accessToken: sso.token };
    const { token } = await scimConnection(server, admin);
    const email = `grace.hopper@${sso.domain}`;
    const created = (await scim(server, token, 'POST', '/Users', oktaUser(email))).body;
    const askReset = async () => {
      await call(server, 'POST', ApiPaths.passwordsResetEmailV2, { body: { identifier: email, identifierType: 'email' } });
      await server.recovery.idle();
      const mail = (await mailbox(server)).find((m) => m.to === email && /reset/i.test(m.subject))!;
      return new URL(/https?:\/\/\S+\/account\/reset-password\?\S+/.exec(mail.text)![0]).searchParams.get('token')!;
    };
    const first = await askReset();
    expect((await call(server, 'POST', ApiPaths.passwordsResetVerify, { body: { userId: created.id, token: first, password: 'a much longer passphrase 42' } })).status).toBe(200);
    expect((await signIn(server, email, 'a much longer passphrase 42')).status).toBe(200);
    const pending = await askReset();
    // A signed-in person's email change waiting for its proof.
    const session = await signIn(server, email, 'a much longer passphrase 42');
    const wanted = uniqueEmail('wanted');
    expect((await call(server, 'POST', SelfServicePaths.changeEmail, { token: session.body.accessToken, body: { email: wanted } })).status).toBe(200);
    const changeLink = new URL(/https?:\/\/\S+\/account\/email\/verify\?\S+/.exec((await mailbox(server)).find((m) => m.to === wanted)!.text)![0]).searchParams.get('token')!;
    const live = () => server.db.selectFrom('sessions').select('id').where('user_id', '=', created.id).where('revoked_at', 'is', null).execute();
    expect((await live()).length).toBeGreaterThan(0);

    const moved = `grace@${sso.domain}`;
    expect((await scim(server, token, 'PATCH', `/Users/${created.id}`, { schemas: [SCHEMA_PATCH], Operations: [{ op: 'replace', path: 'emails[type eq "work"].value', value: moved }] })).status).toBe(200);
    expect(await live()).toEqual([]);
    const reset = await call(server, 'POST', ApiPaths.passwordsResetVerify, { body: { userId: created.id, token: pending, password: 'another long passphrase 43' } });
    expect([reset.status, reset.body.errorCode]).toEqual([400, ErrorCodes.invalidResetToken]);
    const proof = await call(server, 'POST', SelfServicePaths.verifyEmailChange, { body: { token: changeLink } });
    expect([proof.status, proof.body.errorCode]).toEqual([400, SelfServiceErrorCodes.invalidEmailChange]);
    expect(await accountOf(server, created.id)).toMatchObject({ email: moved, verified: 1 });

    // An account created outside the domain, not activated yet: its activation link ends with the address it was sent to.
    const outside = (await scim(server, token, 'POST', '/Users', oktaUser(uniqueEmail('outside')))).body;
    expect((await call(server, 'POST', ApiPaths.activateResend, { body: { email: outside.userName } })).status).toBe(200);
    const link = await activationLinkFor(server, outside.userName);
    expect((await scim(server, token, 'PATCH', `/Users/${outside.id}`, { schemas: [SCHEMA_PATCH], Operations: [{ op: 'replace', path: 'emails[type eq "work"].value', value: uniqueEmail('elsewhere') }] })).status).toBe(200);
    const activated = await call(server, 'POST', ApiPaths.activate, { body: { userId: link.userId, token: link.token, password: PASSWORD } });
    expect([activated.status, activated.body.errorCode]).toEqual([400, ErrorCodes.invalidActivationToken]);
    expect((await accountOf(server, outside.id))?.verified).toBe(0);
  });

  it('forgets a membership removed another way: after leaving and being invited again, SCIM answers 404 and the userName can be provisioned again', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const { token } = await scimConnection(server, admin);
    const person = await memberWithoutPermissions(server, admin.tenantId);
    const linked = (await scim(server, token, 'POST', '/Users', oktaUser(person.email))).body;
    // The membership goes by the query every path runs (admin removal, sub-accounts, SCIM), then the person is invited again.
    await removeMembership(server.db, admin.tenantId, person.userId);
    await inviteMember(server, admin, {}, person.email);
    expect((await scim(server, token, 'GET', `/Users/${linked.id}`)).status).toBe(404);
    expect((await scim(server, token, 'PATCH', `/Users/${linked.id}`, { schemas: [SCHEMA_PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] })).status).toBe(404);
    expect((await scim(server, token, 'DELETE', `/Users/${linked.id}`)).status).toBe(404);

    // An account deleted another way frees its userName for a new one.
    const gone = (await scim(server, token, 'POST', '/Users', oktaUser(uniqueEmail('gone')))).body;
    await removeMembership(server.db, admin.tenantId, gone.id);
    await deleteUserAccount(server.db, gone.id);
    expect((await scim(server, token, 'POST', '/Users', oktaUser(gone.userName))).status).toBe(201);
  });
});
