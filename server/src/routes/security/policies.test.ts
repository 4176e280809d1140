import { ErrorCodes, SecurityErrorCodes, SecurityPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { SECURITY_POLICY_UPDATED } from '../../services/security/policies';
import { auditsOf, callAs, memberWithoutPermissions, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { describeDialects, movableClock } from '../../test/harness';

const ROOMY = { RATE_LIMIT_SIGNUP_PER_IP: '1000/60' };

const policyAudits = async (server: GatehouseServer, admin: TenantAdmin) =>
  (await auditsOf(server, admin.tenantId)).filter((a) => a.action === SECURITY_POLICY_UPDATED).map((a) => JSON.parse(a.json!) as { policy: string; old: unknown; new: unknown });

describeDialects('tenant security policies API', (h) => {
  const start = (env: Record<string, string> = {}) => h.start({ ...ROOMY, ...env }, { clock: movableClock() });

  it("answers the vendor's policies without an id until the tenant saves its own, then with the same id on every later save", async () => {
    const server = await start({ LOCKOUT_MAX_ATTEMPTS: '5', PASSWORD_MIN_LENGTH: '10', MFA_REMEMBER_DEVICE_DAYS: '7', PASSWORD_EXPIRES_IN_DAYS: '90' });
    const admin = await tenantWithAdmin(server);
    const vendor = await Promise.all([SecurityPaths.mfaPolicy, SecurityPaths.lockoutPolicy, SecurityPaths.passwordHistoryPolicy, SecurityPaths.passwordPolicy, SecurityPaths.passwordRotation, SecurityPaths.captchaPolicy, SecurityPaths.userEmailsPolicy].map((p) => callAs(server, admin, 'GET', p)));
    expect(vendor.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200, 200]);
    expect(vendor.map((r) => r.body)).toEqual([
      { enforceMFAType: 'DontForce', allowRememberMyDevice: true, mfaDeviceExpiration: 7 * 86_400 },
      { enabled: true, maxAttempts: 5 },
      { enabled: false, historySize: 5 },
      { minLength: 10, maxLength: 128, allowPassphrases: true, minPhraseLength: 20, minOptionalTestsToPass: 0 },
      { passwordExpiresIn: 90, notificationPeriod: 0 },
      { enabled: false, minScore: 0.5 },
      { allowEmailChange: true, requireVerifiedEmailForLogin: true },
    ]);

    const created = await callAs(server, admin, 'POST', SecurityPaths.lockoutPolicy, { body: { enabled: true, maxAttempts: 3 } });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ enabled: true, maxAttempts: 3, id: expect.any(String) });
    expect((await callAs(server, admin, 'GET', SecurityPaths.lockoutPolicy)).body).toEqual(created.body);
    const updated = await callAs(server, admin, 'POST', SecurityPaths.lockoutPolicy, { body: { enabled: true, maxAttempts: 2 } });
    expect(updated.body).toEqual({ enabled: true, maxAttempts: 2, id: created.body.id });
    expect(await server.db.selectFrom('tenant_security_policies').select('id').where('tenant_id', '=', admin.tenantId).execute()).toHaveLength(1);
  });

  it('PATCH merges the given fields over the effective policy and keeps the rest', async () => {
    const server = await start({ PASSWORD_MIN_LENGTH: '10' });
    const admin = await tenantWithAdmin(server);
    const patched = await callAs(server, admin, 'PATCH', SecurityPaths.passwordPolicy, { body: { minOptionalTestsToPass: 3 } });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ minLength: 10, maxLength: 128, allowPassphrases: true, minPhraseLength: 20, minOptionalTestsToPass: 3, id: expect.any(String) });
    const again = await callAs(server, admin, 'PATCH', SecurityPaths.passwordPolicy, { body: { minLength: 14, allowPassphrases: false } });
    expect(again.body).toEqual({ minLength: 14, maxLength: 128, allowPassphrases: false, minPhraseLength: 20, minOptionalTestsToPass: 3, id: patched.body.id });
  });

  it('writes an audit row with the old and new values of every save, in the tenant, by the admin', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    expect((await callAs(server, admin, 'POST', SecurityPaths.mfaPolicy, { body: { enforceMFAType: 'Force', allowRememberMyDevice: true, mfaDeviceExpiration: 86_400 } })).status).toBe(200);
    expect((await callAs(server, admin, 'PATCH', SecurityPaths.mfaPolicy, { body: { allowRememberMyDevice: false } })).status).toBe(200);
    const rows = (await auditsOf(server, admin.tenantId)).filter((a) => a.action === SECURITY_POLICY_UPDATED);
    expect(rows.every((r) => r.user_id === admin.userId && r.severity === 'High')).toBe(true);
    const audits = await policyAudits(server, admin);
    expect(audits).toHaveLength(2);
    expect(audits).toEqual(expect.arrayContaining([
      { policy: 'mfa', id: expect.any(String), old: { enforceMFAType: 'DontForce', allowRememberMyDevice: true, mfaDeviceExpiration: 30 * 86_400 }, new: { enforceMFAType: 'Force', allowRememberMyDevice: true, mfaDeviceExpiration: 86_400 } },
      { policy: 'mfa', id: expect.any(String), old: { enforceMFAType: 'Force', allowRememberMyDevice: true, mfaDeviceExpiration: 86_400 }, new: { enforceMFAType: 'Force', allowRememberMyDevice: false, mfaDeviceExpiration: 86_400 } },
    ]));
  });

  it("refuses every save that would loosen the vendor's policy with ER-02801 naming the field and the vendor's value, and saves nothing", async () => {
    // The admin signs up under the default rules; the vendor's stricter ones apply from the next start on.
    const admin = await tenantWithAdmin(await start());
    const server = await start({
      LOCKOUT_MAX_ATTEMPTS: '5', MFA_POLICY: 'force', MFA_REMEMBER_DEVICE_DAYS: '1', PASSWORD_MIN_LENGTH: '10', PASSWORD_MAX_LENGTH: '64', PASSWORD_ALLOW_PASSPHRASES: 'false',
      PASSWORD_MIN_OPTIONAL_TESTS: '2', PASSWORD_EXPIRES_IN_DAYS: '90', PASSWORD_HISTORY_SIZE: '4',
    });
    const refusals: [string, string, unknown, string][] = [
      ['POST', SecurityPaths.lockoutPolicy, { enabled: true, maxAttempts: 6 }, "maxAttempts cannot be more than the vendor's 5"],
      ['PATCH', SecurityPaths.lockoutPolicy, { enabled: false }, 'enabled cannot be turned off: the vendor locks accounts after 5 attempts'],
      ['PATCH', SecurityPaths.mfaPolicy, { enforceMFAType: 'ForceExceptSAML' }, "enforceMFAType cannot be ForceExceptSAML: the vendor's is Force"],
      ['PATCH', SecurityPaths.mfaPolicy, { mfaDeviceExpiration: 2 * 86_400 }, "mfaDeviceExpiration cannot be more than the vendor's 86400 seconds"],
      ['PATCH', SecurityPaths.passwordPolicy, { minLength: 9 }, "minLength cannot be less than the vendor's 10"],
      ['PATCH', SecurityPaths.passwordPolicy, { maxLength: 65 }, "maxLength cannot be more than the vendor's 64"],
      ['PATCH', SecurityPaths.passwordPolicy, { allowPassphrases: true }, "allowPassphrases cannot be turned on: the vendor's is off"],
      ['PATCH', SecurityPaths.passwordPolicy, { minOptionalTestsToPass: 1 }, "minOptionalTestsToPass cannot be less than the vendor's 2"],
      ['PATCH', SecurityPaths.passwordRotation, { passwordExpiresIn: 0 }, "passwordExpiresIn cannot be 0 (off): the vendor's passwords expire after 90 days"],
      ['PATCH', SecurityPaths.passwordHistoryPolicy, { historySize: 3 }, "historySize cannot be less than the vendor's 4"],
      ['PATCH', SecurityPaths.passwordHistoryPolicy, { enabled: false }, 'enabled cannot be turned off: the vendor remembers the last 4 passwords'],
      ['PATCH', SecurityPaths.userEmailsPolicy, { requireVerifiedEmailForLogin: false }, 'requireVerifiedEmailForLogin cannot be turned off: the vendor requires a verified email to sign in'],
    ];
    for (const [method, path, body, message] of refusals) {
      const res = await callAs(server, admin, method, path, { body });
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body).toMatchObject({ errorCode: SecurityErrorCodes.policyLooserThanVendor, errors: [message] });
    }
    expect(await server.db.selectFrom('tenant_security_policies').select('id').where('tenant_id', '=', admin.tenantId).execute()).toEqual([]);
    expect(await policyAudits(server, admin)).toEqual([]);

    // Tighter is fine, and a longer rotation period is kept but the vendor's shorter one applies.
    expect((await callAs(server, admin, 'PATCH', SecurityPaths.lockoutPolicy, { body: { maxAttempts: 5 } })).status).toBe(200);
    const rotation = await callAs(server, admin, 'POST', SecurityPaths.passwordRotation, { body: { passwordExpiresIn: 120, notificationPeriod: 7 } });
    expect(rotation.body).toMatchObject({ passwordExpiresIn: 90, notificationPeriod: 7 });
    expect((await callAs(server, admin, 'PATCH', SecurityPaths.passwordRotation, { body: { passwordExpiresIn: 30 } })).body).toMatchObject({ passwordExpiresIn: 30 });
  });

  it('refuses captcha without the vendor\'s keys (ER-02807), turning the vendor\'s captcha off, or a lower score', async () => {
    const without = await start();
    const admin = await tenantWithAdmin(without);
    const res = await callAs(without, admin, 'POST', SecurityPaths.captchaPolicy, { body: { enabled: true, minScore: 0.7 } });
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe(SecurityErrorCodes.captchaNotConfigured);
    expect(res.body.errors[0]).toMatch(/^enabled: /);

    // The same database, now served with the vendor's captcha keys.
    const withKeys = await start({ CAPTCHA_SITE_KEY: 'site', CAPTCHA_SECRET_KEY: 'secret', CAPTCHA_MIN_SCORE: '0.5' });
    const other = admin;
    expect((await callAs(withKeys, other, 'PATCH', SecurityPaths.captchaPolicy, { body: { enabled: false } })).body).toMatchObject({ errorCode: SecurityErrorCodes.policyLooserThanVendor, errors: ["enabled cannot be turned off: the vendor's captcha is on"] });
    expect((await callAs(withKeys, other, 'PATCH', SecurityPaths.captchaPolicy, { body: { minScore: 0.3 } })).body.errors).toEqual(["minScore cannot be less than the vendor's 0.5"]);
    expect((await callAs(withKeys, other, 'PATCH', SecurityPaths.captchaPolicy, { body: { minScore: 0.8 } })).body).toEqual({ enabled: true, minScore: 0.8, id: expect.any(String) });
  });

  it('answers bad input with a 400 naming the field, and keeps the saved policy', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    await callAs(server, admin, 'POST', SecurityPaths.lockoutPolicy, { body: { enabled: true, maxAttempts: 4 } });
    const cases: [string, string, unknown, RegExp][] = [
      ['POST', SecurityPaths.lockoutPolicy, { enabled: true, maxAttempts: 'many' }, /^maxAttempts: /],
      ['POST', SecurityPaths.lockoutPolicy, { enabled: true }, /^maxAttempts: Required/],
      ['PATCH', SecurityPaths.lockoutPolicy, { maxAttempts: 0 }, /^maxAttempts: /],
      ['PATCH', SecurityPaths.lockoutPolicy, { maxAttempts: 3, unknownField: 1 }, /unknownField/],
      ['PATCH', SecurityPaths.passwordHistoryPolicy, { historySize: 25 }, /^historySize: /],
      ['PATCH', SecurityPaths.mfaPolicy, { enforceMFAType: 'Sometimes' }, /^enforceMFAType: /],
      ['PATCH', SecurityPaths.passwordPolicy, { minLength: 40, maxLength: 30 }, /^maxLength \(30\) cannot be less than minLength \(40\)$/],
      ['PATCH', SecurityPaths.passwordRotation, { passwordExpiresIn: 10, notificationPeriod: 11 }, /^notificationPeriod /],
      ['PATCH', `${SecurityPaths.lockoutPolicy}?dryRun=maybe`, { maxAttempts: 3 }, /^dryRun: /],
    ];
    for (const [method, path, body, message] of cases) {
      const res = await callAs(server, admin, method, path, { body });
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.errors[0], `${path} ${JSON.stringify(body)}`).toMatch(message);
    }
    expect((await callAs(server, admin, 'GET', SecurityPaths.lockoutPolicy)).body).toMatchObject({ enabled: true, maxAttempts: 4 });
  });

  it('a dry run answers the effective policy and its effects, and saves nothing and audits nothing', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const dry = await callAs(server, admin, 'POST', `${SecurityPaths.mfaPolicy}?dryRun=true`, { body: { enforceMFAType: 'Force', allowRememberMyDevice: false, mfaDeviceExpiration: 0 } });
    expect(dry.status).toBe(200);
    expect(dry.body).toEqual({
      dryRun: true,
      policy: { enforceMFAType: 'Force', allowRememberMyDevice: false, mfaDeviceExpiration: 0 },
      effects: [
        { code: 'MFA_ENROLMENT_REQUIRED', affected: 1, total: 1, message: 'Forcing MFA will ask 1 of 1 user to enrol at their next sign-in.' },
        { code: 'REMEMBERED_DEVICES_FORGOTTEN', affected: 0, message: '0 remembered browsers will ask for the second factor again at the next sign-in.' },
      ],
    });
    expect((await callAs(server, admin, 'GET', SecurityPaths.mfaPolicy)).body).toEqual({ enforceMFAType: 'DontForce', allowRememberMyDevice: true, mfaDeviceExpiration: 30 * 86_400 });
    expect(await policyAudits(server, admin)).toEqual([]);
    // A dry run still refuses what a save would refuse.
    expect((await callAs(server, admin, 'PATCH', `${SecurityPaths.mfaPolicy}?dryRun=true`, { body: { mfaDeviceExpiration: 40 * 86_400 } })).body.errorCode).toBe(SecurityErrorCodes.policyLooserThanVendor);
  });

  it('needs fe.secure.read.securityPolicy to read and fe.secure.write.securityPolicy to save', async () => {
    const server = await start();
    const admin = await tenantWithAdmin(server);
    const plain = await memberWithoutPermissions(server, admin.tenantId);
    for (const method of ['GET', 'POST', 'PATCH']) {
      const res = await callAs(server, plain, method, SecurityPaths.lockoutPolicy, { tenantId: admin.tenantId, ...(method === 'GET' ? {} : { body: { enabled: true, maxAttempts: 3 } }) });
      expect(res.status, method).toBe(403);
      expect(res.body.errorCode).toBe(ErrorCodes.forbidden);
      expect(JSON.stringify(res.body)).toContain(method === 'GET' ? 'fe.secure.read.securityPolicy' : 'fe.secure.write.securityPolicy');
    }
    expect((await callAs(server, { accessToken: '' }, 'GET', SecurityPaths.lockoutPolicy)).status).toBe(401);
  });
});
