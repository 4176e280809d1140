/**
 * Regression (issue 12 review): hosted login weighed the MFA policy of the browser session's tenant,
 * not of the tenant the code is for, so `tenantId` (or `organization`) naming another tenant of the
 * user that forces MFA got a code for it from a sign-in without MFA, at the hosted page's completion
 * and at GET /oauth/authorize. Both dialects.
 */
import { SecurityPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { callAs, memberWithoutPermissions, signIn, tenantWithAdmin } from '../../test/admin-helpers';
import { describeDialects } from '../../test/harness';
import { authorizeParams, clientsFile, codeFor, completeAuthorize, getAuthorize, pkce, redirectQuery } from '../../test/oauth-helpers';

describeDialects('MFA policy of the tenant a hosted-login code is for', (h) => {
  it('a sign-in without MFA to one tenant gets no code for another tenant of the user that forces MFA', async () => {
    const server = await h.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_LOGIN_PER_IP: '1000/600', OAUTH_CLIENTS_FILE: clientsFile() });
    const strict = await tenantWithAdmin(server, 'strict');
    const member = await memberWithoutPermissions(server, strict.tenantId);
    expect((await callAs(server, strict, 'PATCH', SecurityPaths.mfaPolicy, { body: { enforceMFAType: 'Force' } })).status).toBe(200);
    const login = await signIn(server, member.email);
    expect(login.body.mfaRequired).toBe(false);
    const token = login.body.accessToken as string;

    // Its own tenant does not force MFA: a code, and a browser cookie.
    const own = await codeFor(server, token);
    expect(own.code).toBeTruthy();

    const completed = await completeAuthorize(server, token, authorizeParams(pkce().challenge, { tenantId: strict.tenantId }));
    expect(completed.status).toBe(200);
    expect(completed.body.redirectUrl).toMatch(/\/oauth\/authorize\/reauthenticate\?/);
    expect(redirectQuery(completed.body.redirectUrl).code).toBeUndefined();

    const byCookie = await getAuthorize(server, authorizeParams(pkce().challenge, { tenantId: strict.tenantId }), own.browserCookie);
    expect(byCookie.headers.get('location')).not.toMatch(/[?&]code=/);
    const silent = await getAuthorize(server, authorizeParams(pkce().challenge, { tenantId: strict.tenantId, prompt: 'none' }), own.browserCookie);
    expect(redirectQuery(silent.headers.get('location')).error).toBe('login_required');
    expect(redirectQuery(silent.headers.get('location')).code).toBeUndefined();

    // The next sign-in lands in the strict tenant, whose policy asks for the second factor.
    expect((await signIn(server, member.email)).body).toMatchObject({ mfaRequired: true, accessToken: '' });
  });
});
