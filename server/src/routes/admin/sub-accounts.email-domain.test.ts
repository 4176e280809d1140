/**
 * Regression (issue 12 review): adding users of the parent account to a sub-account
 * (`POST .../sub-tenants/{id}/users`) gave them a membership there whatever the sub-account's
 * email-domain restrictions said, while every other way in (invitation, invite link, sign-up, SSO)
 * is refused with 403 ER-02803. Both dialects.
 */
import { SecurityErrorCodes, SecurityPaths, SubAccountPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { callAs, inviteMember, pathOf, tenantWithAdmin } from '../../test/admin-helpers';
import { describeDialects } from '../../test/harness';

describeDialects('sub-account users and the sub-account\'s email-domain restrictions', (h) => {
  it('refuses to add a user whose address the sub-account does not allow, and adds nobody of that call', async () => {
    const server = await h.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60' });
    const parent = await tenantWithAdmin(server, 'parent');
    const created = await callAs(server, parent, 'POST', SubAccountPaths.subTenants, { body: { name: 'Restricted child' } });
    expect(created.status).toBe(201);
    const child = created.body.tenantId as string;
    // The sub-account lets in only addresses at allowed.example.
    expect((await callAs(server, parent, 'POST', SecurityPaths.emailDomainRestrictions, { body: { domain: 'allowed.example', type: 'ALLOW' }, tenantId: child })).status).toBe(201);
    expect((await callAs(server, parent, 'POST', SecurityPaths.emailDomainRestrictionsConfig, { body: { active: true, listType: 'ALLOW', blockPublicDomains: false }, tenantId: child })).status).toBe(200);

    const allowed = await inviteMember(server, parent, {}, `ok-${Date.now().toString(36)}@allowed.example`);
    const refused = await inviteMember(server, parent);
    const users = pathOf(SubAccountPaths.users, { subTenantId: child });
    const added = await callAs(server, parent, 'POST', users, { body: { userIds: [allowed.userId, refused.userId] } });
    expect([added.status, added.body.errorCode]).toEqual([403, SecurityErrorCodes.emailDomainRestricted]);
    const members = await server.db.selectFrom('user_tenants').select('user_id').where('tenant_id', '=', child).execute();
    expect(members.map((m) => m.user_id)).not.toContain(refused.userId);
    expect(members.map((m) => m.user_id)).not.toContain(allowed.userId);

    expect((await callAs(server, parent, 'POST', users, { body: { userIds: [allowed.userId] } })).status).toBe(200);
  });
});
