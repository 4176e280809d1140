/**
 * Events raised by changes to a tenant's SSO, SCIM provisioning and security policies (issue 16),
 * each made over HTTP (SCIM resources through the SCIM API with the connection's token).
 */
import { ProvisioningPaths, SecurityPaths, SsoPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { newId } from '../../crypto';
import { recordAudit } from '../admin/audit-log';
import { SubscriptionAuditActions } from '../billing/subscriptions';
import { callAs, pathOf, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { insertPlan } from '../../test/billing-helpers';
import { eventsOf, onlyEvent } from '../../test/event-helpers';
import { describeDialects, movableClock, uniqueEmail } from '../../test/harness';
import { oktaUser, scim, scimConnection, SCHEMA_GROUP } from '../../test/scim-helpers';

const ROOMY = { RATE_LIMIT_SIGNUP_PER_IP: '1000/3600' };
const actorOf = (admin: TenantAdmin) => ({ userId: admin.userId, email: admin.email });

describeDialects('events raised by SSO, SCIM and security policy changes', (h) => {
  it('an SSO configuration created, changed and deleted raises sso.configuration_changed each time', async () => {
    const server = await h.start(ROOMY);
    const admin = await tenantWithAdmin(server);
    const created = await callAs(server, admin, 'POST', SsoPaths.configurations, { body: { type: 'saml', enabled: false } });
    expect(created.status).toBe(201);
    const configurationId = created.body.id as string;
    const configuration = pathOf(SsoPaths.configuration, { configId: configurationId });
    expect((await callAs(server, admin, 'PATCH', configuration, { body: { enabled: true } })).status).toBe(200);
    expect((await callAs(server, admin, 'DELETE', configuration)).status).toBe(204);
    const events = await eventsOf(server, admin.tenantId, 'sso.configuration_changed');
    expect(events.map((e) => e.data)).toEqual([
      { configurationId, change: 'created' },
      { configurationId, change: 'updated' },
      { configurationId, change: 'deleted' },
    ]);
    expect(events.every((e) => e.actor?.userId === admin.userId)).toBe(true);
  });

  it('a SCIM connection created, rotated and deleted raises scim.connection_changed; what it provisions raises user and group events', async () => {
    // SCIM's tests run on a fixed clock; it moves a second between the changes, which orders their events.
    const clock = movableClock();
    const server = await h.start(ROOMY, { clock });
    const admin = await tenantWithAdmin(server);
    const { id: connectionId, token } = await scimConnection(server, admin);
    expect(await onlyEvent(server, admin.tenantId, 'scim.connection_changed')).toMatchObject({ data: { connectionId, change: 'created' }, actor: actorOf(admin) });

    const userName = uniqueEmail('okta');
    const user = await scim(server, token, 'POST', '/Users', oktaUser(userName));
    expect(user.status).toBe(201);
    const provisioned = (await eventsOf(server, admin.tenantId, 'user.created')).filter((e) => e.data.userId === user.body.id);
    expect(provisioned.map((e) => e.data)).toEqual([{ userId: user.body.id, email: userName, name: expect.any(String), source: 'scim' }]);
    const group = await scim(server, token, 'POST', '/Groups', { schemas: [SCHEMA_GROUP], displayName: 'Engineers', members: [{ value: user.body.id }] });
    expect(group.status).toBe(201);
    expect((await onlyEvent(server, admin.tenantId, 'group.created')).data).toEqual({ groupId: group.body.id, name: 'Engineers' });
    expect((await onlyEvent(server, admin.tenantId, 'group.users_updated')).data).toEqual({ groupId: group.body.id, addedUserIds: [user.body.id], removedUserIds: [] });
    expect((await scim(server, token, 'DELETE', `/Groups/${group.body.id}`)).status).toBe(204);
    expect((await onlyEvent(server, admin.tenantId, 'group.deleted')).data).toEqual({ groupId: group.body.id, name: 'Engineers' });
    expect((await scim(server, token, 'DELETE', `/Users/${user.body.id}`)).status).toBe(204);
    expect((await onlyEvent(server, admin.tenantId, 'user.deleted')).data).toEqual({ userId: user.body.id, email: userName });

    clock.advance(1_000);
    expect((await callAs(server, admin, 'POST', pathOf(ProvisioningPaths.scim2ConfigurationToken, { id: connectionId }))).status).toBe(200);
    clock.advance(1_000);
    expect((await callAs(server, admin, 'DELETE', `${pathOf(ProvisioningPaths.scim2Configuration, { id: connectionId })}?deleteAll=false`)).status).toBe(204);
    expect((await eventsOf(server, admin.tenantId, 'scim.connection_changed')).map((e) => e.data.change)).toEqual(['created', 'token_rotated', 'deleted']);
    // The bearer token is in no event.
    expect(JSON.stringify(await eventsOf(server, admin.tenantId))).not.toContain(token);
  });

  it('security policies, the sessions policy and IP restrictions raise security_policy.updated naming the policy and the fields changed', async () => {
    const server = await h.start(ROOMY);
    const admin = await tenantWithAdmin(server);
    expect((await callAs(server, admin, 'POST', SecurityPaths.lockoutPolicy, { body: { enabled: true, maxAttempts: 4 } })).status).toBe(200);
    const lockout = await onlyEvent(server, admin.tenantId, 'security_policy.updated');
    expect(lockout.actor).toEqual(actorOf(admin));
    expect(lockout.data.policy).toBe('lockout');
    expect(lockout.data.changedFields).toEqual(expect.arrayContaining(['enabled', 'maxAttempts']));
    expect((await callAs(server, admin, 'POST', SecurityPaths.sessionsPolicy, { body: { sessionIdleTimeoutConfiguration: { isActive: true, timeout: 86_400 }, sessionTimeoutConfiguration: { isActive: false, timeout: 86_400 }, sessionConcurrentConfiguration: { isActive: true, maxSessions: 50 } } })).status).toBe(200);
    expect((await callAs(server, admin, 'POST', SecurityPaths.ipRestrictions, { body: { ip: '198.18.0.7', strategy: 'BLOCK' } })).status).toBe(201);
    const events = await eventsOf(server, admin.tenantId, 'security_policy.updated');
    expect(events.map((e) => e.data.policy)).toEqual(['lockout', 'sessions', 'ipRestrictions']);
    expect(events[1]!.data.changedFields).toEqual(expect.arrayContaining(['sessionIdleTimeoutConfiguration', 'sessionConcurrentConfiguration']));
    expect(events[2]!.data.changedFields).toEqual(['restrictions']);
  });

  // Subscriptions change through Stripe (routes/billing/subscriptions.test.ts checks the event over
  // HTTP against localstripe); here the service's own audit record of a plan change, on a stored subscription.
  it("a subscription's plan change, recorded as the billing service records it, raises subscription.updated with the plan and status", async () => {
    const server = await h.start(ROOMY);
    const admin = await tenantWithAdmin(server);
    const [premium, basic] = [await insertPlan(server, { name: 'Premium', price: 10000 }), await insertPlan(server, { name: 'Basic', price: 1000 })];
    const subscriptionId = newId();
    const now = Date.now();
    await server.db.insertInto('subscriptions').values({ id: subscriptionId, tenant_id: admin.tenantId, plan_id: premium, external_id: `sub_${newId()}`, status: 'active', start_date: now, current_period_start: now, current_period_end: now + 30 * 86_400_000, cancellation: null, trial_end: null, payment_method_id: null, created_at: now, updated_at: now }).execute();
    const actor = { tenantId: admin.tenantId, userId: admin.userId, email: admin.email, ip: null, userAgent: null };
    await recordAudit(server.db, actor, { action: SubscriptionAuditActions.planChanged, description: 'Subscription plan changed to Premium', json: { subscriptionId, old: { planId: basic }, new: { planId: premium } } }, now);
    expect(await onlyEvent(server, admin.tenantId, 'subscription.updated')).toMatchObject({ data: { subscriptionId, planId: premium, status: 'active', previousStatus: null }, actor: actorOf(admin) });
  });
});
