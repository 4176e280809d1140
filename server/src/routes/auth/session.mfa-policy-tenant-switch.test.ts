/**
 * Regression (issue 12 review): a tenant that forces MFA was open to a member who signed in without
 * MFA to another of their tenants and then moved into it: `PUT /identity/resources/users/v1/tenant`,
 * a refresh naming `tenantId`, or any call with `?tenantId=`. Each must refuse a session whose sign-in
 * does not meet the MFA policy of the tenant it moves into (403 ER-01307), on both dialects.
 */
import { ApiPaths, ErrorCodes, SecurityPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { callAs, memberWithoutPermissions, signIn, tenantWithAdmin } from '../../test/admin-helpers';
import { call, describeDialects } from '../../test/harness';

const ROOMY = { RATE_LIMIT_LOGIN_PER_IP: '1000/600', RATE_LIMIT_SIGNUP_PER_IP: '1000/60' };

describeDialects('MFA policy when a session moves into another tenant', (h) => {
  it('refuses a switch, a refresh into the tenant and a ?tenantId= call without MFA once the tenant forces MFA', async () => {
    const server = await h.start(ROOMY);
    const strict = await tenantWithAdmin(server, 'strict');
    // Their own tenant (no MFA policy) is where they sign in; they are also a member of the strict one.
    const member = await memberWithoutPermissions(server, strict.tenantId);
    expect((await callAs(server, strict, 'PATCH', SecurityPaths.mfaPolicy, { body: { enforceMFAType: 'Force' } })).status).toBe(200);

    const login = await signIn(server, member.email);
    expect(login.status).toBe(200);
    expect(login.body.mfaRequired).toBe(false);
    expect(login.body.tenantId).not.toBe(strict.tenantId);
    const token = login.body.accessToken as string;

    const switched = await call(server, 'PUT', ApiPaths.switchTenant, { token, body: { tenantId: strict.tenantId } });
    expect(switched.status, JSON.stringify(switched.body)).toBe(403);
    expect(switched.body.errorCode).toBe(ErrorCodes.stepUpRequired);

    const scoped = await call(server, 'GET', `${ApiPaths.meAuthorization}?tenantId=${strict.tenantId}`, { token });
    expect(scoped.status, JSON.stringify(scoped.body)).toBe(403);
    expect(scoped.body.errorCode).toBe(ErrorCodes.stepUpRequired);

    const refreshed = await call(server, 'POST', ApiPaths.refresh, { cookie: login.refreshCookie!, body: { tenantId: strict.tenantId } });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(403);
    expect(refreshed.body.errorCode).toBe(ErrorCodes.stepUpRequired);

    // The own tenant, which does not force MFA, still works, and the refused refresh did not spend the cookie.
    expect((await call(server, 'GET', ApiPaths.meAuthorization, { token })).status).toBe(200);
    expect((await call(server, 'POST', ApiPaths.refresh, { cookie: login.refreshCookie!, body: {} })).status).toBe(200);
    // The next sign-in lands in the tenant asked for, and its MFA policy asks for a second factor there.
    const again = await signIn(server, member.email);
    expect(again.body).toMatchObject({ mfaRequired: true, accessToken: '' });
  });
});
