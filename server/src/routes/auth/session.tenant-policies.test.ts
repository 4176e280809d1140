/**
 * A tenant's own lockout, rotation and MFA policies at password sign-in (issue 12), on both dialects:
 * each dry run's count is checked against what the saved policy then does to real sign-ins, and
 * another tenant's users keep the vendor's policy.
 */
import { AdminPaths, ApiPaths, ErrorCodes, SecurityPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { activeMember, callAs, inviteMember, pathOf, signIn, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { invitationMailFor } from '../../test/invitation-helpers';
import { call, describeDialects, movableClock, PASSWORD } from '../../test/harness';
import { appCode } from '../../test/rfc6238';

const WRONG = 'not the password at all';
const DAY = 86_400_000;
const ROOMY = { RATE_LIMIT_LOGIN_PER_IP: '1000/600', RATE_LIMIT_SIGNUP_PER_IP: '1000/60', RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT: '1000/600' };

/** Signs the admin in again (their access token lives minutes; the tests move the clock by days). */
async function fresh(server: GatehouseServer, admin: TenantAdmin): Promise<TenantAdmin> {
  const res = await signIn(server, admin.email);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { ...admin, accessToken: res.body.accessToken };
}

describeDialects('tenant policies at password sign-in', (h) => {
  it("locks a tenant's users after the tenant's maxAttempts, not other tenants' users; the dry run counts who the next wrong password locks", async () => {
    const server = await h.start(ROOMY);
    const admin = await tenantWithAdmin(server);
    const [twice, never] = [await activeMember(server, admin), await activeMember(server, admin)];
    const outsider = await tenantWithAdmin(server, 'outsider');
    for (let i = 0; i < 2; i++) expect((await signIn(server, twice.email, WRONG)).status).toBe(401);

    const dry = await callAs(server, admin, 'POST', `${SecurityPaths.lockoutPolicy}?dryRun=true`, { body: { enabled: true, maxAttempts: 2 } });
    expect(dry.body.effects).toEqual([expect.objectContaining({ code: 'USERS_LOCKED_OUT', affected: 1, total: 3 })]);
    expect((await callAs(server, admin, 'POST', SecurityPaths.lockoutPolicy, { body: { enabled: true, maxAttempts: 2 } })).status).toBe(200);

    // The real effect: one more wrong password locks exactly the users the dry run counted.
    const locked = [];
    for (const user of [twice, never]) {
      const res = await signIn(server, user.email, WRONG);
      if (res.body.errorCode === ErrorCodes.accountLocked) locked.push(user.email);
    }
    expect(locked).toEqual([twice.email]);
    expect((await signIn(server, twice.email)).body.errorCode).toBe(ErrorCodes.accountLocked);
    // The second wrong password of `never` reaches 2: locked too.
    expect((await signIn(server, never.email, WRONG)).body.errorCode).toBe(ErrorCodes.accountLocked);
    // Lockout is off for the vendor: the other tenant's admin is never locked.
    for (let i = 0; i < 4; i++) expect((await signIn(server, outsider.email, WRONG)).status).toBe(401);
    expect((await signIn(server, outsider.email)).status).toBe(200);
  });

  it("expires passwords older than the tenant's rotation period at sign-in; the dry run counts them", async () => {
    const clock = movableClock();
    const server = await h.start(ROOMY, { clock });
    let admin = await tenantWithAdmin(server);
    const old = await activeMember(server, admin);
    const outsider = await tenantWithAdmin(server, 'outsider');
    clock.advance(40 * DAY);
    admin = await fresh(server, admin);
    const recent = await activeMember(server, admin);

    const dry = await callAs(server, admin, 'POST', `${SecurityPaths.passwordRotation}?dryRun=true`, { body: { passwordExpiresIn: 30, notificationPeriod: 5 } });
    expect(dry.body.effects).toEqual([expect.objectContaining({ code: 'PASSWORDS_EXPIRED', affected: 2, total: 3 })]);
    expect((await callAs(server, admin, 'POST', SecurityPaths.passwordRotation, { body: { passwordExpiresIn: 30, notificationPeriod: 5 } })).status).toBe(200);

    const expired = [];
    for (const user of [admin, old, recent]) {
      const res = await signIn(server, user.email);
      expect(res.status).toBe(200);
      if (res.body.passwordRotation?.expired) {
        expect(res.body.accessToken).toBe('');
        expect(res.body.resetPasswordToken).toEqual(expect.any(String));
        expired.push(user.email);
      }
    }
    expect(expired.sort()).toEqual([admin.email, old.email].sort());
    // The vendor has no rotation: the other tenant's 40-day-old password still signs in.
    const outside = await signIn(server, outsider.email);
    expect(outside.body.accessToken).not.toBe('');
    // 26 days on, the recent password is within the 5-day notification window.
    clock.advance(26 * DAY);
    expect((await signIn(server, recent.email)).body.passwordRotation).toEqual({ expired: false, daysToExpiry: 4 });
  });

  it('forces MFA enrolment on the users the dry run counted, and only in the tenant that forces it', async () => {
    const server = await h.start(ROOMY);
    const admin = await tenantWithAdmin(server);
    const plain = await activeMember(server, admin);
    const enrolled = await activeMember(server, admin);
    const enroll = await call(server, 'POST', ApiPaths.mfaAuthenticatorEnroll, { token: enrolled.accessToken });
    expect((await call(server, 'POST', ApiPaths.mfaAuthenticatorEnrollVerify, { token: enrolled.accessToken, body: { token: appCode(enroll.body.secret, Date.now()) } })).status).toBe(200);
    const outsider = await tenantWithAdmin(server, 'outsider');

    const body = { enforceMFAType: 'Force', allowRememberMyDevice: false, mfaDeviceExpiration: 0 };
    const dry = await callAs(server, admin, 'POST', `${SecurityPaths.mfaPolicy}?dryRun=true`, { body });
    expect(dry.body.effects[0]).toEqual({ code: 'MFA_ENROLMENT_REQUIRED', affected: 2, total: 3, message: 'Forcing MFA will ask 2 of 3 users to enrol at their next sign-in.' });
    expect((await callAs(server, admin, 'POST', SecurityPaths.mfaPolicy, { body })).status).toBe(200);

    const askedToEnrol = [];
    for (const user of [admin, plain, enrolled]) {
      const res = await signIn(server, user.email, PASSWORD);
      expect(res.body.mfaRequired, user.email).toBe(true);
      expect(res.body.accessToken).toBe('');
      expect(res.body.allowRememberDevice).toBe(false);
      if (!res.body.mfaEnrolled) askedToEnrol.push(user.email);
    }
    expect(askedToEnrol.sort()).toEqual([admin.email, plain.email].sort());
    const outside = await signIn(server, outsider.email);
    expect(outside.body.mfaRequired).toBe(false);
    expect(outside.body.accessToken).not.toBe('');
  });

  it('applies the policy of the tenant the sign-in lands in: the last one while the membership is active, else the oldest', async () => {
    const server = await h.start(ROOMY);
    const [relaxed, strict] = [await tenantWithAdmin(server), await tenantWithAdmin(server, 'strict')];
    const member = await activeMember(server, relaxed);
    // The same person joins the strict tenant, which becomes their last tenant.
    await inviteMember(server, strict, {}, member.email);
    const mail = await invitationMailFor(server, member.email);
    expect((await call(server, 'POST', ApiPaths.invitationAccept, { body: { userId: mail.userId, token: mail.token } })).body.outcome).toBe('joined');
    expect((await callAs(server, strict, 'PATCH', SecurityPaths.mfaPolicy, { body: { enforceMFAType: 'Force' } })).status).toBe(200);
    expect((await signIn(server, member.email)).body).toMatchObject({ mfaRequired: true, accessToken: '' });

    // The strict tenant disables the membership: the sign-in lands in the relaxed tenant, under its policy.
    expect((await callAs(server, strict, 'POST', pathOf(AdminPaths.tenantUserDisable, { userId: member.userId }))).status).toBe(200);
    const landed = await signIn(server, member.email);
    expect(landed.body.mfaRequired).toBe(false);
    expect(landed.body.tenantId).toBe(relaxed.tenantId);
  });
});
