/**
 * Regression (issue 12 review): a refresh at /oauth/token whose grant's tenant membership ended (a
 * temporary membership that expired) moved the grant into the user's other tenant without weighing
 * that tenant's MFA policy, so a sign-in without MFA got tokens for a tenant that forces it. Both dialects.
 */
import { SecurityPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { callAs, memberWithoutPermissions, signIn, tenantWithAdmin } from '../../test/admin-helpers';
import { describeDialects } from '../../test/harness';
import { clientsFile, codeFor, exchange, PUBLIC_CLIENT, tokenCall } from '../../test/oauth-helpers';

describeDialects('refresh grant moved into another tenant', (h) => {
  it("ends with invalid_grant when the other tenant's MFA policy is not met by the grant's sign-in", async () => {
    const server = await h.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/3600', RATE_LIMIT_LOGIN_PER_IP: '1000/600', OAUTH_CLIENTS_FILE: clientsFile() });
    const strict = await tenantWithAdmin(server, 'strict');
    const member = await memberWithoutPermissions(server, strict.tenantId);
    expect((await callAs(server, strict, 'PATCH', SecurityPaths.mfaPolicy, { body: { enforceMFAType: 'Force' } })).status).toBe(200);
    const login = await signIn(server, member.email);
    expect(login.body.mfaRequired).toBe(false);
    const ownTenant = login.body.tenantId as string;
    const code = await codeFor(server, login.body.accessToken);
    const tokens = await exchange(server, code.code, code.verifier);
    expect(tokens.status).toBe(200);

    // The membership of the grant's tenant expires: the strict tenant is the user's only one left.
    await server.db.updateTable('user_tenants').set({ expires_at: Date.now() - 1000 }).where('user_id', '=', member.userId).where('tenant_id', '=', ownTenant).execute();
    const refreshed = await tokenCall(server, { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token, client_id: PUBLIC_CLIENT.clientId });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(400);
    expect(refreshed.body.error).toBe('invalid_grant');
    expect(refreshed.body.access_token).toBeUndefined();
  });
});
