import { isEntitledToFeature, isEntitledToPermission } from '@gatehouse/shared/entitlements';
import { ApiPaths, ENTITLEMENTS_CLAIM, EntitlementPaths, Permissions } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import { activeMember, callAs, tenantWithAdmin } from '../../test/admin-helpers';
import { endsWithRule, insertFeature, insertFlag, insertGrant, insertPlan, subscribe } from '../../test/entitlement-helpers';
import { call, describeDialects, signUpAndActivate } from '../../test/harness';

const claimsOf = (accessToken: string) => JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as Record<string, any>;
const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}`;

describeDialects('GET entitlements v2', (harness) => {
  it("answers the features of the tenant's plan (no expiry, planIds, linked permissions, limit) and the user's permissions; 401 without a token", async () => {
    const server = await harness.start();
    const admin = await tenantWithAdmin(server);
    const reports = unique('reports');
    const featureId = await insertFeature(server, reports, ['reports.read']);
    const planId = await insertPlan(server, { features: { [featureId]: 100 } });
    await subscribe(server, admin.tenantId, planId);

    const res = await callAs(server, admin, 'GET', EntitlementPaths.userEntitlements);
    expect(res.status).toBe(200);
    expect(res.body.features[reports]).toEqual({ planIds: [planId], expireTime: -1, linkedPermissions: ['reports.read'], limit: 100 });
    expect(res.body.permissions[Permissions.usersRead]).toBe(true);
    expect(res.body.explain).toBeUndefined();
    expect((await call(server, 'GET', EntitlementPaths.userEntitlements)).status).toBe(401);
    expect((await call(server, 'GET', EntitlementPaths.userEntitlements, { token: 'not-a-token' })).status).toBe(401);
  });

  it("adds direct grants to the tenant and to this user (not another user's, not another tenant's); an expired grant is BUNDLE_EXPIRED, and explain names the grant", async () => {
    const server = await harness.start();
    const admin = await tenantWithAdmin(server);
    const member = await activeMember(server, admin);
    const other = await tenantWithAdmin(server, 'other');
    const [tenantWide, mine, theirs, expired, elsewhere] = ['tenant', 'mine', 'theirs', 'expired', 'elsewhere'].map(unique);
    const until = Date.now() + 86_400_000;
    const tenantGrant = await insertGrant(server, await insertFeature(server, tenantWide!), admin.tenantId, { expiresAt: until });
    await insertGrant(server, await insertFeature(server, mine!), admin.tenantId, { userId: admin.userId });
    await insertGrant(server, await insertFeature(server, theirs!), admin.tenantId, { userId: member.userId });
    const expiredGrant = await insertGrant(server, await insertFeature(server, expired!), admin.tenantId, { expiresAt: Date.now() - 1000 });
    await insertGrant(server, await insertFeature(server, elsewhere!), other.tenantId);

    const res = await callAs(server, admin, 'GET', `${EntitlementPaths.userEntitlements}?explain=true`);
    expect(res.status).toBe(200);
    expect(res.body.features[tenantWide!]).toMatchObject({ planIds: [], expireTime: until });
    expect(res.body.features[mine!]).toMatchObject({ expireTime: -1 });
    expect(res.body.features[theirs!]).toBeUndefined();
    expect(res.body.features[elsewhere!]).toBeUndefined();
    expect(res.body.explain[tenantWide!]).toEqual([expect.objectContaining({ source: 'direct', grantId: tenantGrant })]);
    expect(res.body.features[expired!].expireTime).toBeLessThan(Date.now());
    expect(res.body.explain[expired!]).toEqual([expect.objectContaining({ source: 'direct', grantId: expiredGrant })]);
    expect(res.body.explain[expired!][0].reason).toMatch(/expired/);
    // The member sees their own grant and the tenant's, not the admin's.
    const theirView = await callAs(server, member, 'GET', EntitlementPaths.userEntitlements);
    expect(Object.keys(theirView.body.features).sort()).toEqual([expired!, tenantWide!, theirs!].sort());
  });

  it("carries the feature's flag and plan targeting; explain says which flag rule, which plan's rule, or which plan decided", async () => {
    const server = await harness.start();
    const admin = await tenantWithAdmin(server);
    const [flagged, targeted, planned] = ['flagged', 'targeted', 'planned'].map(unique);
    const flagKey = unique('beta');
    const flaggedId = await insertFeature(server, flagged!);
    await insertFlag(server, flagKey, { rules: [endsWithRule('frontegg.email', '@example.com')], featureIds: [flaggedId] });
    const targetingPlan = await insertPlan(server, { features: { [await insertFeature(server, targeted!)]: null }, rules: [endsWithRule('frontegg.email', '@example.com')] });
    const tenantPlan = await insertPlan(server, { features: { [await insertFeature(server, planned!)]: null } });
    await subscribe(server, admin.tenantId, tenantPlan);

    const res = await callAs(server, admin, 'GET', `${EntitlementPaths.userEntitlements}?explain=true`);
    expect(res.status).toBe(200);
    expect(res.body.features[flagged!]).toMatchObject({ planIds: [], expireTime: null, featureFlag: { key: flagKey, on: true, defaultTreatment: 'false' } });
    expect(res.body.features[flagged!].featureFlag.rules).toHaveLength(1);
    expect(res.body.features[targeted!]).toMatchObject({ planIds: [targetingPlan], expireTime: null });
    expect(res.body.plans[targetingPlan]).toMatchObject({ defaultTreatment: 'false', rules: [expect.objectContaining({ treatment: 'true' })] });
    expect(res.body.explain[flagged!]).toEqual([expect.objectContaining({ source: 'feature-flag', flagKey, ruleIndex: 0 })]);
    expect(res.body.explain[targeted!]).toEqual([expect.objectContaining({ source: 'plan-targeting', planId: targetingPlan, ruleIndex: 0 })]);
    expect(res.body.explain[planned!]).toEqual([expect.objectContaining({ source: 'direct', planId: tenantPlan })]);
  });

  it("names the tenant's plan (planId) for every member of it, null before a subscription and in another tenant", async () => {
    const server = await harness.start();
    const admin = await tenantWithAdmin(server);
    const member = await activeMember(server, admin);
    const other = await tenantWithAdmin(server, 'other');
    const before = await callAs(server, admin, 'GET', EntitlementPaths.userEntitlements);
    expect(before.status).toBe(200);
    expect(before.body.planId).toBeNull();
    const planId = await insertPlan(server, { features: { [await insertFeature(server, unique('planned'))]: null } });
    await subscribe(server, admin.tenantId, planId);
    expect((await callAs(server, admin, 'GET', EntitlementPaths.userEntitlements)).body.planId).toBe(planId);
    expect((await callAs(server, member, 'GET', EntitlementPaths.userEntitlements)).body.planId).toBe(planId);
    expect((await callAs(server, other, 'GET', EntitlementPaths.userEntitlements)).body.planId).toBeNull();
  });

  it('merges the sources of one feature: the plan (no expiry) beats a dated grant, a later grant beats an earlier one; explain names the winner', async () => {
    const server = await harness.start();
    const admin = await tenantWithAdmin(server);
    const [both, twice] = ['both', 'twice'].map(unique);
    const bothId = await insertFeature(server, both!);
    const twiceId = await insertFeature(server, twice!);
    const planId = await insertPlan(server, { features: { [bothId]: null } });
    await subscribe(server, admin.tenantId, planId);
    await insertGrant(server, bothId, admin.tenantId, { expiresAt: Date.now() + 60_000 });
    const soon = Date.now() + 60_000;
    const later = Date.now() + 3_600_000;
    await insertGrant(server, twiceId, admin.tenantId, { expiresAt: soon });
    const laterGrant = await insertGrant(server, twiceId, admin.tenantId, { userId: admin.userId, expiresAt: later });
    await insertGrant(server, twiceId, admin.tenantId, { expiresAt: soon + 1 });

    const res = await callAs(server, admin, 'GET', `${EntitlementPaths.userEntitlements}?explain=true`);
    expect(res.body.features[both!]).toMatchObject({ planIds: [planId], expireTime: -1 });
    expect(res.body.explain[both!]).toEqual([expect.objectContaining({ source: 'direct', planId })]);
    expect(res.body.features[twice!]).toMatchObject({ planIds: [], expireTime: later });
    expect(res.body.explain[twice!]).toEqual([expect.objectContaining({ source: 'direct', grantId: laterGrant })]);
  });

  it('takes feature keys that name Object.prototype members ("constructor", "toString") as plain keys', async () => {
    const server = await harness.start();
    const admin = await tenantWithAdmin(server);
    const taken = await server.db.selectFrom('features').select('key').where('key', 'in', ['constructor', 'toString']).execute();
    const planFeatures: Record<string, null> = {};
    for (const key of ['constructor', 'toString'].filter((k) => !taken.some((t) => t.key === k))) planFeatures[await insertFeature(server, key)] = null;
    await subscribe(server, admin.tenantId, await insertPlan(server, { features: planFeatures }));
    const res = await callAs(server, admin, 'GET', `${EntitlementPaths.userEntitlements}?explain=true`);
    expect(res.status).toBe(200);
    expect(res.body.features.constructor).toMatchObject({ expireTime: -1, linkedPermissions: [] });
    expect(res.body.features.toString).toMatchObject({ expireTime: -1 });
    expect(res.body.explain.constructor).toEqual([expect.objectContaining({ source: 'direct' })]);
  });

  it("lists a feature linked to a held permission even when the user lacks it (expireTime null), so the permission is not entitled (MISSING_FEATURE); features linked only to permissions the user lacks stay out", async () => {
    const server = await harness.start();
    const admin = await tenantWithAdmin(server);
    const [gated, granted, foreign] = ['gated', 'granted', 'foreign'].map(unique);
    // Linked to a permission the admin holds, but no plan, grant or flag gives the feature.
    await insertFeature(server, gated!, [Permissions.usersRead]);
    // Linked to another held permission and given by the tenant's plan.
    const grantedId = await insertFeature(server, granted!, [Permissions.rolesRead]);
    await subscribe(server, admin.tenantId, await insertPlan(server, { features: { [grantedId]: null } }));
    // Linked only to a permission nobody in the tenant holds.
    await insertFeature(server, foreign!, [`vendor.secret.${foreign}`]);

    const res = await callAs(server, admin, 'GET', EntitlementPaths.userEntitlements);
    expect(res.status).toBe(200);
    expect(res.body.permissions[Permissions.usersRead]).toBe(true);
    expect(res.body.features[gated!]).toEqual({ planIds: [], expireTime: null, linkedPermissions: [Permissions.usersRead] });
    expect(res.body.features[foreign!]).toBeUndefined();
    expect(isEntitledToPermission(Permissions.usersRead, res.body)).toEqual({ isEntitled: false, justification: 'MISSING_FEATURE' });
    expect(isEntitledToPermission(Permissions.rolesRead, res.body)).toEqual({ isEntitled: true });
  });

  it("never shows other tenants' data in rules: conditions on frontegg.* and jwt.* come decided for the caller (only their own user id), custom-attribute conditions stay; the browser's checks answer as before", async () => {
    const server = await harness.start();
    const admin = await tenantWithAdmin(server);
    const other = await tenantWithAdmin(server, 'other');
    const [byTenant, byDomain, byCustom] = ['by-tenant', 'by-domain', 'by-custom'].map(unique);
    const secretDomain = `@${unique('bigcustomer')}.test`;
    // A flag for two named tenants (the other one and the caller's), a plan targeting a customer's domain, a flag on a custom attribute.
    await insertFlag(server, unique('beta'), {
      rules: [{ conditionLogic: 'and', treatment: 'true', conditions: [{ attribute: 'frontegg.tenantId', op: 'in_list', value: { list: [other.tenantId, admin.tenantId] }, negate: false }] }],
      featureIds: [await insertFeature(server, byTenant!)],
    });
    const targeting = await insertPlan(server, { features: { [await insertFeature(server, byDomain!)]: null }, rules: [endsWithRule('jwt.email', secretDomain)] });
    await insertFlag(server, unique('gold'), {
      rules: [{ conditionLogic: 'or', treatment: 'true', conditions: [{ attribute: 'tier', op: 'in_list', value: { list: ['gold'] }, negate: false }, { conditionLogic: 'and', conditions: [{ attribute: 'frontegg.email', op: 'ends_with', value: { list: [secretDomain] }, negate: true }, { attribute: 'tier', op: 'equal', value: { number: 7 }, negate: false }] }] }],
      featureIds: [await insertFeature(server, byCustom!)],
    });

    const res = await callAs(server, admin, 'GET', EntitlementPaths.userEntitlements);
    expect(res.status).toBe(200);
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(other.tenantId);
    expect(text).not.toContain(secretDomain);
    expect(res.body.plans[targeting].rules).toHaveLength(1);
    // The browser evaluates with the token's claims (and the host's custom attributes): the same answers.
    const jwt = claimsOf(admin.accessToken);
    const check = (key: string, custom: Record<string, string | number> = {}) => isEntitledToFeature(key, res.body, { jwt, custom }).isEntitled;
    expect(check(byTenant!)).toBe(true);
    expect(check(byDomain!)).toBe(false);
    expect(check(byCustom!)).toBe(false);
    expect(check(byCustom!, { tier: 'gold' })).toBe(true);
    expect(check(byCustom!, { tier: 7 })).toBe(true);
    expect(check(byCustom!, { tier: 'silver' })).toBe(false);
  });

  it('answers for another tenant of the caller with ?tenantId=, and 404 for a tenant they are not a member of', async () => {
    const server = await harness.start();
    const admin = await tenantWithAdmin(server);
    const other = await tenantWithAdmin(server, 'other');
    const key = unique('other-only');
    await insertGrant(server, await insertFeature(server, key), other.tenantId);
    expect((await callAs(server, admin, 'GET', EntitlementPaths.userEntitlements, { tenantId: other.tenantId })).status).toBe(404);
    expect((await callAs(server, other, 'GET', EntitlementPaths.userEntitlements, { tenantId: other.tenantId })).body.features[key]).toMatchObject({ expireTime: -1 });
    expect((await callAs(server, admin, 'GET', `${EntitlementPaths.userEntitlements}?explain=maybe`)).status).toBe(400);
  });
});

describeDialects('access token entitlements claim', (harness) => {
  it('carries the features the subject is entitled to now; a subscription change shows at the next refresh; omitted when empty', async () => {
    const server = await harness.start();
    const signedUp = await signUpAndActivate(server);
    expect(claimsOf(signedUp.accessToken)[ENTITLEMENTS_CLAIM]).toBeUndefined();

    const [basic, premium, flagged] = ['basic', 'premium', 'flagged'].map(unique);
    const basicId = await insertFeature(server, basic!);
    const premiumId = await insertFeature(server, premium!);
    const basicPlan = await insertPlan(server, { features: { [basicId]: null } });
    const premiumPlan = await insertPlan(server, { features: { [basicId]: null, [premiumId]: 10 } });
    // A flag whose rule reads the token's own email claim.
    await insertFlag(server, unique('flag'), { rules: [endsWithRule('frontegg.email', '@example.com')], featureIds: [await insertFeature(server, flagged!)] });
    await subscribe(server, signedUp.tenantId, basicPlan, 'active', Date.now() - 1000);

    const first = await call(server, 'POST', ApiPaths.refresh, { cookie: signedUp.cookie });
    expect(first.status).toBe(200);
    expect(claimsOf(first.body.accessToken)[ENTITLEMENTS_CLAIM]).toEqual({ f: { [basic!]: -1, [flagged!]: -1 } });

    await subscribe(server, signedUp.tenantId, premiumPlan, 'active');
    const second = await call(server, 'POST', ApiPaths.refresh, { cookie: first.refreshCookie! });
    expect(claimsOf(second.body.accessToken)[ENTITLEMENTS_CLAIM]).toEqual({ f: { [basic!]: -1, [premium!]: -1, [flagged!]: -1 } });

    // Canceled: the plan no longer applies (no default plan): only the flag's feature is left.
    await subscribe(server, signedUp.tenantId, premiumPlan, 'canceled', Date.now() + 1000);
    const third = await call(server, 'POST', ApiPaths.refresh, { cookie: second.refreshCookie! });
    expect(claimsOf(third.body.accessToken)[ENTITLEMENTS_CLAIM]).toEqual({ f: { [flagged!]: -1 } });
  });
});
