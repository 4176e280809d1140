import { ApiPaths, ErrorCodes } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { findInvitation } from '../../db/queries/invitations';
import { isMember } from '../../db/queries/tenants';
import { findUserByEmail } from '../../db/queries/users';
import { activationLinkFor, call, describeDialects, movableClock, PASSWORD, signUpAndActivate, uniqueEmail } from '../../test/harness';
import { claimsOf, invitationMailCount, invitationMailFor, invite, roleId } from '../../test/invitation-helpers';

const NEW_PASSWORD = 'an invited passphrase';
const INVALID = "We couldn't verify your invitation";

const login = (server: GatehouseServer, email: string, password: string) => call(server, 'POST', ApiPaths.login, { body: { email, password } });
const verify = (server: GatehouseServer, body: Record<string, unknown>) => call(server, 'POST', ApiPaths.invitationVerify, { body });
const accept = (server: GatehouseServer, body: Record<string, unknown>) => call(server, 'POST', ApiPaths.invitationAccept, { body });

describeDialects('invitations: invite, verify, accept', (h) => {
  const limits = {
    RATE_LIMIT_SIGNUP_PER_IP: '1000/3600',
    RATE_LIMIT_LOGIN_PER_IP: '1000/600',
    RATE_LIMIT_ACTIVATION_PER_IP: '1000/600',
    RATE_LIMIT_INVITATION_ACCEPT_PER_IP: '1000/600',
    RATE_LIMIT_INVITATION_RESEND_PER_IP: '1000/3600',
  };
  const start: typeof h.start = (env = {}, overrides) => h.start({ ...limits, ...env }, overrides);

  it('a new address becomes an unverified member without a password; accepting sets its password and signs it in to the inviting tenant', async () => {
    const server = await start();
    const admin = await signUpAndActivate(server);
    const email = uniqueEmail('invitee');
    const invited = await invite(server, admin.accessToken, { email, name: 'Grace Hopper', phoneNumber: '+44 20 7946 0958' });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({ email, name: 'Grace Hopper', tenantId: admin.tenantId, invitationAccepted: false, roleIds: [await roleId(server, admin.tenantId, 'ReadOnly')] });

    const row = (await findUserByEmail(server.db, email))!;
    expect(row).toMatchObject({ verified: 0, password_hash: null, name: 'Grace Hopper', phone_number: '+442079460958' });
    expect(await isMember(server.db, row.id, admin.tenantId)).toBe(true);
    // No usable password before acceptance.
    expect((await login(server, email, NEW_PASSWORD)).status).toBe(401);

    const mail = await invitationMailFor(server, email);
    expect(mail.link.startsWith(`${server.config.appUrl}/account/invitation/accept?`)).toBe(true);
    expect(mail.userId).toBe(row.id);
    expect(mail.code).toBeNull();
    const invitation = await findInvitation(server.db, admin.tenantId, row.id);
    // Stored hashed only.
    expect(invitation!.token_hash).not.toContain(mail.token);
    expect(JSON.stringify(invitation)).not.toContain(mail.token);

    const greeted = await verify(server, { userId: mail.userId, token: mail.token });
    expect(greeted.status).toBe(200);
    expect(greeted.body).toEqual({ name: 'Grace Hopper', email, tenantName: 'example.com', shouldSetPassword: true, codeRequired: false });

    const accepted = await accept(server, { userId: mail.userId, token: mail.token, password: NEW_PASSWORD });
    expect(accepted.status).toBe(200);
    expect(accepted.body.outcome).toBe('signedIn');
    expect(accepted.body.tenantId).toBe(admin.tenantId);
    expect(accepted.refreshCookie).toBeTruthy();
    const claims = claimsOf(accepted.body.authResponse.accessToken);
    expect(claims).toMatchObject({ sub: row.id, email, email_verified: true, tenantId: admin.tenantId, tenantIds: [admin.tenantId], roles: ['ReadOnly'] });
    expect((await call(server, 'GET', ApiPaths.me, { token: accepted.body.authResponse.accessToken })).body.verified).toBe(true);
    expect((await login(server, email, NEW_PASSWORD)).status).toBe(200);
    // The audit log names how each sign-in began.
    expect((await server.db.selectFrom('audits').select('description').where('user_id', '=', row.id).where('action', '=', 'User signed in').execute()).map((r) => r.description)).toEqual(['Signed in with invitation', 'Signed in with password']);

    // Single use: the same link again is refused, and says why.
    const again = await accept(server, { userId: mail.userId, token: mail.token, password: 'another passphrase here' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ errors: ['This invitation has already been accepted. Sign in to continue.'], errorCode: ErrorCodes.invalidInvitation });
    expect((await login(server, email, NEW_PASSWORD)).status).toBe(200);
  });

  it('refuses a missing, weak or breached password without using up the link', async () => {
    const server = await start();
    const admin = await signUpAndActivate(server);
    const email = uniqueEmail('invitee');
    await invite(server, admin.accessToken, { email, name: 'Grace' });
    const { userId, token } = await invitationMailFor(server, email);

    const none = await accept(server, { userId, token });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ errors: ['Password is required'], errorCode: ErrorCodes.passwordPolicy });
    const weak = await accept(server, { userId, token, password: 'short' });
    expect(weak.body).toEqual({ errors: ['Password must be at least 8 characters long'], errorCode: ErrorCodes.passwordPolicy });
    const breached = await accept(server, { userId, token, password: 'password123' });
    expect(breached.status).toBe(400);
    expect(breached.body.errorCode).toBe(ErrorCodes.breachedPassword);

    const fixed = await accept(server, { userId, token, password: NEW_PASSWORD });
    expect(fixed.status).toBe(200);
    expect(fixed.body.outcome).toBe('signedIn');
  });

  it('an existing account joins the tenant only when it accepts, keeps its own password and is not signed in', async () => {
    const server = await start();
    const admin = await signUpAndActivate(server);
    const bob = await signUpAndActivate(server, uniqueEmail('bob'));
    const invited = await invite(server, admin.accessToken, { email: bob.email, name: 'Name the admin typed' });
    expect(invited.status).toBe(201);
    // Nothing is granted before acceptance.
    expect(await isMember(server.db, bob.userId, admin.tenantId)).toBe(false);
    expect(claimsOf((await login(server, bob.email, PASSWORD)).body.accessToken).tenantIds).toEqual([bob.tenantId]);

    const { userId, token } = await invitationMailFor(server, bob.email);
    expect(userId).toBe(bob.userId);
    // The greeting uses the account's own name, never the one the admin typed.
    expect((await verify(server, { userId, token })).body).toMatchObject({ name: (await findUserByEmail(server.db, bob.email))!.name, shouldSetPassword: false });

    // A password in the body is ignored: a link never changes an established account's password.
    const joined = await accept(server, { userId, token, password: 'a password the link holder chose' });
    expect(joined.status).toBe(200);
    expect(joined.body).toEqual({ outcome: 'joined', tenantId: admin.tenantId });
    expect(joined.refreshCookie).toBeUndefined();
    expect((await login(server, bob.email, 'a password the link holder chose')).status).toBe(401);

    // The next sign-in lands in the tenant just joined; the own tenant stays.
    const signedIn = claimsOf((await login(server, bob.email, PASSWORD)).body.accessToken);
    expect(signedIn.tenantId).toBe(admin.tenantId);
    expect([...signedIn.tenantIds].sort()).toEqual([admin.tenantId, bob.tenantId].sort());
    expect(signedIn.roles).toEqual(['ReadOnly']);
  });

  it('grants exactly the roles the inviter chose: tenant or roles named by the invitee are ignored', async () => {
    const server = await start();
    const admin = await signUpAndActivate(server);
    const other = await signUpAndActivate(server);
    const email = uniqueEmail('invitee');
    const support = await roleId(server, admin.tenantId, 'Support');
    expect((await invite(server, admin.accessToken, { email, name: 'Grace', roleIds: [support] })).body.roleIds).toEqual([support]);
    const { userId, token } = await invitationMailFor(server, email);
    const accepted = await accept(server, {
      userId,
      token,
      password: NEW_PASSWORD,
      tenantId: other.tenantId,
      roleIds: [await roleId(server, admin.tenantId, 'Admin'), await roleId(server, other.tenantId, 'Admin')],
    });
    expect(accepted.status).toBe(200);
    const claims = claimsOf(accepted.body.authResponse.accessToken);
    expect(claims.tenantId).toBe(admin.tenantId);
    expect(claims.tenantIds).toEqual([admin.tenantId]);
    expect(claims.roles).toEqual(['Support']);
    // Nor can a scoped call or a refresh reach the other tenant.
    expect((await call(server, 'GET', `${ApiPaths.me}?tenantId=${other.tenantId}`, { token: accepted.body.authResponse.accessToken })).status).toBe(404);
    expect((await call(server, 'POST', ApiPaths.refresh, { cookie: accepted.refreshCookie, body: { tenantId: other.tenantId } })).status).toBe(404);
  });

  it("refuses roles of another tenant, and roles carrying permissions the inviter does not hold", async () => {
    const server = await start();
    const admin = await signUpAndActivate(server);
    const other = await signUpAndActivate(server);
    const foreign = await invite(server, admin.accessToken, { email: uniqueEmail(), name: 'X', roleIds: [await roleId(server, other.tenantId, 'ReadOnly')] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errorCode).toBe(ErrorCodes.roleNotGrantable);
    expect(foreign.body.errors[0]).toMatch(/is not a role of this account/);

    // A Support member may invite (users write) but not hand out Admin.
    const supportEmail = uniqueEmail('support');
    await invite(server, admin.accessToken, { email: supportEmail, name: 'Sue', roleIds: [await roleId(server, admin.tenantId, 'Support')] });
    const mail = await invitationMailFor(server, supportEmail);
    const sue = (await accept(server, { userId: mail.userId, token: mail.token, password: NEW_PASSWORD })).body.authResponse.accessToken as string;
    const escalate = await invite(server, sue, { email: uniqueEmail(), name: 'Mallory', roleIds: [await roleId(server, admin.tenantId, 'Admin')] });
    expect(escalate.status).toBe(403);
    expect(escalate.body.errorCode).toBe(ErrorCodes.roleNotGrantable);
    expect(escalate.body.errors).toEqual(['You cannot grant a role with permissions you do not have']);
    const allowed = await invite(server, sue, { email: uniqueEmail(), name: 'Peer', roleIds: [await roleId(server, admin.tenantId, 'Support')] });
    expect(allowed.status).toBe(201);
  });

  it('needs fe.secure.write.users in the tenant: no token 401, a read-only member 403, and nothing is sent', async () => {
    const server = await start();
    const admin = await signUpAndActivate(server);
    const readerEmail = uniqueEmail('reader');
    await invite(server, admin.accessToken, { email: readerEmail, name: 'Reader' });
    const mail = await invitationMailFor(server, readerEmail);
    const reader = (await accept(server, { userId: mail.userId, token: mail.token, password: NEW_PASSWORD })).body.authResponse.accessToken as string;

    const target = uniqueEmail('target');
    expect((await call(server, 'POST', ApiPaths.inviteUser, { body: { email: target, name: 'T' } })).status).toBe(401);
    const denied = await invite(server, reader, { email: target, name: 'T' });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ errors: ['You do not have permission to do this (fe.secure.write.users)'], errorCode: ErrorCodes.forbidden, errorContext: { permission: 'fe.secure.write.users' } });
    expect(await findUserByEmail(server.db, target)).toBeUndefined();
    expect(await invitationMailCount(server, target)).toBe(0);
    // Scoping the call to a tenant the caller is not in is refused before anything else.
    const stranger = await signUpAndActivate(server);
    expect((await invite(server, stranger.accessToken, { email: target, name: 'T' }, `?tenantId=${admin.tenantId}`)).status).toBe(404);
  });

  it('a member is not invited twice (409); re-inviting an open invitation of an existing account sends a new link and kills the old one', async () => {
    const server = await start();
    const admin = await signUpAndActivate(server);
    const email = uniqueEmail('invitee');
    await invite(server, admin.accessToken, { email, name: 'Grace' });
    const again = await invite(server, admin.accessToken, { email, name: 'Grace' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ errors: ['User is already invited to this account; resend the invitation instead'], errorCode: ErrorCodes.alreadyTenantMember });
    const member = await invite(server, admin.accessToken, { email: admin.email, name: 'Me' });
    expect(member.status).toBe(409);
    expect(member.body.errors).toEqual(['User is already a member of this account']);

    const bob = await signUpAndActivate(server, uniqueEmail('bob'));
    await invite(server, admin.accessToken, { email: bob.email, name: 'Bob' });
    const first = await invitationMailFor(server, bob.email);
    await invite(server, admin.accessToken, { email: bob.email, name: 'Bob' });
    const second = await invitationMailFor(server, bob.email);
    expect(second.token).not.toBe(first.token);
    expect((await accept(server, { userId: first.userId, token: first.token })).body).toEqual({ errors: [INVALID], errorCode: ErrorCodes.invalidInvitation });
    expect((await accept(server, { userId: second.userId, token: second.token })).body.outcome).toBe('joined');
  });

  it("refuses missing fields, a wrong token, another user's id and an expired link with clear errors", async () => {
    const clock = movableClock();
    const server = await start({ INVITATION_TOKEN_TTL: '3600' }, { clock });
    const admin = await signUpAndActivate(server);
    const email = uniqueEmail('invitee');
    await invite(server, admin.accessToken, { email, name: 'Grace' });
    const { userId, token } = await invitationMailFor(server, email);

    const missing = await accept(server, { token });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ errors: ['userId: Required'], errorCode: ErrorCodes.validation });
    expect((await verify(server, { userId })).body.errors).toEqual(['token: Required']);
    expect((await verify(server, { userId, token: `${token}x` })).body).toEqual({ errors: [INVALID], errorCode: ErrorCodes.invalidInvitation });
    expect((await verify(server, { userId: admin.userId, token })).body).toEqual({ errors: [INVALID], errorCode: ErrorCodes.invalidInvitation });
    expect((await accept(server, { userId: admin.userId, token, password: NEW_PASSWORD })).body.errorCode).toBe(ErrorCodes.invalidInvitation);

    clock.advance(3600 * 1000);
    const expired = await accept(server, { userId, token, password: NEW_PASSWORD });
    expect(expired.status).toBe(400);
    expect(expired.body).toEqual({ errors: ['This invitation has expired. Ask for a new one below.'], errorCode: ErrorCodes.invalidInvitation });
    expect((await findUserByEmail(server.db, email))!.verified).toBe(0);
  });

  it('normalizes the phone number to E.164 and refuses one without a country code', async () => {
    const server = await start();
    const admin = await signUpAndActivate(server);
    const bad = await invite(server, admin.accessToken, { email: uniqueEmail(), name: 'X', phoneNumber: '020 7946 0958' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual(['phoneNumber: Enter the phone number in international format, starting with + and the country code']);
    const strict = await invite(server, admin.accessToken, { email: uniqueEmail(), name: 'X', tenantId: 'elsewhere' });
    expect(strict.status).toBe(400);
    expect(strict.body.errorCode).toBe(ErrorCodes.validation);
  });

  it("takes over an unfinished sign-up of the address: the sign-up's pending password and link die when the invitee accepts", async () => {
    const server = await start();
    const admin = await signUpAndActivate(server);
    const email = uniqueEmail('victim');
    // Someone else signs up with the address first and never activates.
    await call(server, 'POST', ApiPaths.signUp, { body: { email, password: 'the squatter password' } });
    const signUpLink = await activationLinkFor(server, email);
    expect((await invite(server, admin.accessToken, { email, name: 'Victim' })).status).toBe(201);
    const { userId, token } = await invitationMailFor(server, email);
    expect((await verify(server, { userId, token })).body.shouldSetPassword).toBe(true);
    expect((await accept(server, { userId, token, password: NEW_PASSWORD })).body.outcome).toBe('signedIn');

    const activated = await call(server, 'POST', ApiPaths.activate, { body: { userId: signUpLink.userId, token: signUpLink.token, password: 'the squatter password' } });
    expect(activated.status).toBe(400);
    expect((await login(server, email, 'the squatter password')).status).toBe(401);
    expect(claimsOf((await login(server, email, NEW_PASSWORD)).body.accessToken).tenantId).toBe(admin.tenantId);
  });

  it('under a forced MFA policy accepting answers mfaRequired and starts no session', async () => {
    const server = await start({ MFA_POLICY: 'force' });
    // Not through signUpAndActivate's login: activation signs in directly.
    const admin = await signUpAndActivate(server);
    const email = uniqueEmail('invitee');
    await invite(server, admin.accessToken, { email, name: 'Grace' });
    const { userId, token } = await invitationMailFor(server, email);
    const accepted = await accept(server, { userId, token, password: NEW_PASSWORD });
    expect(accepted.status).toBe(200);
    expect(accepted.body.outcome).toBe('signedIn');
    expect(accepted.body.authResponse).toMatchObject({ mfaRequired: true, accessToken: '' });
    expect(accepted.body.authResponse.mfaToken).toBeTruthy();
    expect(accepted.refreshCookie).toBeUndefined();
  });
});

describeDialects('invitations: resend and rate limits', (h) => {
  it('resend answers the same for unknown addresses, sends a new link that replaces the old, and stops silently at the per-email limit', async () => {
    const server = await h.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_INVITATION_RESEND_PER_EMAIL: '1/3600', RATE_LIMIT_INVITATION_ACCEPT_PER_IP: '1000/600' });
    const admin = await signUpAndActivate(server);
    const email = uniqueEmail('invitee');
    await invite(server, admin.accessToken, { email, name: 'Grace' });
    const first = await invitationMailFor(server, email);

    const unknown = await call(server, 'POST', ApiPaths.invitationResend, { body: { email: uniqueEmail('nobody') } });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual({});
    const resent = await call(server, 'POST', ApiPaths.invitationResend, { body: { email: email.toUpperCase() } });
    expect(resent.status).toBe(200);
    const second = await invitationMailFor(server, email);
    expect(second.token).not.toBe(first.token);
    expect((await verify(server, { userId: first.userId, token: first.token })).body.errors).toEqual([INVALID]);
    expect((await verify(server, { userId: second.userId, token: second.token })).status).toBe(200);

    // The second resend to this address is over its limit of 1: same answer, nothing sent.
    expect((await call(server, 'POST', ApiPaths.invitationResend, { body: { email } })).status).toBe(200);
    expect(await invitationMailCount(server, email)).toBe(2);
    expect((await accept(server, { userId: second.userId, token: second.token, password: NEW_PASSWORD })).body.outcome).toBe('signedIn');
  });

  it('resend revives an expired invitation with a fresh link', async () => {
    const clock = movableClock();
    const server = await h.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', INVITATION_TOKEN_TTL: '600' }, { clock });
    const admin = await signUpAndActivate(server);
    const email = uniqueEmail('invitee');
    await invite(server, admin.accessToken, { email, name: 'Grace' });
    clock.advance(601_000);
    await call(server, 'POST', ApiPaths.invitationResend, { body: { email } });
    const { userId, token } = await invitationMailFor(server, email);
    expect((await accept(server, { userId, token, password: NEW_PASSWORD })).status).toBe(200);
  });

  it('limits verify and accept calls per client IP, and invitations per inviter, with 429 and Retry-After', async () => {
    // A clock of its own: the counters of the other tests in this file (same database) are in older windows.
    const clock = movableClock(Date.now() + 40 * 86400_000);
    const server = await h.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_INVITATION_ACCEPT_PER_IP: '3/600', RATE_LIMIT_INVITE_PER_USER: '2/3600', RATE_LIMIT_INVITATION_RESEND_PER_IP: '1/3600' }, { clock });
    const admin = await signUpAndActivate(server);
    const email = uniqueEmail('invitee');
    expect((await invite(server, admin.accessToken, { email, name: 'A' })).status).toBe(201);
    expect((await invite(server, admin.accessToken, { email: uniqueEmail(), name: 'B' })).status).toBe(201);
    const third = await invite(server, admin.accessToken, { email: uniqueEmail(), name: 'C' });
    expect(third.status).toBe(429);
    expect(third.body.errorCode).toBe(ErrorCodes.rateLimited);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);

    const { userId, token } = await invitationMailFor(server, email);
    for (let i = 0; i < 3; i++) expect((await verify(server, { userId, token: `wrong-${i}` })).status).toBe(400);
    const limited = await accept(server, { userId, token, password: NEW_PASSWORD });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

    expect((await call(server, 'POST', ApiPaths.invitationResend, { body: { email } })).status).toBe(200);
    expect((await call(server, 'POST', ApiPaths.invitationResend, { body: { email } })).status).toBe(429);
  });
});
