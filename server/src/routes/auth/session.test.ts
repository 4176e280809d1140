import { ApiPaths, ErrorCodes, REFRESH_COOKIE_PATH } from '@gatehouse/shared/wire';
import { decodeJwt } from 'jose';
import { expect, it } from 'vitest';
import { activationLinkFor, call, describeDialects, mailbox, PASSWORD, signUpAndActivate, uniqueEmail } from '../../test/harness';

describeDialects('session lifecycle', (h) => {
  it('signs up, activates from the emailed link, logs in, reads and updates me, rotates and logs out', async () => {
    const server = await h.start();
    const email = uniqueEmail('flow');

    const signUp = await call(server, 'POST', ApiPaths.signUp, { body: { email, password: PASSWORD, name: 'Ada', companyName: 'Analytical Engines' } });
    expect(signUp.status).toBe(200);
    expect(signUp.body).toMatchObject({ shouldActivate: true });
    expect(signUp.body.activationToken).toBeUndefined();

    // The browser that signed up holds the sign-up binding cookie; activation there needs no password.
    const binding = { cookie: signUp.headers.getSetCookie().find((c) => c.startsWith('gatehouse-signup='))!.split(';')[0]! };

    const mail = (await mailbox(server)).find((m) => m.to === email)!;
    // In the name of the tenant the sign-up made (named after the email's domain until renamed).
    expect(mail.subject).toBe('Activate your example.com account');
    expect(mail.html).toContain('/account/activate?userId=');
    const { userId, token } = await activationLinkFor(server, email);
    expect(userId).toBe(signUp.body.userId);

    // Before activation the right password (the one the sign-up chose, waiting on the activation token)
    // is told to verify the email first and offered a new activation email; a wrong one learns nothing.
    const early = await call(server, 'POST', ApiPaths.login, { body: { email, password: PASSWORD } });
    expect(early.status).toBe(400);
    expect(early.body).toMatchObject({ errorCode: ErrorCodes.userNotVerified, errorContext: { resendActivation: true } });
    const wrongEarly = await call(server, 'POST', ApiPaths.login, { body: { email, password: `${PASSWORD}x` } });
    expect(wrongEarly.status).toBe(401);
    expect(wrongEarly.body).toEqual({ errors: ['Invalid email or password'], errorCode: ErrorCodes.invalidCredentials });

    const strategy = await call(server, 'GET', `${ApiPaths.activateStrategy}?userId=${userId}&token=${encodeURIComponent(token)}`, { headers: binding });
    expect(strategy.body).toEqual({ shouldSetPassword: false });

    const activated = await call(server, 'POST', ApiPaths.activate, { body: { userId, token }, headers: binding });
    expect(activated.status).toBe(200);
    expect(activated.refreshCookie).toBeTruthy();

    const login = await call(server, 'POST', ApiPaths.login, { body: { email: email.toUpperCase(), password: PASSWORD }, headers: { 'user-agent': 'vitest' } });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ expiresIn: 300, mfaRequired: false, tenantId: signUp.body.tenantId, userId });
    expect(login.body.refreshToken).toBeUndefined();
    const cookie = login.setCookie!;
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain(`Path=${REFRESH_COOKIE_PATH}`);
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Secure');
    expect(cookie).toContain('Max-Age=2592000');

    const claims = decodeJwt(login.body.accessToken);
    expect(claims).toMatchObject({ sub: userId, email, email_verified: true, name: 'Ada', tenantId: signUp.body.tenantId, amr: ['pwd'], acr: 'urn:gatehouse:acr:pwd', iss: 'http://localhost:8787', aud: 'demo-client', superUser: false });
    expect(claims.roles).toEqual(['Admin']);
    expect(claims.permissions).toContain('fe.secure.read.users');
    expect(claims.tenantIds).toEqual([signUp.body.tenantId]);
    expect(typeof claims.auth_time).toBe('number');
    expect(typeof claims.sid).toBe('string');

    const me = await call(server, 'GET', ApiPaths.me, { token: login.body.accessToken });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: userId, email, name: 'Ada', verified: true, tenantId: signUp.body.tenantId, superUser: false });
    expect(me.body.tenants[0]).toMatchObject({ tenantId: signUp.body.tenantId, name: 'Analytical Engines' });
    expect(me.body.roles).toEqual([expect.objectContaining({ key: 'Admin', name: 'Admin', id: expect.any(String) })]);
    expect(me.body.permissions.find((p: { key: string }) => p.key === 'fe.secure.write.users')).toMatchObject({ id: expect.any(String), name: expect.any(String) });

    const updated = await call(server, 'PUT', ApiPaths.me, { token: login.body.accessToken, body: { name: 'Ada L.', jobTitle: 'Engineer', phoneNumber: '+44 20 7946 0000' } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Ada L.', jobTitle: 'Engineer', phoneNumber: '+44 20 7946 0000' });
    const badUpdate = await call(server, 'PUT', ApiPaths.me, { token: login.body.accessToken, body: { email: 'other@example.com' } });
    expect(badUpdate.status).toBe(400);

    const authz = await call(server, 'GET', ApiPaths.meAuthorization, { token: login.body.accessToken });
    expect(authz.body.roles[0].key).toBe('Admin');
    const v1 = await call(server, 'GET', ApiPaths.meTenantsV1, { token: login.body.accessToken });
    expect(v1.body).toHaveLength(1);
    expect((await call(server, 'GET', ApiPaths.meTenantsV2, { token: login.body.accessToken })).body).toEqual(v1.body);
    const v3 = await call(server, 'GET', ApiPaths.meTenantsV3, { token: login.body.accessToken });
    expect(v3.body.activeTenant.tenantId).toBe(signUp.body.tenantId);

    // Rotation: each refresh returns a new cookie; the old one is spent.
    const first = await call(server, 'POST', ApiPaths.refresh, { cookie: login.refreshCookie! });
    expect(first.status).toBe(200);
    expect(first.refreshCookie).toBeTruthy();
    expect(first.refreshCookie).not.toBe(login.refreshCookie);
    expect(decodeJwt(first.body.accessToken).sid).toBe(claims.sid);
    const second = await call(server, 'POST', ApiPaths.refresh, { cookie: first.refreshCookie!, body: {} });
    expect(second.status).toBe(200);

    // Reuse of a spent token revokes the family: the newest token dies too, and so does the access token.
    const reuse = await call(server, 'POST', ApiPaths.refresh, { cookie: first.refreshCookie! });
    expect(reuse.status).toBe(401);
    expect(reuse.body.errorCode).toBe(ErrorCodes.refreshTokenReused);
    const afterReuse = await call(server, 'POST', ApiPaths.refresh, { cookie: second.refreshCookie! });
    expect(afterReuse.status).toBe(401);
    expect((await call(server, 'GET', ApiPaths.me, { token: second.body.accessToken })).status).toBe(401);

    // A fresh login, then logout: cookie cleared, session gone.
    const again = await call(server, 'POST', ApiPaths.login, { body: { email, password: PASSWORD } });
    const logout = await call(server, 'POST', ApiPaths.logout, { cookie: again.refreshCookie! });
    expect(logout.status).toBe(200);
    expect(logout.setCookie).toMatch(/Max-Age=0/);
    expect((await call(server, 'POST', ApiPaths.refresh, { cookie: again.refreshCookie! })).status).toBe(401);
    expect((await call(server, 'GET', ApiPaths.me, { token: again.body.accessToken })).status).toBe(401);
    expect((await call(server, 'POST', ApiPaths.logout)).status).toBe(200);
  });

  it('refuses a wrong password and an unknown email with the same message', async () => {
    const server = await h.start();
    const { email } = await signUpAndActivate(server);
    const wrong = await call(server, 'POST', ApiPaths.login, { body: { email, password: 'not the password' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ errors: ['Invalid email or password'], errorCode: ErrorCodes.invalidCredentials });
    const unknown = await call(server, 'POST', ApiPaths.login, { body: { email: uniqueEmail('nobody'), password: 'whatever1' } });
    expect(unknown.status).toBe(401);
    expect(unknown.body.errors).toEqual(['Invalid email or password']);
    expect(wrong.setCookie).toBeNull();
  });

  it('refuses a disabled user at login and at refresh', async () => {
    const server = await h.start();
    const { email, userId, cookie } = await signUpAndActivate(server);
    await server.db.updateTable('users').set({ disabled: 1 }).where('id', '=', userId).execute();
    const login = await call(server, 'POST', ApiPaths.login, { body: { email, password: PASSWORD } });
    expect(login.status).toBe(403);
    expect(login.body).toEqual({ errors: ['User is disabled'], errorCode: ErrorCodes.userDisabled });
    expect((await call(server, 'POST', ApiPaths.refresh, { cookie })).status).toBe(401);
  });

  it('refuses refresh and logout from a disallowed Origin but accepts allowed ones', async () => {
    const server = await h.start();
    const { cookie } = await signUpAndActivate(server);
    const evil = await call(server, 'POST', ApiPaths.refresh, { cookie, headers: { origin: 'https://evil.example' } });
    expect(evil.status).toBe(403);
    expect(evil.body.errorCode).toBe(ErrorCodes.originNotAllowed);
    expect((await call(server, 'POST', ApiPaths.logout, { cookie, headers: { origin: 'https://evil.example' } })).status).toBe(403);
    const ok = await call(server, 'POST', ApiPaths.refresh, { cookie, headers: { origin: 'http://app.test:3000' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('http://app.test:3000');
  });

  it('answers 401 for refresh without a cookie or with an unknown one', async () => {
    const server = await h.start();
    const none = await call(server, 'POST', ApiPaths.refresh);
    expect(none.status).toBe(401);
    expect(none.body.errorCode).toBe(ErrorCodes.invalidRefreshToken);
    expect((await call(server, 'POST', ApiPaths.refresh, { cookie: 'made-up' })).status).toBe(401);
  });

  it('switches tenant only to a tenant of the user and scopes calls with ?tenantId', async () => {
    const server = await h.start();
    const a = await signUpAndActivate(server);
    const b = await signUpAndActivate(server);
    const refused = await call(server, 'PUT', ApiPaths.switchTenant, { token: a.accessToken, body: { tenantId: b.tenantId } });
    expect(refused.status).toBe(404);
    expect(refused.body.errorCode).toBe(ErrorCodes.tenantNotFound);
    expect((await call(server, 'GET', `${ApiPaths.me}?tenantId=${b.tenantId}`, { token: a.accessToken })).status).toBe(404);
    const same = await call(server, 'PUT', ApiPaths.switchTenant, { token: a.accessToken, body: { tenantId: a.tenantId } });
    expect(same.status).toBe(200);
    expect(decodeJwt(same.body.accessToken).tenantId).toBe(a.tenantId);
    const badRefresh = await call(server, 'POST', ApiPaths.refresh, { cookie: a.cookie, body: { tenantId: b.tenantId } });
    expect(badRefresh.status).toBe(404);
    // The refused switch did not spend the refresh token.
    expect((await call(server, 'POST', ApiPaths.refresh, { cookie: a.cookie })).status).toBe(200);
  });
});
