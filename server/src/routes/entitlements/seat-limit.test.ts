import { AdminPaths, ApiPaths, BillingErrorCodes, BillingPaths, SubAccountPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { activeMember, callAs, inviteMember, pathOf, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { insertPlan, subscribe } from '../../test/entitlement-helpers';
import { invitationMailFor } from '../../test/invitation-helpers';
import { activationLinkFor, call, describeDialects, mailbox, PASSWORD, signUpAndActivate, uniqueEmail } from '../../test/harness';

/** Puts the tenant on a new plan allowing `seats` users. */
async function limitSeats(server: GatehouseServer, tenantId: string, seats: number): Promise<string> {
  const planId = await insertPlan(server, { seatLimit: seats });
  await subscribe(server, tenantId, planId);
  return planId;
}

const seatRefusal = (limit: number, used: number) => ({
  status: 403,
  errorCode: BillingErrorCodes.seatLimitReached,
  errors: [`Your plan allows ${limit === 1 ? '1 user' : `${limit} users`}; remove a user or change plan to add more`],
  errorContext: { limit, used },
});
const refusal = (res: { status: number; body: any }) => ({ status: res.status, errorCode: res.body.errorCode, errors: res.body.errors, errorContext: res.body.errorContext });

const seatsUsed = async (server: GatehouseServer, admin: TenantAdmin) => (await callAs(server, admin, 'GET', BillingPaths.usage)).body.seats;

describeDialects('seat limits', (harness) => {
  const start = () => harness.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60', RATE_LIMIT_INVITATION_ACCEPT_PER_IP: '1000/60' });

  it('refuses to invite the 21st user of a plan that allows 20, writing nothing and sending no mail; a disabled member frees a seat, and enabling them takes it back', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    await limitSeats(server, admin.tenantId, 20);
    const members: string[] = [];
    for (let i = 0; i < 19; i++) members.push((await inviteMember(server, admin)).userId);
    expect(await seatsUsed(server, admin)).toEqual({ used: 20, limit: 20 });

    const email = uniqueEmail('twenty-first');
    const mailsBefore = (await mailbox(server)).length;
    const refused = await callAs(server, admin, 'POST', ApiPaths.inviteUser, { body: { email, name: 'Twenty First' } });
    expect(refusal(refused)).toEqual(seatRefusal(20, 20));
    expect(await server.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()).toBeUndefined();
    expect((await mailbox(server)).length).toBe(mailsBefore);
    expect(await seatsUsed(server, admin)).toEqual({ used: 20, limit: 20 });

    // Bulk: the whole list goes through the same rule, each refused address listed with the code.
    const bulk = await callAs(server, admin, 'POST', AdminPaths.bulkInvite, { body: { emails: [uniqueEmail('bulk'), uniqueEmail('bulk')] } });
    expect(bulk.status).toBe(200);
    expect(bulk.body.allowed).toEqual([]);
    expect(bulk.body.unallowed.map((u: any) => u.errorCode)).toEqual([BillingErrorCodes.seatLimitReached, BillingErrorCodes.seatLimitReached]);

    expect((await callAs(server, admin, 'POST', pathOf(AdminPaths.tenantUserDisable, { userId: members[0]! }))).status).toBe(200);
    expect(await seatsUsed(server, admin)).toEqual({ used: 19, limit: 20 });
    expect((await callAs(server, admin, 'POST', ApiPaths.inviteUser, { body: { email, name: 'Twenty First' } })).status).toBe(201);
    const enable = await callAs(server, admin, 'POST', pathOf(AdminPaths.tenantUserEnable, { userId: members[0]! }));
    expect(refusal(enable)).toEqual(seatRefusal(20, 20));
    expect((await server.db.selectFrom('user_tenants').select('disabled_at').where('user_id', '=', members[0]!).where('tenant_id', '=', admin.tenantId).executeTakeFirstOrThrow()).disabled_at).not.toBeNull();
  });

  it('a temporary member past their expiry frees their seat, and making them permanent or extending them takes it back: refused at the limit, nothing changed', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    await limitSeats(server, admin.tenantId, 2);
    const member = await activeMember(server, admin);
    expect(await seatsUsed(server, admin)).toEqual({ used: 2, limit: 2 });
    // A member holding a seat may be made temporary at the limit.
    const path = pathOf(AdminPaths.temporaryUser, { userId: member.userId });
    expect((await callAs(server, admin, 'PUT', path, { body: { expirationInSeconds: 3600 } })).status).toBe(200);
    // The member's temporary membership runs out.
    await server.db.updateTable('user_tenants').set({ expires_at: Date.now() - 1000 }).where('user_id', '=', member.userId).where('tenant_id', '=', admin.tenantId).execute();
    expect(await seatsUsed(server, admin)).toEqual({ used: 1, limit: 2 });
    expect((await callAs(server, admin, 'POST', ApiPaths.inviteUser, { body: { email: uniqueEmail('newcomer'), name: 'Newcomer' } })).status).toBe(201);
    expect(await seatsUsed(server, admin)).toEqual({ used: 2, limit: 2 });

    expect(refusal(await callAs(server, admin, 'DELETE', path))).toEqual(seatRefusal(2, 2));
    expect(refusal(await callAs(server, admin, 'PUT', path, { body: { expirationInSeconds: 3600 } }))).toEqual(seatRefusal(2, 2));
    const row = await server.db.selectFrom('user_tenants').select('expires_at').where('user_id', '=', member.userId).where('tenant_id', '=', admin.tenantId).executeTakeFirstOrThrow();
    expect(Number(row.expires_at)).toBeLessThan(Date.now());
    expect(await seatsUsed(server, admin)).toEqual({ used: 2, limit: 2 });
  });

  it('bulk invite stops at the limit: the addresses that fit are invited, the rest listed as refused', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    await limitSeats(server, admin.tenantId, 3);
    const emails = [uniqueEmail('b1'), uniqueEmail('b2'), uniqueEmail('b3')];
    const res = await callAs(server, admin, 'POST', AdminPaths.bulkInvite, { body: { emails } });
    expect(res.body.allowed.map((a: any) => a.email)).toEqual(emails.slice(0, 2));
    expect(res.body.unallowed).toEqual([{ email: emails[2], reason: 'Your plan allows 3 users; remove a user or change plan to add more', errorCode: BillingErrorCodes.seatLimitReached }]);
  });

  it('an existing account invited holds a seat while the invitation is open; accepting is refused (nothing joined, link still usable) when the plan shrank meanwhile', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const existing = await signUpAndActivate(server, uniqueEmail('existing'));
    const planId = await limitSeats(server, admin.tenantId, 2);
    const invited = await callAs(server, admin, 'POST', ApiPaths.inviteUser, { body: { email: existing.email, name: 'Existing' } });
    expect(invited.status).toBe(201);
    expect(await seatsUsed(server, admin)).toEqual({ used: 2, limit: 2 });
    expect(refusal(await callAs(server, admin, 'POST', ApiPaths.inviteUser, { body: { email: uniqueEmail('third'), name: 'Third' } }))).toEqual(seatRefusal(2, 2));

    await server.db.updateTable('plans').set({ seat_limit: 1 }).where('id', '=', planId).execute();
    const mail = await invitationMailFor(server, existing.email);
    const accept = await call(server, 'POST', ApiPaths.invitationAccept, { body: { userId: mail.userId, token: mail.token } });
    expect(refusal(accept)).toEqual(seatRefusal(1, 1));
    expect(await server.db.selectFrom('user_tenants').select('user_id').where('user_id', '=', existing.userId).where('tenant_id', '=', admin.tenantId).executeTakeFirst()).toBeUndefined();

    await server.db.updateTable('plans').set({ seat_limit: 2 }).where('id', '=', planId).execute();
    const again = await call(server, 'POST', ApiPaths.invitationAccept, { body: { userId: mail.userId, token: mail.token } });
    expect([again.status, again.body.outcome]).toEqual([200, 'joined']);
  });

  it('joining by invite link and signing up through one are refused when the tenant is full; at activation a tenant that filled up meanwhile is not joined', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const planId = await limitSeats(server, admin.tenantId, 2);
    const link = (await callAs(server, admin, 'POST', AdminPaths.inviteLink, { body: {} })).body;

    // A sign-up through the link while a seat is free; the tenant fills up before activation.
    const joiner = uniqueEmail('joiner');
    const signedUp = await call(server, 'POST', ApiPaths.signUp, { body: { email: joiner, password: PASSWORD, invitationToken: link.token } });
    expect(signedUp.status).toBe(200);
    // The signing-up browser's binding cookie: activation there joins the link's tenant (when it can).
    const binding = signedUp.headers.getSetCookie().find((c) => c.startsWith('gatehouse-signup='))?.split(';')[0];
    await inviteMember(server, admin);
    const { userId, token } = await activationLinkFor(server, joiner);
    const activated = await call(server, 'POST', ApiPaths.activate, { body: { userId, token }, headers: { cookie: binding! } });
    expect([activated.status, activated.body.invitationFailed]).toEqual([200, true]);
    expect(activated.body.tenantId).not.toBe(admin.tenantId);

    const signUp = await call(server, 'POST', ApiPaths.signUp, { body: { email: uniqueEmail('late'), password: PASSWORD, invitationToken: link.token } });
    expect(refusal(signUp)).toEqual(seatRefusal(2, 2));
    const someone = await tenantWithAdmin(server, 'someone');
    const join = await callAs(server, someone, 'POST', AdminPaths.inviteLinkJoin, { body: { token: link.token } });
    expect(refusal(join)).toEqual(seatRefusal(2, 2));
    expect(await server.db.selectFrom('user_tenants').select('user_id').where('user_id', '=', someone.userId).where('tenant_id', '=', admin.tenantId).executeTakeFirst()).toBeUndefined();

    await server.db.updateTable('plans').set({ seat_limit: 3 }).where('id', '=', planId).execute();
    expect((await callAs(server, someone, 'POST', AdminPaths.inviteLinkJoin, { body: { token: link.token } })).body.joined).toBe(true);
  });

  it("adding users to a sub-account counts against the sub-account's plan: refused past it, nobody added", async () => {
    const server = await start();
    const parent = await tenantWithAdmin(server, 'parent');
    const created = await callAs(server, parent, 'POST', SubAccountPaths.subTenants, { body: { name: 'Child' } });
    expect(created.status).toBe(201);
    const child = created.body.tenantId as string;
    const [a, b] = [await activeMember(server, parent), await activeMember(server, parent)];
    const inChild = async () => (await server.db.selectFrom('user_tenants').select('user_id').where('tenant_id', '=', child).execute()).length;
    const before = await inChild();
    await limitSeats(server, child, before + 1);
    const both = await callAs(server, parent, 'POST', pathOf(SubAccountPaths.users, { subTenantId: child }), { body: { userIds: [a.userId, b.userId] } });
    expect(refusal(both)).toEqual(seatRefusal(before + 1, before));
    expect(await inChild()).toBe(before);
    expect((await callAs(server, parent, 'POST', pathOf(SubAccountPaths.users, { subTenantId: child }), { body: { userIds: [a.userId] } })).status).toBe(200);
    expect(await inChild()).toBe(before + 1);
  });
});
