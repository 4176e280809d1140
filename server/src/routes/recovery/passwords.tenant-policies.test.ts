/**
 * A tenant's password rules and password history at reset, change and rotation (issue 12), on both
 * dialects: a reused password is refused with ER-02804, the tenant's rules replace the vendor's, and
 * another tenant's users keep the vendor's.
 */
import { ApiPaths, ErrorCodes, SecurityErrorCodes, SecurityPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { callAs, signIn, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { call, describeDialects, mailbox, movableClock, PASSWORD } from '../../test/harness';

const P2 = 'second passphrase of mine';
const P3 = 'third passphrase of mine';
const P4 = 'fourth passphrase of mine';
const DAY = 86_400_000;
const ROOMY = { RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_PASSWORD_RESET_PER_IP: '1000/3600', RATE_LIMIT_LOGIN_PER_IP: '1000/600', RATE_LIMIT_PASSWORD_RESET_PER_IDENTIFIER: '1000/3600' };

const change = (server: GatehouseServer, who: TenantAdmin, password: string, newPassword: string) => call(server, 'POST', ApiPaths.passwordsChange, { token: who.accessToken, body: { password, newPassword } });

async function reset(server: GatehouseServer, email: string, password: string) {
  expect((await call(server, 'POST', ApiPaths.passwordsReset, { body: { email } })).status).toBe(200);
  await server.recovery.idle();
  // The mailbox lists the newest first.
  const mail = (await mailbox(server)).find((m) => m.to === email && /reset/i.test(m.subject))!;
  const link = new URL(/https?:\/\/\S+\/account\/reset-password\?\S+/.exec(mail.text)![0]);
  return call(server, 'POST', ApiPaths.passwordsResetVerify, { body: { userId: link.searchParams.get('userId'), token: link.searchParams.get('token'), password } });
}

function expectReused(res: { status: number; body: any }, n: number): void {
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ errors: [`Choose a password you have not used recently: this one is one of your last ${n}`], errorCode: SecurityErrorCodes.passwordReused, errorContext: { historySize: n } });
}

describeDialects("tenant password rules and history at reset, change and rotation", (h) => {
  it("refuses any of the user's last N passwords (the current one counts) at change and reset, and accepts an older one", async () => {
    const server = await h.start(ROOMY);
    const admin = await tenantWithAdmin(server);
    const outsider = await tenantWithAdmin(server, 'outsider');
    expect((await callAs(server, admin, 'POST', SecurityPaths.passwordHistoryPolicy, { body: { enabled: true, historySize: 3 } })).status).toBe(200);

    expectReused(await change(server, admin, PASSWORD, PASSWORD), 3);
    expect((await change(server, admin, PASSWORD, P2)).status).toBe(200);
    expect((await change(server, admin, P2, P3)).status).toBe(200);
    // PASSWORD, P2 and P3 are the last three.
    expectReused(await reset(server, admin.email, PASSWORD), 3);
    expectReused(await reset(server, admin.email, P2), 3);
    expect((await reset(server, admin.email, P4)).status).toBe(200);
    // Now P4, P3, P2: the first password is old enough again.
    const signedIn = await signIn(server, admin.email, P4);
    expect((await change(server, { ...admin, accessToken: signedIn.body.accessToken }, P4, PASSWORD)).status).toBe(200);

    // Only argon2id hashes are kept, never the password.
    const rows = await server.db.selectFrom('password_history').select('password_hash').where('user_id', '=', admin.userId).execute();
    expect(rows).toHaveLength(5);
    for (const row of rows) {
      expect(row.password_hash.startsWith('$argon2id$')).toBe(true);
      for (const p of [PASSWORD, P2, P3, P4]) expect(row.password_hash).not.toContain(p);
    }
    // Another tenant without a history policy: the same password again is fine.
    expect((await change(server, outsider, PASSWORD, PASSWORD)).status).toBe(200);
  });

  it("applies the tenant's password rules at change and reset instead of the vendor's", async () => {
    const server = await h.start(ROOMY);
    const admin = await tenantWithAdmin(server);
    const outsider = await tenantWithAdmin(server, 'outsider');
    expect((await callAs(server, admin, 'PATCH', SecurityPaths.passwordPolicy, { body: { minLength: 26, minPhraseLength: 26 } })).status).toBe(200);
    const short = await change(server, admin, PASSWORD, P2);
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ errorCode: ErrorCodes.passwordPolicy, errors: ['Password must be at least 26 characters long'] });
    expect((await reset(server, admin.email, P2)).body.errors).toEqual(['Password must be at least 26 characters long']);
    expect((await change(server, admin, PASSWORD, 'a much longer passphrase of mine')).status).toBe(200);
    expect((await change(server, outsider, PASSWORD, P2)).status).toBe(200);
  });

  it('an expired password (tenant rotation) cannot be replaced by itself when the history is on', async () => {
    const clock = movableClock();
    const server = await h.start(ROOMY, { clock });
    const admin = await tenantWithAdmin(server);
    await callAs(server, admin, 'POST', SecurityPaths.passwordRotation, { body: { passwordExpiresIn: 30, notificationPeriod: 0 } });
    await callAs(server, admin, 'POST', SecurityPaths.passwordHistoryPolicy, { body: { enabled: true, historySize: 2 } });
    clock.advance(31 * DAY);
    const expired = await signIn(server, admin.email);
    expect(expired.body.passwordRotation).toEqual({ expired: true, daysToExpiry: 0 });
    const replace = (password: string) => call(server, 'POST', ApiPaths.passwordsResetVerify, { body: { userId: admin.userId, token: expired.body.resetPasswordToken, password } });
    expectReused(await replace(PASSWORD), 2);
    // The refusal did not spend the token: a new password goes through with it.
    const replaced = await replace(P2);
    expect(replaced.status).toBe(200);
    expect(replaced.body.accessToken).toEqual(expect.any(String));
  });
});
