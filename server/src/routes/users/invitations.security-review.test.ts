/**
 * Regression tests of the security review of invitations: what an inviter (any tenant admin, and
 * anyone can sign up to become one) may learn about, or do to, an account that already exists.
 */
import { ApiPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { isMember } from '../../db/queries/tenants';
import { findUserByEmail, findUserById, updateUser } from '../../db/queries/users';
import { call, describeDialects, signUpAndActivate, uniqueEmail } from '../../test/harness';
import { invitationMailFor, invite } from '../../test/invitation-helpers';

describeDialects('invitations: security review', (h) => {
  const start: typeof h.start = (env = {}, overrides) =>
    h.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_LOGIN_PER_IP: '1000/600', RATE_LIMIT_ACTIVATION_PER_IP: '1000/600', RATE_LIMIT_INVITATION_ACCEPT_PER_IP: '1000/600', ...env }, overrides);

  it("bug: the invite answer echoed an existing account's own name, telling any inviter that the address has an account and whose it is", async () => {
    const server = await start();
    const admin = await signUpAndActivate(server);
    const bob = await signUpAndActivate(server, uniqueEmail('bob'));
    await updateUser(server.db, bob.userId, { name: 'Robert Secret-Surname' });
    const invited = await invite(server, admin.accessToken, { email: bob.email, name: 'Typed By Admin' });
    expect(invited.status).toBe(201);
    expect(invited.body.name).toBe('Typed By Admin');
    expect(JSON.stringify(invited.body)).not.toContain('Secret-Surname');
  });

  it('bug: a verified account without a password (SSO, social, passwordless) was put into the inviting tenant at once, and the link set a password on it', async () => {
    const server = await start();
    const admin = await signUpAndActivate(server);
    // As SSO provisioning and social sign-up leave an account: verified, no password.
    const sso = await signUpAndActivate(server, uniqueEmail('sso'));
    await updateUser(server.db, sso.userId, { password_hash: null });

    expect((await invite(server, admin.accessToken, { email: sso.email, name: 'Anyone' })).status).toBe(201);
    // Nothing is granted before its owner accepts: the inviter cannot list, manage or impersonate it.
    expect(await isMember(server.db, sso.userId, admin.tenantId)).toBe(false);

    const { userId, token } = await invitationMailFor(server, sso.email);
    expect((await call(server, 'POST', ApiPaths.invitationVerify, { body: { userId, token } })).body.shouldSetPassword).toBe(false);
    const accepted = await call(server, 'POST', ApiPaths.invitationAccept, { body: { userId, token, password: 'a password the link holder chose' } });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ outcome: 'joined', tenantId: admin.tenantId });
    expect(accepted.refreshCookie).toBeUndefined();
    // It keeps how it signs in: the link did not give it a password (which would bypass its SSO).
    expect((await findUserById(server.db, sso.userId))!.password_hash).toBeNull();
    expect(await isMember(server.db, sso.userId, admin.tenantId)).toBe(true);
  });

  it('bug: an admin whose temporary membership expired kept inviting with the access token still naming the tenant', async () => {
    const server = await start();
    const admin = await signUpAndActivate(server);
    await server.db.updateTable('user_tenants').set({ expires_at: Date.now() - 1000 }).where('user_id', '=', admin.userId).where('tenant_id', '=', admin.tenantId).execute();
    const email = uniqueEmail('invitee');
    const res = await invite(server, admin.accessToken, { email, name: 'Late' });
    // The expiry ends the session the token belongs to, as a disable does (users.temporary-expiry.test.ts).
    expect(res.status).toBe(401);
    expect(await findUserByEmail(server.db, email)).toBeUndefined();
  });
});
