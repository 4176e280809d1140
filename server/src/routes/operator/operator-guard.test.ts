/**
 * The guard walk of the Operator area (issue 13), over every route the server publishes under an
 * `operator: ` tag (this area's, and the billing area's billing configuration). For each:
 * - an unauthenticated call is 401;
 * - a tenant admin holding every permission of their tenant is 403 ER-04001;
 * - API tokens never act as an operator, not even a super user's own (401 or 403);
 * - after all of that nothing changed;
 * - a super user passes.
 */
import { ApiTokenPaths, ApplicationPaths, OAuthPaths, OperatorPaths } from '@gatehouse/shared/wire';
import { rmSync } from 'node:fs';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { GatehouseServer } from '../../app';
import { callAs, pathOf, superUser, tenantWithAdmin, type TenantAdmin } from '../../test/admin-helpers';
import { cdnDirWith, versionUpload, writeVersion } from '../../test/cdn-fixture';
import { call, describeDialects } from '../../test/harness';

interface Ids {
  planId: string;
  featureId: string;
  featureKey: string;
  tenantId: string;
  flagId: string;
  grantId: string;
  clientId: string;
  /** A vendor application (issue 15). */
  appId: string;
}

interface Endpoint {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  template: string;
  body?: (ids: Ids) => unknown;
  /** What the super user gets. */
  superStatus: number;
}

const fresh = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}`;

/** Every operator route, in an order the super user can run them one after the other (deletes last). */
const ENDPOINTS: Endpoint[] = [
  { method: 'GET', template: OperatorPaths.plans, superStatus: 200 },
  { method: 'POST', template: OperatorPaths.plans, body: () => ({ name: 'Walk', slug: fresh('walk'), price: { amount: 500, currency: 'usd' } }), superStatus: 201 },
  { method: 'GET', template: OperatorPaths.plan, superStatus: 200 },
  { method: 'PATCH', template: OperatorPaths.plan, body: () => ({ name: 'Walked' }), superStatus: 200 },
  { method: 'GET', template: OperatorPaths.features, superStatus: 200 },
  { method: 'POST', template: OperatorPaths.features, body: () => ({ key: fresh('walk'), name: 'Walk' }), superStatus: 201 },
  { method: 'GET', template: OperatorPaths.feature, superStatus: 200 },
  { method: 'PATCH', template: OperatorPaths.feature, body: () => ({ name: 'Walked' }), superStatus: 200 },
  { method: 'GET', template: OperatorPaths.featureFlags, superStatus: 200 },
  { method: 'POST', template: OperatorPaths.featureFlags, body: () => ({ key: fresh('walk'), name: 'Walk', on: false }), superStatus: 201 },
  { method: 'GET', template: OperatorPaths.featureFlag, superStatus: 200 },
  { method: 'PATCH', template: OperatorPaths.featureFlag, body: () => ({ on: true }), superStatus: 200 },
  { method: 'GET', template: OperatorPaths.grants, superStatus: 200 },
  { method: 'POST', template: OperatorPaths.grants, body: (ids) => ({ featureKey: ids.featureKey, tenantId: ids.tenantId }), superStatus: 201 },
  { method: 'GET', template: OperatorPaths.grant, superStatus: 200 },
  { method: 'GET', template: OperatorPaths.applications, superStatus: 200 },
  { method: 'POST', template: OperatorPaths.applications, body: () => ({ clientId: fresh('walk'), redirectUris: ['https://walk.example.com/cb'] }), superStatus: 201 },
  { method: 'GET', template: OperatorPaths.application, superStatus: 200 },
  { method: 'PATCH', template: OperatorPaths.application, body: () => ({ name: 'Walked' }), superStatus: 200 },
  { method: 'POST', template: OperatorPaths.applicationSecret, superStatus: 200 },
  { method: 'GET', template: ApplicationPaths.applications, superStatus: 200 },
  { method: 'POST', template: ApplicationPaths.applications, body: () => ({ name: 'Walk', url: 'https://walk.example.com' }), superStatus: 201 },
  { method: 'GET', template: ApplicationPaths.application, superStatus: 200 },
  { method: 'PATCH', template: ApplicationPaths.application, body: () => ({ accessType: 'MANAGED_ACCESS' }), superStatus: 200 },
  { method: 'GET', template: OperatorPaths.billingConfiguration, superStatus: 200 },
  { method: 'PUT', template: OperatorPaths.billingConfiguration, body: () => ({ allowPlanDowngrade: true, allowPlanCancellation: true, trialEndOption: 'change_to_default', defaultPlanId: null }), superStatus: 200 },
  { method: 'GET', template: OperatorPaths.cdnVersions, superStatus: 200 },
  { method: 'POST', template: OperatorPaths.cdnPromote, body: () => ({ version: '1.1.0', percent: 10 }), superStatus: 200 },
  { method: 'DELETE', template: OperatorPaths.cdnCanary, superStatus: 204 },
  { method: 'POST', template: OperatorPaths.cdnPromote, body: (ids) => ({ version: '1.1.0', tenants: [ids.tenantId] }), superStatus: 200 },
  { method: 'DELETE', template: OperatorPaths.cdnPin, superStatus: 204 },
  { method: 'POST', template: OperatorPaths.cdnPromote, body: () => ({ version: '1.1.0' }), superStatus: 200 },
  { method: 'POST', template: OperatorPaths.cdnRollback, superStatus: 200 },
  { method: 'POST', template: OperatorPaths.cdnPrune, body: () => ({ keep: 5 }), superStatus: 200 },
  { method: 'POST', template: OperatorPaths.cdnPublish, body: () => versionUpload('login-box', '1.2.0'), superStatus: 201 },
  { method: 'DELETE', template: OperatorPaths.grant, superStatus: 204 },
  { method: 'DELETE', template: OperatorPaths.featureFlag, superStatus: 204 },
  { method: 'DELETE', template: OperatorPaths.feature, superStatus: 204 },
  { method: 'DELETE', template: OperatorPaths.plan, superStatus: 204 },
  { method: 'DELETE', template: OperatorPaths.application, superStatus: 204 },
  { method: 'DELETE', template: ApplicationPaths.application, superStatus: 204 },
];

const label = (e: Endpoint) => `${e.method} ${e.template}`;
const pathFor = (e: Endpoint, ids: Ids) => pathOf(e.template, { bundle: 'login-box', tenantId: ids.tenantId, appId: ids.appId, id: e.template.includes('/plans/') ? ids.planId : e.template.includes('/features/') ? ids.featureId : e.template.includes('/feature-flags/') ? ids.flagId : ids.grantId, clientId: ids.clientId });

describeDialects('operator guard walk', (h) => {
  let server: GatehouseServer;
  let root: TenantAdmin;
  let admin: TenantAdmin;
  let ids: Ids;
  let endpoints: Endpoint[];

  /** Every operator list, as the super user reads it: compared before and after the refused calls. */
  const snapshot = async () => Promise.all([OperatorPaths.plans, OperatorPaths.features, OperatorPaths.featureFlags, OperatorPaths.grants, OperatorPaths.applications, ApplicationPaths.applications, OperatorPaths.cdnVersions].map(async (p) => (await callAs(server, root, 'GET', p)).body));

  let cdnDir = '';
  afterEach(() => rmSync(cdnDir, { recursive: true, force: true }));

  beforeEach(async () => {
    // A CDN folder with a second login-box version the CDN routes can roll out.
    cdnDir = cdnDirWith({ 'login-box': '1.0.0' });
    writeVersion(cdnDir, 'login-box', '1.1.0');
    server = await h.start({ GATEHOUSE_CDN_DIR: cdnDir });
    root = await superUser(server);
    admin = await tenantWithAdmin(server);
    const made = await Promise.all([
      callAs(server, root, 'POST', OperatorPaths.plans, { body: { name: 'Secret', slug: fresh('secret'), price: { amount: 100, currency: 'usd' } } }),
      callAs(server, root, 'POST', OperatorPaths.features, { body: { key: fresh('secret'), name: 'Secret' } }),
      callAs(server, root, 'POST', OperatorPaths.featureFlags, { body: { key: fresh('secret'), name: 'Secret', on: false } }),
      callAs(server, root, 'POST', OperatorPaths.applications, { body: { clientId: fresh('secret'), redirectUris: ['https://secret.example.com/cb'], confidential: true } }),
      callAs(server, root, 'POST', ApplicationPaths.applications, { body: { name: 'Secret', url: 'https://secret.example.com' } }),
    ]);
    expect(made.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    const grant = await callAs(server, root, 'POST', OperatorPaths.grants, { body: { featureKey: made[1]!.body.key, tenantId: admin.tenantId } });
    expect(grant.status).toBe(201);
    ids = { planId: made[0]!.body.id, featureId: made[1]!.body.id, featureKey: made[1]!.body.key, tenantId: admin.tenantId, flagId: made[2]!.body.id, grantId: grant.body.id, clientId: made[3]!.body.clientId, appId: made[4]!.body.id };
    // The billing configuration's routes are the billing area's: walked once it publishes them.
    const doc = (await call(server, 'GET', '/openapi.json')).body as { paths: Record<string, unknown> };
    endpoints = ENDPOINTS.filter((e) => e.template !== OperatorPaths.billingConfiguration || OperatorPaths.billingConfiguration in doc.paths);
  });

  it('walks every operator route the server publishes', async () => {
    const doc = (await call(server, 'GET', '/openapi.json')).body as { paths: Record<string, Record<string, { tags?: string[]; security?: unknown[] }>> };
    const published = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, op]) => op.tags?.some((t) => t.startsWith('operator: ')))
        .map(([method, op]) => {
          expect(op.security, `${method} ${path} declares its bearer security`).toEqual([{ Bearer: [] }]);
          return `${method.toUpperCase()} ${path}`;
        }),
    );
    expect(published.sort()).toEqual([...new Set(endpoints.map(label))].sort());
  });

  it('answers 401 without a session, 403 ER-04001 to a tenant admin with every permission, and refuses API tokens, even a super user\'s, changing nothing', async () => {
    const tenantToken = await callAs(server, root, 'POST', ApiTokenPaths.tenantApiTokens, { body: { description: 'operator?', roleIds: [] } });
    const exchanged = await call(server, 'POST', OAuthPaths.token, { rawBody: new URLSearchParams({ grant_type: 'client_credentials', client_id: tenantToken.body.clientId, client_secret: tenantToken.body.secret }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    const personal = await callAs(server, root, 'POST', ApiTokenPaths.userAccessTokens, { body: { description: 'operator?' } });
    expect([tenantToken.status, exchanged.status, personal.status]).toEqual([201, 200, 201]);
    const tokens = [{ accessToken: exchanged.body.access_token as string }, { accessToken: personal.body.secret as string }];

    const before = await snapshot();
    for (const endpoint of endpoints) {
      const opts = endpoint.body ? { body: endpoint.body(ids) } : {};
      const path = pathFor(endpoint, ids);
      expect((await call(server, endpoint.method, path, opts)).status, `${label(endpoint)} without a session`).toBe(401);
      const asAdmin = await callAs(server, admin, endpoint.method, path, opts);
      expect([asAdmin.status, asAdmin.body.errorCode], `${label(endpoint)} as a tenant admin`).toEqual([403, 'ER-04001']);
      for (const token of tokens) expect([401, 403], `${label(endpoint)} with an API token`).toContain((await callAs(server, token, endpoint.method, path, opts)).status);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('lets a super user call every operator route', async () => {
    for (const endpoint of endpoints) {
      const res = await callAs(server, root, endpoint.method, pathFor(endpoint, ids), endpoint.body ? { body: endpoint.body(ids) } : {});
      expect(res.status, `${label(endpoint)}: ${JSON.stringify(res.body)}`).toBe(endpoint.superStatus);
    }
  });
});
