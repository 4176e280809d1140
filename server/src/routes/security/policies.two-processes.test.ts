/**
 * Two server processes over one database (the same SQLite file; the same PostgreSQL database under
 * DATABASE_URL): a tenant policy saved through one is enforced by the other at once, and wrong
 * passwords counted by both add up to the tenant's lockout limit (issue 12).
 */
import { ErrorCodes, SecurityPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { activeMember, callAs, signIn, tenantWithAdmin } from '../../test/admin-helpers';
import { describeDialects } from '../../test/harness';

const WRONG = 'not the password at all';
const ROOMY = { RATE_LIMIT_SIGNUP_PER_IP: '1000/60', RATE_LIMIT_LOGIN_PER_IP: '1000/600', RATE_LIMIT_LOGIN_FAILURES_PER_ACCOUNT: '1000/600' };

describeDialects('tenant policies across two processes', (h) => {
  it('a lockout policy saved through one process locks on the other, counting the wrong passwords of both', async () => {
    const one = await h.start(ROOMY);
    const two = await h.start(ROOMY);
    const admin = await tenantWithAdmin(one);
    const member = await activeMember(one, admin);
    expect((await callAs(one, admin, 'POST', SecurityPaths.lockoutPolicy, { body: { enabled: true, maxAttempts: 4 } })).status).toBe(200);
    expect((await callAs(two, admin, 'GET', SecurityPaths.lockoutPolicy)).body).toMatchObject({ enabled: true, maxAttempts: 4 });

    // Two wrong passwords on each process, interleaved: the fourth locks, wherever it lands.
    expect((await signIn(one, member.email, WRONG)).status).toBe(401);
    expect((await signIn(two, member.email, WRONG)).status).toBe(401);
    expect((await signIn(one, member.email, WRONG)).status).toBe(401);
    expect((await signIn(two, member.email, WRONG)).body.errorCode).toBe(ErrorCodes.accountLocked);
    expect((await signIn(one, member.email)).body.errorCode).toBe(ErrorCodes.accountLocked);
  });

  it('an MFA policy saved through one process is enforced by the other at the next sign-in', async () => {
    const one = await h.start(ROOMY);
    const two = await h.start(ROOMY);
    const admin = await tenantWithAdmin(one);
    const member = await activeMember(one, admin);
    expect((await signIn(two, member.email)).body.mfaRequired).toBe(false);
    expect((await callAs(two, admin, 'PATCH', SecurityPaths.mfaPolicy, { body: { enforceMFAType: 'Force' } })).status).toBe(200);
    const asked = await signIn(one, member.email);
    expect(asked.body).toMatchObject({ mfaRequired: true, mfaEnrolled: false, accessToken: '' });
  });
});
