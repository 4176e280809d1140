/**
 * The entitlements catalogue across two processes (issue 17): each server keeps the vendor's plans,
 * flags and features, each plan's features and each tenant's plan for at most 1 s
 * (services/entitlements/catalogue.ts). Changes written through server A show in the tokens and
 * answers of A at once, and of B, with its own movable clock, once 1,000 ms have passed.
 */
import { ApiPaths, ENTITLEMENTS_CLAIM, EntitlementPaths } from '@gatehouse/shared/wire';
import { expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { callAs } from '../../test/admin-helpers';
import { insertFeature, insertFlag, insertPlan, subscribe } from '../../test/entitlement-helpers';
import { call, describeDialects, movableClock, signUpAndActivate } from '../../test/harness';

const ROOMY = { RATE_LIMIT_SIGNUP_PER_IP: '1000/60', RATE_LIMIT_REFRESH_PER_IP: '1000/60' };
const claimsOf = (accessToken: string) => JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as Record<string, any>;
const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}`;

describeDialects('entitlements catalogue across two processes', (h) => {
  async function twoServers() {
    const clockB = movableClock();
    const a = await h.start(ROOMY);
    const b = await h.start(ROOMY, { clock: clockB });
    return { a, b, clockB };
  }

  /** Refreshes on `server` with the session's cookie; answers the new token's feature claim and keeps the rotated cookie. */
  function sessionOf(cookie: string) {
    let current = cookie;
    return async (server: GatehouseServer) => {
      const res = await call(server, 'POST', ApiPaths.refresh, { cookie: current });
      expect(res.status).toBe(200);
      current = res.refreshCookie!;
      return Object.keys(claimsOf(res.body.accessToken)[ENTITLEMENTS_CLAIM]?.f ?? {}).sort();
    };
  }

  it("a tenant's new plan, and a feature added to that plan, reach A's tokens at once and B's within 1 s", async () => {
    const { a, b, clockB } = await twoServers();
    const admin = await signUpAndActivate(a);
    const featuresAfterRefresh = sessionOf(admin.cookie);
    const [basic, extra] = [unique('basic'), unique('extra')];
    const planId = await insertPlan(a, { features: { [await insertFeature(a, basic)]: null } });
    expect(await featuresAfterRefresh(b)).toEqual([]);

    await subscribe(a, admin.tenantId, planId);
    expect(await featuresAfterRefresh(a)).toEqual([basic]);
    clockB.advance(1_000);
    expect(await featuresAfterRefresh(b)).toEqual([basic]);

    await a.db.insertInto('plan_features').values({ plan_id: planId, feature_id: await insertFeature(a, extra), limit_value: null }).execute();
    expect(await featuresAfterRefresh(a)).toEqual([basic, extra].sort());
    clockB.advance(1_000);
    expect(await featuresAfterRefresh(b)).toEqual([basic, extra].sort());
  });

  it("a feature flag turned off through A stops granting its feature on A at once and on B within 1 s: tokens, /flags and the entitlements answer", async () => {
    const { a, b, clockB } = await twoServers();
    const admin = await signUpAndActivate(a);
    const featuresAfterRefresh = sessionOf(admin.cookie);
    const flagged = unique('flagged');
    const flagKey = unique('flag');
    await insertFlag(a, flagKey, { on: true, defaultTreatment: 'true', featureIds: [await insertFeature(a, flagged)] });
    expect(await featuresAfterRefresh(a)).toEqual([flagged]);
    expect(await featuresAfterRefresh(b)).toEqual([flagged]);
    expect((await callAs(b, admin, 'GET', ApiPaths.flags)).body[flagKey]).toBe('on');

    await a.db.updateTable('feature_flags').set({ is_on: 0 }).where('key', '=', flagKey).execute();
    expect(await featuresAfterRefresh(a)).toEqual([]);
    expect((await callAs(a, admin, 'GET', ApiPaths.flags)).body[flagKey]).toBe('off');
    expect((await callAs(a, admin, 'GET', EntitlementPaths.userEntitlements)).body.features[flagged].featureFlag.on).toBe(false);
    clockB.advance(1_000);
    expect(await featuresAfterRefresh(b)).toEqual([]);
    expect((await callAs(b, admin, 'GET', ApiPaths.flags)).body[flagKey]).toBe('off');
    expect((await callAs(b, admin, 'GET', EntitlementPaths.userEntitlements)).body.features[flagged].featureFlag.on).toBe(false);
  });
});
