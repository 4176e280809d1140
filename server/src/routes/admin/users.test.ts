import { AdminPaths, ApiPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { activeMember, auditsOf, callAs, inviteMember, listUsers, pathOf, roleIdByKey, signIn, superUser, tenantWithAdmin } from '../../test/admin-helpers';
import { invitationMailCount, invitationMailFor } from '../../test/invitation-helpers';
import { call, describeDialects, movableClock, uniqueEmail } from '../../test/harness';
import { addUserToTenant } from '../../db/queries/tenants';
import { assignRole } from '../../db/queries/roles';
import { updateUser } from '../../db/queries/users';
import { updateMembershipState } from '../../db/queries/admin-users';
import { seedMembers } from '../../test/member-seed';

const DAY = 86_400_000;

describeDialects('admin users', (harness) => {
  // Many sign-ups from one test client: the per-IP sign-up limit is not what these tests are about.
  const h = { start: (env: Record<string, string> = {}, overrides?: Parameters<typeof harness.start>[1]) => harness.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60', ...env }, overrides) };
  it('lists the tenant\'s users 20 a page sorted by name, with roles, joinedAt, lastSeen and managedBy, and only this tenant\'s', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const other = await tenantWithAdmin(server);
    await inviteMember(server, other);
    for (let i = 0; i < 21; i++) await inviteMember(server, admin, { name: `Zed ${String(i).padStart(2, '0')}` });

    const first = await listUsers(server, admin);
    expect(first._metadata).toEqual({ totalItems: 22, totalPages: 2 });
    expect(first.items).toHaveLength(20);
    const names = first.items.map((u) => u.name);
    expect(names).toEqual([...names].sort((x, y) => (x.toLowerCase() < y.toLowerCase() ? -1 : 1)));
    const me = first.items.find((u) => u.id === admin.userId)!;
    expect(me).toMatchObject({ email: admin.email, tenantId: admin.tenantId, verified: true, isLocked: false, isDisabled: false, managedBy: 'frontegg', provider: 'local', invitationPending: false });
    expect(me.roles.map((r: { key: string }) => r.key)).toEqual(['Admin']);
    expect(me.lastSeen).not.toBeNull();
    expect(Date.parse(me.joinedAt)).toBeGreaterThan(0);
    const invited = first.items.find((u) => u.name === 'Zed 00')!;
    expect(invited).toMatchObject({ verified: false, invitationPending: true, lastSeen: null });
    expect(invited.roles.map((r: { key: string }) => r.key)).toEqual(['ReadOnly']);

    const second = await listUsers(server, admin, '?pageOffset=1');
    expect(second.items).toHaveLength(2);
    expect(second.items.map((u) => u.name)).toEqual(['Zed 19', 'Zed 20']);
    // The v3 call: the same rows, page by _offset and _limit.
    const v3 = await callAs(server, admin, 'GET', `${AdminPaths.usersV3}?_offset=1&_limit=20&_sortBy=name&_order=ASC`);
    expect(v3.body.items.map((u: { id: string }) => u.id)).toEqual(second.items.map((u) => u.id));
  });

  it('searches by name or email prefix, case-insensitively, and sorts by any sort field in both directions', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const ada = await inviteMember(server, admin, { name: 'Ada Byron' }, uniqueEmail('zz-ada'));
    const bob = await inviteMember(server, admin, { name: 'bob Stone' }, uniqueEmail('bobby'));
    await inviteMember(server, admin, { name: 'Carol Ng' }, uniqueEmail('carol'));

    // The admin's address starts admin-…: 'AD' finds both, 'ADA B' only Ada Byron.
    expect((await listUsers(server, admin, '?filter=AD')).items.map((u) => u.id).sort()).toEqual([admin.userId, ada.userId].sort());
    expect((await listUsers(server, admin, '?filter=ADA%20B')).items.map((u) => u.id)).toEqual([ada.userId]);
    expect((await listUsers(server, admin, '?filter=zz-a')).items.map((u) => u.id)).toEqual([ada.userId]);
    expect((await listUsers(server, admin, '?filter=BOB')).items.map((u) => u.id)).toEqual([bob.userId]);
    expect((await listUsers(server, admin, '?filter=Byron')).items).toEqual([]);
    expect((await listUsers(server, admin, '?filter=%25')).items).toEqual([]);

    const byEmailDesc = (await listUsers(server, admin, '?sortBy=email&sortDirection=desc')).items.map((u) => u.email);
    expect(byEmailDesc).toEqual([...byEmailDesc].sort().reverse());
    const byCreated = (await listUsers(server, admin, '?sortBy=createdAt')).items.map((u) => Date.parse(u.createdAt));
    expect(byCreated).toEqual([...byCreated].sort((x, y) => x - y));
    // verified first when descending: only the admin has activated.
    expect((await listUsers(server, admin, '?sortBy=verified&sortDirection=desc')).items[0].id).toBe(admin.userId);
    for (const sortBy of ['id', 'isLocked', 'tenantId', 'provider']) expect((await listUsers(server, admin, `?sortBy=${sortBy}`)).items).toHaveLength(4);
  });

  it('filters by the presets mfa-unenrolled, breached-passwords and inactive (no sign-in for 90 days)', async () => {
    const clock = movableClock(Date.UTC(2026, 0, 1));
    const server = await h.start({}, { clock });
    const admin = await tenantWithAdmin(server);
    const enrolled = await inviteMember(server, admin, { name: 'Enrolled' });
    const breached = await inviteMember(server, admin, { name: 'Breached' });
    const old = await inviteMember(server, admin, { name: 'Old' });
    await server.db.insertInto('mfa_devices').values({ id: 'dev-1', user_id: enrolled.userId, type: 'authenticator', status: 'active', secret: null, email: null, last_used_step: null, created_at: clock.now(), verified_at: clock.now() }).execute();
    await updateUser(server.db, breached.userId, { is_breached_password: 1 });
    await updateUser(server.db, old.userId, { created_at: clock.now() - 200 * DAY, last_login: clock.now() - 91 * DAY });
    await updateUser(server.db, admin.userId, { last_login: clock.now() - 89 * DAY });

    const ids = async (preset: string) => (await listUsers(server, admin, `?preset=${preset}`)).items.map((u) => u.id).sort();
    expect(await ids('mfa-unenrolled')).toEqual([admin.userId, breached.userId, old.userId].sort());
    expect(await ids('breached-passwords')).toEqual([breached.userId]);
    expect(await ids('inactive')).toEqual([old.userId]);
    expect((await listUsers(server, admin, '?preset=mfa-unenrolled')).items.every((u) => !u.mfaEnrolled)).toBe(true);
    const stats = await callAs(server, admin, 'GET', AdminPaths.teamStats);
    expect(stats.body).toMatchObject({ totalUsers: 4, pendingInvitations: 3, mfaUnenrolled: 3, breachedPasswords: 1, inactive: 1, disabled: 0, locked: 0, temporary: 0 });
  });

  it('counts disabled, locked, temporary and inactive members apart in the team stats, and only the tenant\'s own', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const other = await tenantWithAdmin(server, 'other');
    const now = Date.now();
    // 5 of 12 last signed in 100 days ago (inactive); the admin signed in just now.
    await seedMembers(server, admin.tenantId, 12, 'stat', { domain: 'stats.test', createdDaysAgo: () => 200, lastLoginDaysAgo: (i) => (i < 5 ? 100 : 1) });
    await seedMembers(server, other.tenantId, 6, 'stat-other', { domain: 'stats.test', createdDaysAgo: () => 200, lastLoginDaysAgo: () => 100 });
    const member = (tenantId: string, prefix: string, i: number) => [tenantId, `${prefix}-${String(i).padStart(4, '0')}`] as const;
    for (const i of [0, 6, 7]) await updateMembershipState(server.db, ...member(admin.tenantId, 'stat', i), { disabled_at: now });
    for (const i of [1, 8]) await updateMembershipState(server.db, ...member(admin.tenantId, 'stat', i), { admin_locked_at: now });
    for (const i of [2, 3, 9, 10]) await updateMembershipState(server.db, ...member(admin.tenantId, 'stat', i), { expires_at: now + DAY });
    for (let i = 0; i < 6; i++) await updateMembershipState(server.db, ...member(other.tenantId, 'stat-other', i), { disabled_at: now, admin_locked_at: now, expires_at: now + DAY });
    const stats = (await callAs(server, admin, 'GET', AdminPaths.teamStats)).body;
    expect(stats).toMatchObject({ totalUsers: 13, disabled: 3, locked: 2, temporary: 4, inactive: 5 });
    expect((await callAs(server, other, 'GET', AdminPaths.teamStats)).body).toMatchObject({ totalUsers: 7, disabled: 6, locked: 6, temporary: 6, inactive: 6 });
  });

  it('answers 400 to a bad list query', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    for (const query of ['?pageSize=101', '?sortBy=password', '?sortDirection=up', '?preset=everyone', '?pageOffset=-1']) {
      const res = await callAs(server, admin, 'GET', `${AdminPaths.teamMembers}${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.errorCode).toBe('ER-01001');
    }
  });

  it('sets a user\'s roles, removes all of them with a single empty role id, and refuses roles of another tenant or of the caller', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const other = await tenantWithAdmin(server);
    const member = await inviteMember(server, admin);
    const support = await roleIdByKey(server, admin, 'Support');
    const readOnly = await roleIdByKey(server, admin, 'ReadOnly');

    const set = await callAs(server, admin, 'PUT', AdminPaths.teamMembers, { body: { id: member.userId, roleIds: [support, readOnly] } });
    expect(set.status).toBe(200);
    expect(set.body.roles.map((r: { key: string }) => r.key)).toEqual(['ReadOnly', 'Support']);
    const cleared = await callAs(server, admin, 'PUT', AdminPaths.teamMembers, { body: { id: member.userId, roleIds: [''] } });
    expect(cleared.body.roleIds).toEqual([]);

    const foreign = await callAs(server, admin, 'PUT', AdminPaths.teamMembers, { body: { id: member.userId, roleIds: [await roleIdByKey(server, other, 'Admin')] } });
    expect([foreign.status, foreign.body.errorCode]).toEqual([400, 'ER-01105']);
    const self = await callAs(server, admin, 'PUT', AdminPaths.teamMembers, { body: { id: admin.userId, roleIds: [readOnly] } });
    expect([self.status, self.body.errorCode]).toEqual([400, 'ER-02401']);
    const audit = (await auditsOf(server, admin.tenantId)).find((a) => a.action === 'User roles updated');
    expect(audit).toMatchObject({ user_id: admin.userId, email: admin.email, severity: 'Info' });
  });

  it('never lets an admin grant, take away or manage beyond their own permissions', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const helper = await activeMember(server, admin, { roleIds: [await roleIdByKey(server, admin, 'Support')] });
    const member = await inviteMember(server, admin);
    // A member with no roles: Support may manage them, but not make them Admin.
    expect((await callAs(server, admin, 'PUT', AdminPaths.teamMembers, { body: { id: member.userId, roleIds: [''] } })).status).toBe(200);

    const grantAdmin = await callAs(server, helper, 'PUT', AdminPaths.teamMembers, { body: { id: member.userId, roleIds: [await roleIdByKey(server, admin, 'Admin')] } });
    expect([grantAdmin.status, grantAdmin.body.errorCode]).toEqual([403, 'ER-01105']);
    for (const path of [AdminPaths.tenantUserDisable, AdminPaths.tenantUserLock]) {
      const res = await callAs(server, helper, 'POST', pathOf(path, { userId: admin.userId }));
      expect([res.status, res.body.errorCode], path).toEqual([403, 'ER-02402']);
    }
    expect((await callAs(server, helper, 'DELETE', pathOf(AdminPaths.teamMember, { userId: admin.userId }))).status).toBe(403);
    // Support may manage a plain member.
    expect((await callAs(server, helper, 'POST', pathOf(AdminPaths.tenantUserDisable, { userId: member.userId }))).status).toBe(200);
  });

  it('disables a user in this tenant only: sessions here end, sign-in to it is refused, their own tenant still works; enable restores it', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const member = await activeMember(server, admin);
    expect((await callAs(server, member, 'GET', ApiPaths.me)).status).toBe(200);

    const disabled = await callAs(server, admin, 'POST', pathOf(AdminPaths.tenantUserDisable, { userId: member.userId }));
    expect(disabled.body.isDisabled).toBe(true);
    expect((await callAs(server, member, 'GET', ApiPaths.me)).status).toBe(401);
    const refused = await signIn(server, member.email);
    expect([refused.status, refused.body.errors]).toEqual([403, ['User is disabled']]);
    expect((await listUsers(server, admin, '?filter=member')).items[0].isDisabled).toBe(true);

    expect((await callAs(server, admin, 'POST', pathOf(AdminPaths.tenantUserEnable, { userId: member.userId }))).body.isDisabled).toBe(false);
    expect((await signIn(server, member.email)).status).toBe(200);

    // Someone with a tenant of their own keeps it when another tenant disables them.
    const owner = await tenantWithAdmin(server, 'owner');
    await addUserToTenant(server.db, owner.userId, admin.tenantId, Date.now());
    await assignRole(server.db, owner.userId, admin.tenantId, await roleIdByKey(server, admin, 'ReadOnly'));
    expect((await callAs(server, admin, 'POST', pathOf(AdminPaths.tenantUserDisable, { userId: owner.userId }))).status).toBe(200);
    const signedIn = await signIn(server, owner.email);
    expect([signedIn.status, signedIn.body.tenantId]).toEqual([200, owner.tenantId]);
    expect((await callAs(server, { accessToken: signedIn.body.accessToken }, 'PUT', ApiPaths.switchTenant, { body: { tenantId: admin.tenantId } })).status).toBe(404);
    expect((await callAs(server, { accessToken: signedIn.body.accessToken }, 'GET', ApiPaths.me, { tenantId: admin.tenantId })).status).toBe(404);
  });

  it('locks and unlocks a user in this tenant, and unlock also lifts the lockout policy\'s lock of an account with no other tenant', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const member = await activeMember(server, admin);
    const locked = await callAs(server, admin, 'POST', pathOf(AdminPaths.tenantUserLock, { userId: member.userId }));
    expect(locked.body.isLocked).toBe(true);
    expect((await callAs(server, member, 'GET', ApiPaths.me)).status).toBe(401);
    expect((await signIn(server, member.email)).status).toBe(403);
    expect((await listUsers(server, admin, '?sortBy=isLocked&sortDirection=desc')).items[0].id).toBe(member.userId);

    expect((await callAs(server, admin, 'POST', pathOf(AdminPaths.tenantUserUnlock, { userId: member.userId }))).body.isLocked).toBe(false);
    expect((await signIn(server, member.email)).status).toBe(200);

    await updateUser(server.db, member.userId, { locked_at: Date.now(), failed_logins: 7 });
    expect((await listUsers(server, admin, '?filter=member')).items[0].isLocked).toBe(true);
    await callAs(server, admin, 'POST', pathOf(AdminPaths.tenantUserUnlock, { userId: member.userId }));
    expect((await signIn(server, member.email)).status).toBe(200);
    expect((await auditsOf(server, admin.tenantId)).filter((a) => a.action.startsWith('User ') && a.action.endsWith('locked')).map((a) => a.action).sort()).toEqual(['User locked', 'User unlocked', 'User unlocked']);
  });

  it('makes a user temporary: their membership ends after expirationInSeconds, unless made permanent again', async () => {
    const clock = movableClock();
    const server = await h.start({}, { clock });
    const admin = await tenantWithAdmin(server);
    const member = await activeMember(server, admin);
    const temporary = await callAs(server, admin, 'PUT', pathOf(AdminPaths.temporaryUser, { userId: member.userId }), { body: { expirationInSeconds: 3600 } });
    expect(temporary.body.temporaryExpirationDate).toBe(new Date(clock.now() + 3600_000).toISOString());
    expect((await signIn(server, member.email)).status).toBe(200);
    const permanent = await callAs(server, admin, 'DELETE', pathOf(AdminPaths.temporaryUser, { userId: member.userId }));
    expect(permanent.body.temporaryExpirationDate).toBeNull();
    clock.advance(3601_000);
    expect((await signIn(server, member.email)).status).toBe(200);

    // The admin's access token expired meanwhile: sign in again.
    const again = { accessToken: (await signIn(server, admin.email)).body.accessToken as string };
    expect((await callAs(server, again, 'PUT', pathOf(AdminPaths.temporaryUser, { userId: member.userId }), { body: { expirationInSeconds: 60 } })).status).toBe(200);
    clock.advance(61_000);
    expect((await signIn(server, member.email)).body.errors).toEqual(['User is disabled']);
    expect((await callAs(server, again, 'GET', AdminPaths.teamStats)).body.temporary).toBe(1);
    expect((await callAs(server, again, 'GET', AdminPaths.temporaryUsersConfiguration)).body).toEqual({ enabled: true });
    const tooShort = await callAs(server, again, 'PUT', pathOf(AdminPaths.temporaryUser, { userId: member.userId }), { body: { expirationInSeconds: 5 } });
    expect(tooShort.status).toBe(400);
  });

  it('refuses temporary users when TEMPORARY_USERS is false', async () => {
    const server = await h.start({ TEMPORARY_USERS: 'false' });
    const admin = await tenantWithAdmin(server);
    const member = await inviteMember(server, admin);
    expect((await callAs(server, admin, 'GET', AdminPaths.temporaryUsersConfiguration)).body).toEqual({ enabled: false });
    const res = await callAs(server, admin, 'PUT', pathOf(AdminPaths.temporaryUser, { userId: member.userId }), { body: { expirationInSeconds: 3600 } });
    expect([res.status, res.body.errorCode]).toEqual([400, 'ER-02409']);
  });

  it('removes a user from the tenant, deleting an account left with no tenant and keeping one that has another', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const member = await activeMember(server, admin);
    const owner = await tenantWithAdmin(server, 'owner');
    await addUserToTenant(server.db, owner.userId, admin.tenantId, Date.now());

    expect((await callAs(server, admin, 'DELETE', pathOf(AdminPaths.teamMember, { userId: member.userId }))).status).toBe(204);
    expect((await callAs(server, member, 'GET', ApiPaths.me)).status).toBe(401);
    expect(await server.db.selectFrom('users').select('id').where('id', '=', member.userId).executeTakeFirst()).toBeUndefined();
    expect((await callAs(server, admin, 'DELETE', pathOf(AdminPaths.teamMember, { userId: owner.userId }))).status).toBe(204);
    expect((await signIn(server, owner.email)).body.tenantId).toBe(owner.tenantId);
    expect((await listUsers(server, admin)).items.map((u) => u.id)).toEqual([admin.userId]);
    expect((await callAs(server, admin, 'DELETE', pathOf(AdminPaths.teamMember, { userId: member.userId }))).status).toBe(404);
    const self = await callAs(server, admin, 'DELETE', pathOf(AdminPaths.teamMember, { userId: admin.userId }));
    expect([self.status, self.body.errors]).toEqual([400, ['You cannot remove yourself']]);
    expect((await auditsOf(server, admin.tenantId)).filter((a) => a.action === 'User removed from account').every((a) => a.severity === 'High')).toBe(true);
  });

  it('resends an invitation with a new link (the old one dies) and refuses a user who already activated', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const member = await inviteMember(server, admin);
    const first = await invitationMailFor(server, member.email);
    const resent = await callAs(server, admin, 'POST', pathOf(AdminPaths.teamResendActivation, { userId: member.userId }));
    expect(resent.status).toBe(200);
    expect(await invitationMailCount(server, member.email)).toBe(2);
    const second = await invitationMailFor(server, member.email);
    expect(second.token).not.toBe(first.token);
    expect((await call(server, 'POST', ApiPaths.invitationVerify, { body: { userId: first.userId, token: first.token } })).status).toBe(400);
    expect((await call(server, 'POST', ApiPaths.invitationVerify, { body: { userId: second.userId, token: second.token } })).status).toBe(200);
    const activated = await callAs(server, admin, 'POST', pathOf(AdminPaths.teamResendActivation, { userId: admin.userId }));
    expect([activated.status, activated.body.errors]).toEqual([400, ['This user has already activated their account']]);
  });

  it('invites a list of emails one by one, splitting them into allowed and unallowed', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const existing = await inviteMember(server, admin);
    const fresh = uniqueEmail('bulk');
    const res = await callAs(server, admin, 'POST', AdminPaths.bulkInvite, { body: { emails: [fresh, 'not-an-email', existing.email, fresh.toUpperCase()] } });
    expect(res.status).toBe(200);
    expect(res.body.allowed).toEqual([{ email: fresh, userId: expect.any(String) }]);
    expect(res.body.unallowed).toEqual([
      { email: 'not-an-email', reason: 'Not a valid email address', errorCode: 'ER-01001' },
      { email: existing.email, reason: 'User is already invited to this account; resend the invitation instead', errorCode: 'ER-01104' },
    ]);
    expect(await invitationMailCount(server, fresh)).toBe(1);
    expect((await callAs(server, admin, 'POST', AdminPaths.bulkInvite, { body: { emails: [] } })).status).toBe(400);
  });

  it('answers the roles and groups of the given users, leaving out ids that are not members', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const other = await tenantWithAdmin(server);
    const member = await inviteMember(server, admin);
    const group = await callAs(server, admin, 'POST', AdminPaths.groups, { body: { name: 'Ops', color: '#aa0000' } });
    await callAs(server, admin, 'POST', pathOf(AdminPaths.groupUsers, { groupId: group.body.id }), { body: { userIds: [member.userId] } });
    const roles = await callAs(server, admin, 'GET', `${AdminPaths.usersRolesV3}?ids=${member.userId},${other.userId},nobody`);
    expect(roles.body).toEqual([{ userId: member.userId, roles: [expect.objectContaining({ key: 'ReadOnly' })] }]);
    const groups = await callAs(server, admin, 'GET', `${AdminPaths.usersGroupsV3}?ids=${member.userId},${admin.userId}`);
    expect(groups.body).toEqual([
      { userId: member.userId, groups: [{ id: group.body.id, name: 'Ops', color: '#aa0000' }] },
      { userId: admin.userId, groups: [] },
    ]);
    expect((await callAs(server, admin, 'GET', `${AdminPaths.usersRolesV3}?ids=`)).status).toBe(400);
  });

  it('refuses changes from an impersonation session even when the impersonated user may make them', async () => {
    const server = await h.start();
    const root = await superUser(server);
    const admin = await tenantWithAdmin(server);
    const member = await activeMember(server, admin);
    await addUserToTenant(server.db, root.userId, admin.tenantId, Date.now());
    const issued = await callAs(server, root, 'POST', ApiPaths.impersonation, { tenantId: admin.tenantId, body: { userId: admin.userId } });
    expect(issued.status).toBe(200);
    const session = await call(server, 'POST', ApiPaths.impersonate, { body: { token: issued.body.token } });
    const asAdmin = { accessToken: session.body.accessToken as string };
    expect((await callAs(server, asAdmin, 'GET', AdminPaths.teamMembers)).status).toBe(200);
    const write = await callAs(server, asAdmin, 'POST', pathOf(AdminPaths.tenantUserDisable, { userId: member.userId }));
    expect([write.status, write.body.errorCode]).toEqual([403, 'ER-01108']);
  });
});
