/**
 * Migration 016's read model: the copy of each user's sort and filter fields on their memberships
 * follows every write to users, mfa_devices, social_identities and sso_identities, whoever makes it.
 */
import { expect, it } from 'vitest';
import { describeDialects, signUpAndActivate } from '../../test/harness';
import { addUserToTenant, hasMembership, isMember, listUserTenants } from '../queries/tenants';
import { updateUser } from '../queries/users';

describeDialects('migration 016: the users read model on user_tenants', (h) => {
  it('fills the copy when a membership is added, and keeps it in step with the user row', async () => {
    const server = await h.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60' });
    const owner = await signUpAndActivate(server);
    const other = await signUpAndActivate(server);
    const row = () => server.db.selectFrom('user_tenants').selectAll().where('user_id', '=', owner.userId).orderBy('created_at').execute();
    expect((await row())[0]).toMatchObject({ email: owner.email, sort_name: owner.email.split('@')[0], verified: 1, locked: 0, breached: 0, mfa_enrolled: 0, provider: 'local', managed_by: 'frontegg' });

    await addUserToTenant(server.db, owner.userId, other.tenantId, Date.now());
    await updateUser(server.db, owner.userId, { name: 'Grace HOPPER', locked_at: 5, is_breached_password: 1, last_login: 123 });
    for (const membership of await row()) {
      expect(membership).toMatchObject({ sort_name: 'grace hopper', locked: 1, breached: 1, active_at: 123 });
    }
    await updateUser(server.db, owner.userId, { locked_at: null });
    expect((await row()).map((m) => m.locked)).toEqual([0, 0]);
  });

  it('follows second factors, social identities and SSO identities', async () => {
    const server = await h.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60' });
    const user = await signUpAndActivate(server);
    const copy = async () => server.db.selectFrom('user_tenants').select(['mfa_enrolled', 'provider']).where('user_id', '=', user.userId).executeTakeFirstOrThrow();
    const now = Date.now();
    await server.db.insertInto('mfa_devices').values({ id: 'd1', user_id: user.userId, type: 'authenticator', status: 'pending', secret: null, email: null, last_used_step: null, created_at: now, verified_at: null }).execute();
    expect((await copy()).mfa_enrolled).toBe(0);
    await server.db.updateTable('mfa_devices').set({ status: 'active' }).where('id', '=', 'd1').execute();
    expect((await copy()).mfa_enrolled).toBe(1);
    await server.db.deleteFrom('mfa_devices').where('id', '=', 'd1').execute();
    expect((await copy()).mfa_enrolled).toBe(0);

    await server.db.insertInto('social_identities').values({ id: 's1', user_id: user.userId, provider: 'github', subject: '42', email: user.email, created_at: now, last_login_at: null }).execute();
    expect((await copy()).provider).toBe('github');
    await server.db
      .insertInto('sso_configurations')
      .values({ id: 'c1', tenant_id: user.tenantId, type: 'saml', enabled: 1, sign_request: 0, idp_entity_id: null, idp_sso_url: null, idp_certificates: null, idp_metadata_url: null, oidc_issuer: null, oidc_client_id: null, oidc_client_secret: null, oidc_scopes: null, default_role_ids: '[]', created_at: now, updated_at: now })
      .execute();
    await server.db.insertInto('sso_identities').values({ config_id: 'c1', subject: 'ada', user_id: user.userId, granted_role_ids: '[]', created_at: now, last_login_at: now }).execute();
    expect((await copy()).provider).toBe('saml');
    await server.db.deleteFrom('sso_identities').where('config_id', '=', 'c1').execute();
    await server.db.deleteFrom('social_identities').where('id', '=', 's1').execute();
    expect((await copy()).provider).toBe('local');
  });

  it('counts a disabled, locked or expired membership as no membership, while the row stays', async () => {
    const server = await h.start();
    const user = await signUpAndActivate(server);
    const now = Date.now();
    const set = (patch: { disabled_at?: number | null; admin_locked_at?: number | null; expires_at?: number | null }) =>
      server.db.updateTable('user_tenants').set(patch).where('user_id', '=', user.userId).execute();
    expect(await isMember(server.db, user.userId, user.tenantId, now)).toBe(true);
    for (const patch of [{ disabled_at: now }, { admin_locked_at: now }, { expires_at: now - 1 }]) {
      await set({ disabled_at: null, admin_locked_at: null, expires_at: null, ...patch });
      expect(await isMember(server.db, user.userId, user.tenantId, now), JSON.stringify(patch)).toBe(false);
      expect(await listUserTenants(server.db, user.userId, now)).toEqual([]);
      expect(await hasMembership(server.db, user.userId, user.tenantId)).toBe(true);
    }
    await set({ disabled_at: null, admin_locked_at: null, expires_at: now + 1000 });
    expect(await isMember(server.db, user.userId, user.tenantId, now)).toBe(true);
  });
});
