import { describe, expect, it } from 'vitest';
import { createGatehouse } from '@gatehouse/shared';
import { EntitlementPaths } from '@gatehouse/shared/admin-paths';
import { createFetchStub, json, type Handler } from '../../../shared/src/testing/fetch-stub';
import { accessTokenClaims, createEntitlements, toEntitlementsContext } from './entitlements';

const BASE = 'https://id.example.com';
const GET_ENTITLEMENTS = `GET ${EntitlementPaths.userEntitlements}`;
const base64url = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const jwt = (claims: Record<string, unknown>) => `e30.${base64url(JSON.stringify(claims))}.sig`;

/**
 * A user on a plan granting `reports` (no expiry, linked to fe.reports.read), a direct grant of
 * `archive` that expired, and `beta` only by its flag's rule. The plan's own targeting grants nothing.
 */
export const entitlementsFixture = {
  features: {
    reports: { planIds: ['premium'], expireTime: -1, linkedPermissions: ['fe.reports.read'], limit: null },
    archive: { planIds: [], expireTime: Date.parse('2020-01-01T00:00:00Z'), linkedPermissions: ['fe.archive.read'] },
    beta: {
      planIds: [],
      expireTime: null,
      linkedPermissions: [],
      featureFlag: {
        on: true,
        offTreatment: 'false',
        defaultTreatment: 'false',
        rules: [{ conditionLogic: 'and', treatment: 'true', conditions: [{ attribute: 'jwt.email', op: 'in_list', value: { list: ['ada@example.com'] }, negate: false }] }],
      },
    },
  },
  plans: { premium: { defaultTreatment: 'false' } },
  permissions: { 'fe.reports.read': true, 'fe.archive.read': true, 'fe.profile.read': true },
};

function setup(handler: Handler | Handler[], token: string | null = jwt({ sub: 'u1', email: 'ada@example.com', tenantId: 't1' })) {
  const stub = createFetchStub({ [GET_ENTITLEMENTS]: handler });
  let accessToken = token;
  const { api } = createGatehouse({ baseUrl: BASE, clientId: 'c', fetch: stub.fetch, getLocationSearch: () => '', retry: { attempts: 1 }, navigate: () => undefined, storage: null });
  const loader = createEntitlements(api, () => accessToken);
  return { stub, loader, setToken: (t: string | null) => (accessToken = t) };
}

describe('entitlements in the browser', () => {
  it('loads GET entitlements v2 and answers getEntitlements with the features, plans and permissions (not the server explain)', async () => {
    const { stub, loader } = setup(() => json({ ...entitlementsFixture, explain: { reports: [{ source: 'direct', reason: 'plan' }] } }));
    expect(loader.loaded()).toBeNull();
    await loader.load('u1\nt1');
    expect(stub.callsTo(GET_ENTITLEMENTS)).toHaveLength(1);
    expect(loader.loaded()!.get()).toEqual({ ...entitlementsFixture, planId: null });
  });

  it('checks a feature: entitled by the plan, BUNDLE_EXPIRED when its expiry passed, MISSING_FEATURE when absent', async () => {
    const { loader } = setup(() => json(entitlementsFixture));
    await loader.load('u1\nt1');
    const checks = loader.loaded()!;
    expect(checks.isEntitledTo({ featureKey: 'reports' })).toEqual({ isEntitled: true });
    expect(checks.isEntitledTo({ featureKey: 'archive' })).toMatchObject({ isEntitled: false, justification: 'BUNDLE_EXPIRED' });
    expect(checks.isEntitledTo({ featureKey: 'nope' })).toMatchObject({ isEntitled: false, justification: 'MISSING_FEATURE' });
  });

  it('checks a permission: missing from the list is MISSING_PERMISSION, no linked feature is entitled, a linked feature decides', async () => {
    const { loader } = setup(() => json(entitlementsFixture));
    await loader.load('u1\nt1');
    const checks = loader.loaded()!;
    expect(checks.isEntitledTo({ permissionKey: 'fe.users.delete' })).toMatchObject({ isEntitled: false, justification: 'MISSING_PERMISSION' });
    expect(checks.isEntitledTo({ permissionKey: 'fe.profile.read' })).toMatchObject({ isEntitled: true });
    expect(checks.isEntitledTo({ permissionKey: 'fe.reports.read' })).toMatchObject({ isEntitled: true });
    expect(checks.isEntitledTo({ permissionKey: 'fe.archive.read' })).toMatchObject({ isEntitled: false, justification: 'BUNDLE_EXPIRED' });
  });

  it("reads the access token's claims as jwt.* attributes: a flag rule on jwt.email decides by the current token", async () => {
    const { loader, setToken } = setup(() => json(entitlementsFixture));
    await loader.load('u1\nt1');
    expect(loader.loaded()!.isEntitledTo({ featureKey: 'beta' })).toMatchObject({ isEntitled: true });
    setToken(jwt({ sub: 'u1', email: 'ada@elsewhere.org' }));
    expect(loader.loaded()!.isEntitledTo({ featureKey: 'beta' })).toMatchObject({ isEntitled: false, justification: 'MISSING_FEATURE' });
  });

  it('passes custom attributes to the rules', async () => {
    const byPlanTier = {
      ...entitlementsFixture,
      features: { ...entitlementsFixture.features, gold: { planIds: [], expireTime: null, linkedPermissions: [], featureFlag: {
        on: true, offTreatment: 'false', defaultTreatment: 'false',
        rules: [{ conditionLogic: 'and', treatment: 'true', conditions: [{ attribute: 'seats', op: 'greater_than_equal', value: { number: 10 }, negate: false }] }],
      } } },
    };
    const { loader } = setup(() => json(byPlanTier));
    await loader.load('u1\nt1');
    expect(loader.loaded()!.isEntitledTo({ featureKey: 'gold' }, { seats: 12 })).toMatchObject({ isEntitled: true });
    expect(loader.loaded()!.isEntitledTo({ featureKey: 'gold' }, { seats: 3 })).toMatchObject({ isEntitled: false });
  });

  it('adds the explanation only when asked: which source decided', async () => {
    const { loader } = setup(() => json(entitlementsFixture));
    await loader.load('u1\nt1');
    const checks = loader.loaded()!;
    expect(checks.isEntitledTo({ featureKey: 'reports' }).explanation).toBeUndefined();
    const direct = checks.isEntitledTo({ featureKey: 'reports' }, undefined, { explain: true });
    expect(direct.explanation?.length).toBeGreaterThan(0);
    expect(direct.explanation).toEqual(expect.arrayContaining([expect.objectContaining({ source: 'direct', featureKey: 'reports' })]));
    const flag = checks.isEntitledTo({ featureKey: 'beta' }, undefined, { explain: true });
    expect(flag.explanation).toEqual(expect.arrayContaining([expect.objectContaining({ source: 'feature-flag', ruleIndex: 0 })]));
  });

  it('refuses a check that names neither a feature nor a permission, with a sentence saying what it needs', async () => {
    const { loader } = setup(() => json(entitlementsFixture));
    await loader.load('u1\nt1');
    expect(() => loader.loaded()!.isEntitledTo({} as never)).toThrow('isEntitledTo needs { featureKey } or { permissionKey }');
    expect(() => loader.loaded()!.isEntitledTo(null as never)).toThrow(TypeError);
  });

  it('ignores a failed load (seed: entitlement load failures are ignored) and keeps the last good value of the same caller', async () => {
    const { stub, loader } = setup([() => json(entitlementsFixture), () => json({ errors: ['boom'] }, { status: 500 }), () => new Response('not json', { status: 200 })]);
    await loader.load('u1\nt1');
    await expect(loader.load('u1\nt1')).resolves.toBeUndefined();
    expect(loader.loaded()!.get()).toEqual({ ...entitlementsFixture, planId: null });
    await loader.load('u1\nt1');
    expect(stub.callsTo(GET_ENTITLEMENTS)).toHaveLength(3);
    expect(loader.loaded()!.isEntitledTo({ featureKey: 'reports' })).toMatchObject({ isEntitled: true });
  });

  it("drops the previous caller's value at once when the user or tenant changes, even if the new load fails", async () => {
    const { loader } = setup([() => json(entitlementsFixture), () => json({ errors: ['down'] }, { status: 503 })]);
    await loader.load('u1\nt1');
    await loader.load('u1\nt2');
    expect(loader.loaded()).toBeNull();
  });

  it('keeps the newest answer when an older load finishes last', async () => {
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((r) => (releaseFirst = r));
    const newer = { ...entitlementsFixture, permissions: { 'fe.newer': true } };
    const { loader } = setup([async () => (await firstHeld, json(entitlementsFixture)), () => json(newer)]);
    const first = loader.load('u1\nt1');
    await loader.load('u1\nt1');
    releaseFirst();
    await first;
    expect(loader.loaded()!.get().permissions).toEqual({ 'fe.newer': true });
  });

  it('forgets everything on clear (sign-out), and an answer still in flight does not bring it back', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const { loader } = setup([() => json(entitlementsFixture), async () => (await held, json(entitlementsFixture))]);
    await loader.load('u1\nt1');
    const late = loader.load('u1\nt1');
    loader.clear();
    expect(loader.loaded()).toBeNull();
    release();
    await late;
    expect(loader.loaded()).toBeNull();
  });

  it('accepts only an entitlements shape: anything else is ignored like a failure', () => {
    expect(toEntitlementsContext(entitlementsFixture)).toEqual({ ...entitlementsFixture, planId: null });
    // The tenant's plan is kept (a plan gate reads it); anything but a string is no plan.
    expect(toEntitlementsContext({ ...entitlementsFixture, planId: 'plan_premium' })?.planId).toBe('plan_premium');
    expect(toEntitlementsContext({ ...entitlementsFixture, planId: { id: 'x' } })?.planId).toBeNull();
    expect(toEntitlementsContext(null)).toBeNull();
    expect(toEntitlementsContext([])).toBeNull();
    expect(toEntitlementsContext({ features: {}, plans: {} })).toBeNull();
    expect(toEntitlementsContext({ features: { a: { planIds: [], expireTime: 'soon', linkedPermissions: [] } }, plans: {}, permissions: {} })).toBeNull();
    expect(toEntitlementsContext({ features: { a: { planIds: [], expireTime: -1 } }, plans: {}, permissions: {} })).toBeNull();
  });

  it('decodes the claims of a base64url token, UTF-8 included, and gives {} for anything that is not one', () => {
    expect(accessTokenClaims(jwt({ name: 'Zoë Ünal', tenantId: 't1', roles: ['a'] }))).toEqual({ name: 'Zoë Ünal', tenantId: 't1', roles: ['a'] });
    expect(accessTokenClaims(null)).toEqual({});
    expect(accessTokenClaims('opaque')).toEqual({});
    expect(accessTokenClaims('a.%%%.c')).toEqual({});
    expect(accessTokenClaims(`e30.${base64url('[1,2]')}.s`)).toEqual({});
  });
});
