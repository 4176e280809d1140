/**
 * Events raised by users' own changes and authentication (issue 16), each proven over HTTP: the
 * change is made through the API and its event row is found with the catalogue's data and the actor.
 */
import { ApiPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { callAs, inviteMember } from '../../test/admin-helpers';
import { countEvents, eventsOf, onlyEvent } from '../../test/event-helpers';
import { invitationMailFor } from '../../test/invitation-helpers';
import { call, describeDialects, mailbox, PASSWORD, signUpAndActivate, uniqueEmail } from '../../test/harness';
import { enrolledUser, login, stepClock } from '../../test/mfa-helpers';
import { appCode } from '../../test/rfc6238';

const ROOMY = { RATE_LIMIT_LOGIN_PER_IP: '1000/600', RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_PASSWORD_RESET_PER_IP: '1000/3600' };
const wrongPassword = (server: GatehouseServer, email: string) => call(server, 'POST', ApiPaths.login, { body: { email, password: `${PASSWORD}!` } });

describeDialects('events raised by sign-up, sign-in and the user’s own account', (h) => {
  it('a sign-up raises user.created (source signup) and its activation user.activated and user.signed_in, the user acting', async () => {
    const server = await h.start(ROOMY);
    const user = await signUpAndActivate(server);
    const me = { userId: user.userId, email: user.email };
    const events = await eventsOf(server, user.tenantId);
    // Events of one millisecond (the activation and its sign-in are one transaction) have no order
    // between them: each is found by its key, and none occurred before the one it follows.
    expect(events.map((e) => e.key).sort()).toEqual(['user.activated', 'user.created', 'user.signed_in']);
    const [created, activated, signedIn] = (['user.created', 'user.activated', 'user.signed_in'] as const).map((key) => events.find((e) => e.key === key)!);
    expect(created).toMatchObject({ data: { userId: user.userId, email: user.email, name: user.email.split('@')[0], source: 'signup' }, actor: me });
    expect(activated).toMatchObject({ data: { userId: user.userId, email: user.email }, actor: me });
    expect(signedIn).toMatchObject({ data: { userId: user.userId, email: user.email, method: 'activation link' }, actor: me });
    expect(created!.occurredAt).toBeLessThanOrEqual(activated!.occurredAt);
    expect(activated!.occurredAt).toBeLessThanOrEqual(signedIn!.occurredAt);
  });

  it('a wrong password raises user.sign_in_failed, the lockout policy user.locked (failed_sign_ins) and the unlock link user.unlocked', async () => {
    const server = await h.start({ ...ROOMY, LOCKOUT_MAX_ATTEMPTS: '2' });
    const user = await signUpAndActivate(server);
    expect((await wrongPassword(server, user.email)).status).toBe(401);
    const failed = await onlyEvent(server, user.tenantId, 'user.sign_in_failed');
    expect(failed).toMatchObject({ data: { userId: user.userId, email: user.email, reason: 'wrong password' }, actor: { userId: user.userId, email: user.email } });
    await wrongPassword(server, user.email);
    expect((await onlyEvent(server, user.tenantId, 'user.locked')).data).toEqual({ userId: user.userId, email: user.email, reason: 'failed_sign_ins' });
    const unlockMail = (await mailbox(server)).find((m) => m.to === user.email && m.text.includes('/account/unlock?token='))!;
    const token = new URL(/https?:\/\/\S+\/account\/unlock\?\S+/.exec(unlockMail.text)![0]).searchParams.get('token')!;
    expect((await call(server, 'POST', ApiPaths.unlockAccount, { body: { token } })).status).toBe(200);
    expect((await onlyEvent(server, user.tenantId, 'user.unlocked')).data).toEqual({ userId: user.userId, email: user.email });
    // A sign-in with the right password afterwards.
    const before = await countEvents(server, user.tenantId, 'user.signed_in');
    expect((await login(server, user.email)).status).toBe(200);
    expect((await onlyEvent(server, user.tenantId, 'user.signed_in', before)).data).toEqual({ userId: user.userId, email: user.email, method: 'password' });
  });

  it('MFA enrolment and removal raise user.mfa_enrolled and user.mfa_removed; a password change raises user.password_changed', async () => {
    const clock = stepClock();
    const server = await h.start(ROOMY, { clock });
    const user = await enrolledUser(server, clock.now);
    expect((await onlyEvent(server, user.tenantId, 'user.mfa_enrolled')).data).toEqual({ userId: user.userId, email: user.email, method: 'authenticator app' });
    // MFA's own calls want a session that proved the second factor.
    clock.advance(30_000);
    const pending = await login(server, user.email);
    const verified = await call(server, 'POST', ApiPaths.mfaVerify, { body: { mfaToken: pending.body.mfaToken, value: appCode(user.secret, clock.now()) } });
    expect(verified.status).toBe(200);
    const token = verified.body.accessToken as string;
    expect((await call(server, 'POST', ApiPaths.passwordsChange, { token, body: { password: PASSWORD, newPassword: 'another long passphrase' } })).status).toBe(200);
    expect(await onlyEvent(server, user.tenantId, 'user.password_changed')).toMatchObject({ data: { userId: user.userId, email: user.email }, actor: { userId: user.userId } });
    clock.advance(30_000);
    expect((await call(server, 'POST', ApiPaths.mfaDisable, { token, body: { code: appCode(user.secret, clock.now()) } })).status).toBe(200);
    expect((await onlyEvent(server, user.tenantId, 'user.mfa_removed')).data).toEqual({ userId: user.userId, email: user.email, method: 'authenticator app' });
  });

  it('a password reset through the emailed link raises user.password_reset', async () => {
    const server = await h.start(ROOMY);
    const user = await signUpAndActivate(server);
    await call(server, 'POST', ApiPaths.passwordsReset, { body: { email: user.email } });
    await server.recovery.idle();
    expect(await countEvents(server, user.tenantId, 'user.password_reset')).toBe(0);
    const mail = (await mailbox(server)).find((m) => m.to === user.email && m.text.includes('/account/reset-password'));
    const link = new URL(/https?:\/\/\S+\/account\/reset-password\?\S+/.exec(mail!.text)![0]);
    const reset = await call(server, 'POST', ApiPaths.passwordsResetVerify, { body: { userId: link.searchParams.get('userId'), token: link.searchParams.get('token'), password: 'a brand new passphrase' } });
    expect(reset.status).toBe(200);
    expect(await onlyEvent(server, user.tenantId, 'user.password_reset')).toMatchObject({ data: { userId: user.userId, email: user.email }, actor: { userId: user.userId, email: user.email } });
  });

  it('a profile edit raises user.updated in each tenant of the user, naming the fields sent; an empty edit raises nothing', async () => {
    const server = await h.start(ROOMY);
    const user = await signUpAndActivate(server);
    const res = await call(server, 'PUT', ApiPaths.me, { token: user.accessToken, body: { name: 'Grace Hopper', jobTitle: 'Rear admiral' } });
    expect(res.status).toBe(200);
    const updated = await onlyEvent(server, user.tenantId, 'user.updated');
    expect(updated).toMatchObject({ data: { userId: user.userId, email: user.email }, actor: { userId: user.userId, email: user.email } });
    expect((updated.data.changedFields as string[]).sort()).toEqual(['jobTitle', 'name']);
    expect((await call(server, 'PUT', ApiPaths.me, { token: user.accessToken, body: {} })).status).toBe(200);
    expect(await countEvents(server, user.tenantId, 'user.updated')).toBe(1);
  });

  it('an invitation raises user.invited (the admin acting) and its acceptance user.activated (the user acting)', async () => {
    const server = await h.start(ROOMY);
    const admin = await signUpAndActivate(server);
    const roles = (await callAs(server, admin, 'GET', '/identity/resources/roles/v1')).body as { id: string; key: string }[];
    const readOnly = roles.find((r) => r.key === 'ReadOnly')!.id;
    const { userId, email } = await inviteMember(server, admin, { roleIds: [readOnly] }, uniqueEmail('invitee'));
    expect(await onlyEvent(server, admin.tenantId, 'user.invited')).toMatchObject({ data: { userId, email, roleIds: [readOnly] }, actor: { userId: admin.userId, email: admin.email } });
    const mail = await invitationMailFor(server, email);
    expect((await call(server, 'POST', ApiPaths.invitationAccept, { body: { userId: mail.userId, token: mail.token, password: PASSWORD } })).status).toBe(200);
    const activated = (await eventsOf(server, admin.tenantId, 'user.activated')).filter((e) => e.data.userId === userId);
    expect(activated).toHaveLength(1);
    expect(activated[0]).toMatchObject({ data: { userId, email }, actor: { userId, email } });
  });
});
