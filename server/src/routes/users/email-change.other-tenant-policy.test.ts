/**
 * Regression (issue 12 review): a tenant's `allowEmailChange: false` was checked only in the tenant
 * the caller's token acted in, so a member of it who belongs to another tenant changed the address
 * (which is the account's, in every tenant) from there, or with `?tenantId=`; and the proof of a
 * change asked before the tenant turned it off still went through. Both dialects.
 */
import { ApiPaths, SecurityErrorCodes, SecurityPaths, SelfServicePaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { callAs, memberWithoutPermissions, tenantWithAdmin } from '../../test/admin-helpers';
import { call, describeDialects, mailbox, uniqueEmail } from '../../test/harness';

describeDialects('user-emails policy of every tenant of the user at email change', (h) => {
  it("refuses the change from another tenant of the user, and its proof once the tenant turned it off", async () => {
    const server = await h.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60' });
    const strict = await tenantWithAdmin(server, 'strict');
    // Signed in to their own tenant (which allows the change); also a member of the strict one.
    const member = await memberWithoutPermissions(server, strict.tenantId);
    const ownToken = member.accessToken;

    // Asked while the strict tenant still allows it...
    const target = uniqueEmail('moved');
    expect((await call(server, 'POST', SelfServicePaths.changeEmail, { token: ownToken, body: { email: target } })).status).toBe(200);
    expect((await callAs(server, strict, 'PATCH', SecurityPaths.userEmailsPolicy, { body: { allowEmailChange: false } })).status).toBe(200);

    // ...proven after it turned it off: refused, the address kept.
    const mail = (await mailbox(server)).find((m) => m.to === target);
    const link = new URL(/https?:\/\/\S+\/account\/email\/verify\?\S+/.exec(mail!.text)![0]);
    const proof = await call(server, 'POST', SelfServicePaths.verifyEmailChange, { body: { token: link.searchParams.get('token') } });
    expect([proof.status, proof.body.errorCode]).toEqual([403, SecurityErrorCodes.emailChangeNotAllowed]);
    expect((await call(server, 'GET', ApiPaths.me, { token: ownToken })).body.email).toBe(member.email);

    // A new request from the own tenant is refused too.
    const fromOwn = await call(server, 'POST', SelfServicePaths.changeEmail, { token: ownToken, body: { email: uniqueEmail('moved') } });
    expect([fromOwn.status, fromOwn.body.errorCode]).toEqual([403, SecurityErrorCodes.emailChangeNotAllowed]);
  });
});
