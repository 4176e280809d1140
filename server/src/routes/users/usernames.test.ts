import { AdminErrorCodes, ApiPaths, ErrorCodes, Permissions, UsernamePaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { call, describeDialects, PASSWORD, signUpAndActivate, uniqueEmail } from '../../test/harness';
import { grantRoleWith, invitationMailFor, invite } from '../../test/invitation-helpers';

describeDialects('username of the signed-in user', (h) => {
  const start: typeof h.start = (env = {}) =>
    h.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_LOGIN_PER_IP: '1000/600', RATE_LIMIT_INVITATION_ACCEPT_PER_IP: '1000/600', RATE_LIMIT_IMPERSONATE_PER_IP: '1000/600', ...env });

  it('creates a username that signs in, refuses a second one until the first is deleted, and deletes idempotently', async () => {
    const server = await start();
    const user = await signUpAndActivate(server);
    const created = await call(server, 'POST', UsernamePaths.myUsername, { token: user.accessToken, body: { username: ' ada.l ' } });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ username: 'ada.l' });
    expect((await call(server, 'GET', ApiPaths.me, { token: user.accessToken })).body.username).toBe('ada.l');
    expect((await call(server, 'POST', ApiPaths.login, { body: { username: 'ada.l', password: PASSWORD } })).status).toBe(200);

    const second = await call(server, 'POST', UsernamePaths.myUsername, { token: user.accessToken, body: { username: 'ada.b' } });
    expect(second.status).toBe(409);
    expect(second.body.errorCode).toBe(AdminErrorCodes.usernameExists);

    expect((await call(server, 'DELETE', UsernamePaths.myUsername, { token: user.accessToken })).status).toBe(200);
    expect((await call(server, 'DELETE', UsernamePaths.myUsername, { token: user.accessToken })).status).toBe(200);
    expect((await call(server, 'GET', ApiPaths.me, { token: user.accessToken })).body.username).toBeNull();
    expect((await call(server, 'POST', ApiPaths.login, { body: { username: 'ada.l', password: PASSWORD } })).status).toBe(401);
    expect((await call(server, 'POST', UsernamePaths.myUsername, { token: user.accessToken, body: { username: 'ada.b' } })).status).toBe(200);
  });

  it("refuses another account's username ignoring case, malformed usernames, and calls without a token", async () => {
    const server = await start();
    const ada = await signUpAndActivate(server);
    const eve = await signUpAndActivate(server, uniqueEmail('eve'));
    expect((await call(server, 'POST', UsernamePaths.myUsername, { token: ada.accessToken, body: { username: 'ada' } })).status).toBe(200);

    const copy = await call(server, 'POST', UsernamePaths.myUsername, { token: eve.accessToken, body: { username: 'ADA' } });
    expect(copy.status).toBe(409);
    expect(copy.body).toEqual({ errors: ['This username is already taken'], errorCode: AdminErrorCodes.usernameTaken });
    for (const username of ['ab', 'eve@example.com', 'eve smith', 'x'.repeat(65), '']) {
      const res = await call(server, 'POST', UsernamePaths.myUsername, { token: eve.accessToken, body: { username } });
      expect(res.status, username).toBe(400);
      expect(res.body.errorCode).toBe(ErrorCodes.validation);
    }
    expect((await call(server, 'POST', UsernamePaths.myUsername, { body: { username: 'eve' } })).status).toBe(401);
    expect((await call(server, 'DELETE', UsernamePaths.myUsername)).status).toBe(401);
    expect((await call(server, 'GET', ApiPaths.me, { token: ada.accessToken })).body.username).toBe('ada');
  });

  it('an impersonation session can neither set nor remove the username (it is how the user signs in)', async () => {
    const server = await start();
    const admin = await signUpAndActivate(server, uniqueEmail('admin'));
    await grantRoleWith(server, admin.userId, admin.tenantId, 'Impersonator', [Permissions.impersonate]);
    const target = await signUpAndActivate(server, uniqueEmail('target'));
    await invite(server, admin.accessToken, { email: target.email, name: 'Target' });
    const mail = await invitationMailFor(server, target.email);
    await call(server, 'POST', ApiPaths.invitationAccept, { body: { userId: mail.userId, token: mail.token } });
    expect((await call(server, 'POST', UsernamePaths.myUsername, { token: target.accessToken, body: { username: 'target' } })).status).toBe(200);
    const issued = await call(server, 'POST', ApiPaths.impersonation, { token: admin.accessToken, body: { userId: target.userId, reason: 'Ticket 9' } });
    const imp = await call(server, 'POST', ApiPaths.impersonate, { body: { token: issued.body.token } });

    const removed = await call(server, 'DELETE', UsernamePaths.myUsername, { token: imp.body.accessToken });
    expect(removed.status).toBe(403);
    expect(removed.body.errorCode).toBe(ErrorCodes.notWhileImpersonating);
    expect((await call(server, 'GET', ApiPaths.me, { token: target.accessToken })).body.username).toBe('target');
  });

  it('L8: usernames are unique ignoring case in the database too: racing `Alice`/`alice` gives one 200 and the same 409', async () => {
    const server = await start();
    const ada = await signUpAndActivate(server);
    const eve = await signUpAndActivate(server, uniqueEmail('eve'));
    const results = await Promise.all([
      call(server, 'POST', UsernamePaths.myUsername, { token: ada.accessToken, body: { username: 'Alice' } }),
      call(server, 'POST', UsernamePaths.myUsername, { token: eve.accessToken, body: { username: 'alice' } }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body).toEqual({ errors: ['This username is already taken'], errorCode: AdminErrorCodes.usernameTaken });
    // The index itself refuses a look-alike written past the service.
    const holder = results[0]!.status === 200 ? eve : ada;
    await expect(server.db.updateTable('users').set({ username: 'ALICE' }).where('id', '=', holder.userId).execute()).rejects.toThrow();
  });
});
