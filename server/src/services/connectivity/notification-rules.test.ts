import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { newId } from '../../crypto';
import { describeDialects, movableClock } from '../../test/harness';
import { raiseEvent } from './events';
import { SIGN_IN_FAILURE_BURST, SIGN_IN_FAILURE_WINDOW_MS } from './notification-rules';

async function newTenant(server: GatehouseServer, now: number): Promise<string> {
  const id = newId();
  await server.db.insertInto('tenants').values({ id, name: `t-${id.slice(0, 6)}`, is_reseller: 0, application_url: null, metadata: null, created_at: now }).execute();
  return id;
}

function notificationsOf(server: GatehouseServer, tenantId: string) {
  return server.db.selectFrom('notifications').select(['category', 'severity', 'title', 'body', 'created_at']).where('tenant_id', '=', tenantId).orderBy('created_at').orderBy('title').execute();
}

const actor = { userId: newId(), email: 'ada@example.com' };

describeDialects('notification rules: events that become notifications', (harness) => {
  it('turns a lock, policy, SSO, SCIM and API token change and a subscription problem into one notification each, and ignores the rest', async () => {
    const clock = movableClock();
    const server = await harness.start({}, { clock });
    const tenantId = await newTenant(server, clock.now());
    const raise = (key: Parameters<typeof raiseEvent>[1]['key'], data: Record<string, unknown>) => raiseEvent(server.db, { tenantId, key, data, actor }, clock.now());
    await raise('user.locked', { userId: actor.userId, email: 'bob@example.com', reason: 'failed_sign_ins' });
    await raise('security_policy.updated', { policy: 'mfa', changedFields: ['enforce'] });
    await raise('sso.configuration_changed', { configurationId: newId(), change: 'deleted' });
    await raise('scim.connection_changed', { connectionId: newId(), change: 'token_rotated' });
    await raise('api_token.created', { tokenId: newId(), type: 'tenant', description: 'CI' });
    await raise('subscription.updated', { subscriptionId: newId(), planId: 'pro', status: 'past_due', previousStatus: 'active' });
    // Not notified: a healthy subscription, a change within the same problem status, ordinary events.
    await raise('subscription.updated', { subscriptionId: newId(), planId: 'pro', status: 'active', previousStatus: 'past_due' });
    await raise('subscription.updated', { subscriptionId: newId(), planId: 'pro', status: 'past_due', previousStatus: 'past_due' });
    await raise('user.signed_in', { userId: actor.userId, email: actor.email, method: 'password' });
    await raise('role.created', { roleId: newId(), key: 'x', name: 'X' });

    expect(await server.connectivity.worker.runDue()).toMatchObject({ dispatched: 10 });
    const rows = await notificationsOf(server, tenantId);
    expect(rows.map((r) => [r.category, r.severity, r.title, r.body]).sort()).toEqual(
      [
        ['billing', 'critical', 'Subscription needs attention', 'The subscription is now past due (plan pro).'],
        ['security', 'info', 'API token created', 'A tenant API token ("CI") was created by ada@example.com.'],
        ['security', 'info', 'SCIM connection changed', 'A SCIM provisioning connection had its token rotated by ada@example.com.'],
        ['security', 'info', 'Security policy changed', 'The mfa policy was changed by ada@example.com (enforce).'],
        ['security', 'warning', 'SSO configuration changed', 'An SSO configuration was deleted by ada@example.com.'],
        ['security', 'warning', 'User locked', 'bob@example.com was locked after too many failed sign-ins.'],
      ].sort(),
    );
  });

  it(`writes one notification for a burst of ${SIGN_IN_FAILURE_BURST} failed sign-ins within ${SIGN_IN_FAILURE_WINDOW_MS / 60_000} minutes, not one per failure, and none below it`, async () => {
    const clock = movableClock();
    const server = await harness.start({}, { clock });
    const tenantId = await newTenant(server, clock.now());
    const fail = () => raiseEvent(server.db, { tenantId, key: 'user.sign_in_failed', data: { userId: null, email: 'x@example.com', reason: 'wrong_password' }, actor: null }, clock.now());

    // Nine, spread over the window: no notification.
    for (let i = 0; i < SIGN_IN_FAILURE_BURST - 1; i++) {
      await fail();
      clock.advance(30_000);
    }
    await server.connectivity.worker.runDue();
    expect(await notificationsOf(server, tenantId)).toEqual([]);

    // The tenth within the window makes one (counting the five raised with it); those five add none.
    for (let i = 0; i < 6; i++) await fail();
    await server.connectivity.worker.runDue();
    const burst = await notificationsOf(server, tenantId);
    expect(burst.map((r) => [r.category, r.severity, r.title, r.body])).toEqual([['security', 'critical', 'Many failed sign-ins', `${SIGN_IN_FAILURE_BURST + 5} sign-ins failed in the last 10 minutes.`]]);

    // Failures spread wider than the window never add up to a burst.
    clock.advance(SIGN_IN_FAILURE_WINDOW_MS + 1);
    const other = await newTenant(server, clock.now());
    for (let i = 0; i < SIGN_IN_FAILURE_BURST * 2; i++) {
      await raiseEvent(server.db, { tenantId: other, key: 'user.sign_in_failed', data: { userId: null, email: 'x@example.com', reason: 'wrong_password' }, actor: null }, clock.now());
      clock.advance(Math.ceil(SIGN_IN_FAILURE_WINDOW_MS / (SIGN_IN_FAILURE_BURST - 1)) + 1_000);
    }
    await server.connectivity.worker.runDue();
    expect(await notificationsOf(server, other)).toEqual([]);

    // A new burst after the window: a second notification.
    for (let i = 0; i < SIGN_IN_FAILURE_BURST; i++) await fail();
    await server.connectivity.worker.runDue();
    expect((await notificationsOf(server, tenantId)).length).toBe(2);
  });

  it('writes nothing when the change that raised the event rolls back', async () => {
    const clock = movableClock();
    const server = await harness.start({}, { clock });
    const tenantId = await newTenant(server, clock.now());
    await expect(
      server.db.transaction().execute(async (trx) => {
        await raiseEvent(trx, { tenantId, key: 'user.locked', data: { userId: actor.userId, email: 'bob@example.com', reason: 'admin' }, actor }, clock.now());
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await server.connectivity.worker.runDue();
    expect(await notificationsOf(server, tenantId)).toEqual([]);
  });
});
