/**
 * The tenant's MFA policy at hosted login (issue 12): once the tenant forces MFA, a browser session
 * signed in without a second factor gets no authorization code, neither at GET /oauth/authorize nor
 * at the hosted page's completion; signed in again with MFA, the code and /oauth/token work.
 */
import { ApiPaths, SecurityPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { callAs } from '../../test/admin-helpers';
import { call, describeDialects } from '../../test/harness';
import { enrolledUser, login, stepClock } from '../../test/mfa-helpers';
import { authorizeParams, clientsFile, codeFor, completeAuthorize, exchange, getAuthorize, jwtClaims, pkce, redirectQuery } from '../../test/oauth-helpers';
import { appCode } from '../../test/rfc6238';

describeDialects('MFA policy at hosted login', (h) => {
  it('a session without MFA gets no code once the tenant forces MFA; a sign-in with MFA does, and /oauth/token answers', async () => {
    const clock = stepClock();
    const server = await h.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_LOGIN_PER_IP: '1000/600', OAUTH_CLIENTS_FILE: clientsFile() }, { clock });
    // Enrolled, but this session was signed in with the password alone.
    const user = await enrolledUser(server, clock.now);
    const before = await codeFor(server, user.accessToken);
    expect(before.code).toBeTruthy();

    expect((await callAs(server, user, 'PATCH', SecurityPaths.mfaPolicy, { body: { enforceMFAType: 'Force' } })).status).toBe(200);
    const silent = await getAuthorize(server, authorizeParams(pkce().challenge), before.browserCookie);
    expect(silent.headers.get('location')).toMatch(/^http:\/\/localhost:8787\/oauth\/authorize\/reauthenticate\?/);
    const completed = await completeAuthorize(server, user.accessToken, authorizeParams(pkce().challenge));
    expect(completed.status).toBe(200);
    expect(completed.body.redirectUrl).toMatch(/\/oauth\/authorize\/reauthenticate\?/);
    expect(completed.browserCookie).toBeUndefined();

    // Signed in again on the hosted page: password, then the authenticator's code.
    clock.advance(30_000);
    const first = await login(server, user.email);
    expect(first.body.mfaRequired).toBe(true);
    const verified = await call(server, 'POST', ApiPaths.mfaVerify, { body: { mfaToken: first.body.mfaToken, value: appCode(user.secret, clock.now()) } });
    expect(verified.status).toBe(200);
    const after = await codeFor(server, verified.body.accessToken);
    const tokens = await exchange(server, after.code, after.verifier);
    expect(tokens.status).toBe(200);
    expect(jwtClaims(tokens.body.id_token).amr).toContain('mfa');
    // And the new browser session is recognised without the page.
    expect(redirectQuery((await getAuthorize(server, authorizeParams(pkce().challenge), after.browserCookie)).headers.get('location')).code).toBeTruthy();
  });
});
