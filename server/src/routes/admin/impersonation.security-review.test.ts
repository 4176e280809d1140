/**
 * Regression tests of the security review of impersonation: what a session started by
 * impersonation may do to how the user's account is protected.
 */
import { ApiPaths, ErrorCodes, Permissions } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { newId } from '../../crypto';
import { insertCredential, listCredentials } from '../../db/queries/webauthn';
import { call, describeDialects, signUpAndActivate, uniqueEmail } from '../../test/harness';
import { grantRoleWith, invitationMailFor, invite } from '../../test/invitation-helpers';

describeDialects('impersonation: security review', (h) => {
  const start: typeof h.start = (env = {}, overrides) =>
    h.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_LOGIN_PER_IP: '1000/600', RATE_LIMIT_INVITATION_ACCEPT_PER_IP: '1000/600', RATE_LIMIT_IMPERSONATE_PER_IP: '1000/600', ...env }, overrides);

  /** An admin holding the impersonation permission, and a member of the admin's tenant with a passkey. */
  async function setUp(server: GatehouseServer) {
    const admin = await signUpAndActivate(server, uniqueEmail('admin'));
    await grantRoleWith(server, admin.userId, admin.tenantId, 'Impersonator', [Permissions.impersonate]);
    const target = await signUpAndActivate(server, uniqueEmail('target'));
    await invite(server, admin.accessToken, { email: target.email, name: 'Target' });
    const mail = await invitationMailFor(server, target.email);
    expect((await call(server, 'POST', ApiPaths.invitationAccept, { body: { userId: mail.userId, token: mail.token } })).body.outcome).toBe('joined');
    const passkeyId = newId();
    await insertCredential(server.db, { id: passkeyId, credential_id: newId(), user_id: target.userId, public_key: 'AA', counter: 0, transports: '[]', device_type: 'singleDevice', backed_up: 0, name: 'Laptop', created_at: Date.now(), last_used_at: null });
    return { admin, target, passkeyId };
  }

  it("bug: an impersonation session could delete the user's passkeys (maybe the account's only way in)", async () => {
    const server = await start();
    const { admin, target, passkeyId } = await setUp(server);
    const issued = await call(server, 'POST', ApiPaths.impersonation, { token: admin.accessToken, body: { userId: target.userId } });
    const session = (await call(server, 'POST', ApiPaths.impersonate, { body: { token: issued.body.token } })).body.accessToken as string;
    const path = ApiPaths.webauthnDevice.replace('{deviceId}', passkeyId);

    const removed = await call(server, 'DELETE', path, { token: session });
    expect(removed.status).toBe(403);
    expect(removed.body.errorCode).toBe(ErrorCodes.notWhileImpersonating);
    expect((await listCredentials(server.db, target.userId)).map((c) => c.id)).toEqual([passkeyId]);

    // The user's own session still may.
    expect((await call(server, 'DELETE', path, { token: target.accessToken })).status).toBe(200);
    expect(await listCredentials(server.db, target.userId)).toEqual([]);
  });

  it("bug: an admin whose membership was disabled or expired kept impersonating (roles outlive the membership; tokens outlive it by minutes)", async () => {
    const server = await start();
    const { admin, target } = await setUp(server);
    const membership = () => server.db.updateTable('user_tenants').where('user_id', '=', admin.userId).where('tenant_id', '=', admin.tenantId);

    // Disabled between issue and exchange: the token (no session needed) is refused.
    const token = (await call(server, 'POST', ApiPaths.impersonation, { token: admin.accessToken, body: { userId: target.userId } })).body.token as string;
    await membership().set({ disabled_at: Date.now() }).execute();
    const exchanged = await call(server, 'POST', ApiPaths.impersonate, { body: { token } });
    expect(exchanged.status).toBe(403);
    expect(exchanged.refreshCookie).toBeUndefined();

    // A temporary membership that expired: the access token still names the tenant, but its session
    // ended with the membership (users.temporary-expiry.test.ts), so no new token is issued.
    await membership().set({ disabled_at: null, expires_at: Date.now() - 1000 }).execute();
    const issued = await call(server, 'POST', ApiPaths.impersonation, { token: admin.accessToken, body: { userId: target.userId } });
    expect(issued.status).toBe(401);
    expect(issued.body.token).toBeUndefined();
  });
});
