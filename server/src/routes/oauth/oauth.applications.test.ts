/**
 * Applications (issue 15) at hosted login: a client linked to a MANAGED_ACCESS application gives a
 * code, tokens, a refresh and silent tokens only to users assigned to it in the tenant they sign in
 * to; FREE_ACCESS (or no application) lets every member in.
 */
import { ApiPaths, ApplicationErrorCodes, ApplicationPaths, ME_TOKEN_PATH, OAuthPaths } from '@gatehouse/shared/wire';

import { decodeJwt } from 'jose';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { addUserToTenant } from '../../db/queries/tenants';
import { NOT_ASSIGNED_MESSAGE } from '../../services/applications/access';
import { activeMember, callAs, pathOf, superUser, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { call, describeDialects } from '../../test/harness';
import { authorizeParams, clientsFile, codeFor, completeAuthorize, exchange, pkce, PUBLIC_CLIENT, redirectQuery, tokenCall } from '../../test/oauth-helpers';

describeDialects('hosted login: MANAGED_ACCESS applications', (h) => {
  const limits = { RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_LOGIN_PER_IP: '1000/600', RATE_LIMIT_ACTIVATION_PER_IP: '1000/600', RATE_LIMIT_REFRESH_PER_IP: '1000/60' };
  const start = () => h.start({ ...limits, OAUTH_CLIENTS_FILE: clientsFile(), GATEHOUSE_ALLOWED_ORIGINS: 'https://notes.example.com' });

  /** An application linked to the public client, a tenant admin and a signed-in member of the tenant. */
  async function setUp(server: GatehouseServer, accessType: 'FREE_ACCESS' | 'MANAGED_ACCESS') {
    const root = await superUser(server);
    // The tests of this block share a database: the client is linked to one application at a time.
    const linked = ((await callAs(server, root, 'GET', ApplicationPaths.applications)).body as { id: string; clientId: string | null }[]).find((a) => a.clientId === PUBLIC_CLIENT.clientId);
    if (linked) expect((await callAs(server, root, 'DELETE', pathOf(ApplicationPaths.application, { appId: linked.id }))).status).toBe(204);
    const created = await callAs(server, root, 'POST', ApplicationPaths.applications, { body: { name: 'Notes', url: 'https://notes.example.com', accessType, clientId: PUBLIC_CLIENT.clientId } });
    expect(created.status).toBe(201);
    const admin = await tenantWithAdmin(server);
    const member = await activeMember(server, admin);
    return { root, appId: created.body.id as string, admin, member };
  }
  const assignment = (server: GatehouseServer, admin: TenantAdmin, path: string, userId: string, appId: string) => callAs(server, admin, 'POST', path, { body: { userId, appIds: [appId], tenantId: admin.tenantId } });

  it('refuses an unassigned user at the authorization (access_denied to the redirect URI, no code) and lets them in once assigned', async () => {
    const server = await start();
    const { appId, admin, member } = await setUp(server, 'MANAGED_ACCESS');
    const params = authorizeParams(pkce().challenge);
    const refused = await completeAuthorize(server, member.accessToken, params);
    expect(refused.status).toBe(200);
    const query = redirectQuery(refused.body.redirectUrl);
    expect(query).toMatchObject({ error: 'access_denied', error_description: NOT_ASSIGNED_MESSAGE, state: params.state });
    expect(query.code).toBeUndefined();
    expect(await server.db.selectFrom('oauth_codes').select('code_hash').where('user_id', '=', member.userId).execute()).toEqual([]);

    expect((await assignment(server, admin, ApplicationPaths.assign, member.userId, appId)).status).toBe(200);
    const { code, verifier } = await codeFor(server, member.accessToken);
    const tokens = await exchange(server, code, verifier);
    expect(tokens.status).toBe(200);
    expect(typeof tokens.body.access_token).toBe('string');
  });

  it('refuses the token for a code issued before the user was unassigned, and the next refresh after it (the grant ends)', async () => {
    const server = await start();
    const { appId, admin, member } = await setUp(server, 'MANAGED_ACCESS');
    expect((await assignment(server, admin, ApplicationPaths.assign, member.userId, appId)).status).toBe(200);

    const first = await codeFor(server, member.accessToken);
    const tokens = await exchange(server, first.code, first.verifier);
    expect(tokens.status).toBe(200);
    const pending = await codeFor(server, member.accessToken);

    expect((await assignment(server, admin, ApplicationPaths.unassign, member.userId, appId)).status).toBe(200);
    const exchanged = await exchange(server, pending.code, pending.verifier);
    expect(exchanged.status).toBe(400);
    expect(exchanged.body).toEqual({ error: 'invalid_grant', error_description: NOT_ASSIGNED_MESSAGE });

    const refresh = () => tokenCall(server, { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token, client_id: PUBLIC_CLIENT.clientId });
    const refused = await refresh();
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'invalid_grant', error_description: NOT_ASSIGNED_MESSAGE });
    // The grant is revoked: its access token no longer works, and assigning again does not revive it.
    expect((await call(server, 'GET', OAuthPaths.userinfo, { token: tokens.body.access_token })).status).toBe(401);
    expect((await assignment(server, admin, ApplicationPaths.assign, member.userId, appId)).status).toBe(200);
    expect((await refresh()).body.error).toBe('invalid_grant');
  });

  it('answers silent authorization for an unassigned user with 403 ER-05101', async () => {
    const server = await start();
    const { appId, admin, member } = await setUp(server, 'MANAGED_ACCESS');
    const signIn = await call(server, 'POST', ApiPaths.login, { body: { email: member.email, password: member.password } });
    expect(signIn.status).toBe(200);
    const silent = () => call(server, 'POST', OAuthPaths.authorizeSilent, { body: { clientId: PUBLIC_CLIENT.clientId }, cookie: signIn.refreshCookie, headers: { origin: 'https://notes.example.com' } });
    const refused = await silent();
    expect(refused.status).toBe(403);
    expect(refused.body.errorCode).toBe(ApplicationErrorCodes.notAssigned);
    expect(refused.body.errors).toEqual([NOT_ASSIGNED_MESSAGE]);
    expect((await assignment(server, admin, ApplicationPaths.assign, member.userId, appId)).status).toBe(200);
    expect((await silent()).status).toBe(200);
  });

  it('lets every member in through a FREE_ACCESS application, and refuses them once the operator makes it MANAGED_ACCESS', async () => {
    const server = await start();
    const { root, appId, member } = await setUp(server, 'FREE_ACCESS');
    const { code, verifier } = await codeFor(server, member.accessToken);
    const tokens = await exchange(server, code, verifier);
    expect(tokens.status).toBe(200);
    expect((await callAs(server, root, 'PATCH', pathOf(ApplicationPaths.application, { appId }), { body: { accessType: 'MANAGED_ACCESS' } })).status).toBe(200);
    const refresh = await tokenCall(server, { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token, client_id: PUBLIC_CLIENT.clientId });
    expect(refresh.body).toEqual({ error: 'invalid_grant', error_description: NOT_ASSIGNED_MESSAGE });
  });

  it('keeps the assignment to the tenant it was made in: assigned in one tenant, refused when signing in to another', async () => {
    const server = await start();
    const { appId, admin, member } = await setUp(server, 'MANAGED_ACCESS');
    expect((await assignment(server, admin, ApplicationPaths.assign, member.userId, appId)).status).toBe(200);
    // The member's own second tenant, where nobody assigned them.
    const other = await tenantWithAdmin(server);
    await addUserToTenant(server.db, member.userId, other.tenantId, Date.now());
    const refused = await completeAuthorize(server, member.accessToken, authorizeParams(pkce().challenge, { tenantId: other.tenantId }));
    expect(redirectQuery(refused.body.redirectUrl).error).toBe('access_denied');
    const allowed = await completeAuthorize(server, member.accessToken, authorizeParams(pkce().challenge, { tenantId: admin.tenantId }));
    expect(redirectQuery(allowed.body.redirectUrl).code).toBeTruthy();
  });

  it("names the client in a grant's access token (RFC 9068 client_id), never in the login box's, and refuses to exchange it for another tenant's token", async () => {
    const server = await start();
    const { appId, admin, member } = await setUp(server, 'MANAGED_ACCESS');
    expect((await assignment(server, admin, ApplicationPaths.assign, member.userId, appId)).status).toBe(200);
    expect(decodeJwt(member.accessToken).client_id).toBeUndefined();
    const { code, verifier } = await codeFor(server, member.accessToken);
    const tokens = await exchange(server, code, verifier);
    expect(tokens.status).toBe(200);
    expect(decodeJwt(tokens.body.access_token).client_id).toBe(PUBLIC_CLIENT.clientId);
    const refreshed = await tokenCall(server, { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token, client_id: PUBLIC_CLIENT.clientId });
    expect(decodeJwt(refreshed.body.access_token).client_id).toBe(PUBLIC_CLIENT.clientId);

    // The member's second tenant, where nobody assigned them: the grant's token cannot become one of it.
    const other = await tenantWithAdmin(server);
    await addUserToTenant(server.db, member.userId, other.tenantId, Date.now());
    const switched = await call(server, 'POST', ME_TOKEN_PATH, { token: refreshed.body.access_token, body: { tenantId: other.tenantId } });
    expect(switched.status).toBe(403);
    expect((await call(server, 'PUT', ApiPaths.switchTenant, { token: refreshed.body.access_token, body: { tenantId: other.tenantId } })).status).toBe(403);
    // Its own tenant still gets a fresh token, still naming the client; the login box's token may switch.
    const same = await call(server, 'POST', ME_TOKEN_PATH, { token: refreshed.body.access_token, body: { tenantId: admin.tenantId } });
    expect(same.status).toBe(200);
    expect(decodeJwt(same.body.accessToken).client_id).toBe(PUBLIC_CLIENT.clientId);
    const browser = await call(server, 'POST', ME_TOKEN_PATH, { token: member.accessToken, body: { tenantId: other.tenantId } });
    expect(browser.status).toBe(200);
    expect(decodeJwt(browser.body.accessToken).client_id).toBeUndefined();
  });
});
