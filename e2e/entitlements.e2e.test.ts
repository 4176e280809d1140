/**
 * Entitlements in the browser (issue 13 "The browser core") against the built server: an operator
 * (a user promoted with `users promote`) sets up features, a direct grant to a tenant and a feature
 * flag whose rule names the user through the operator API; the demo host page with
 * `entitlementsOptions: { enabled: true }` (`?entitlements=on`) answers `Gatehouse.getApp()`'s
 * getEntitlements, isEntitledTo (true, false, explain), getFeatureEntitlements and
 * getPermissionEntitlements from what loaded after sign-in, loads them again with a new token (a
 * grant made meanwhile shows), asks /flags with the caller's bearer token, and without the option
 * every method throws the error telling the host to enable it.
 */
import type { Page, Request } from 'playwright-core';
import { expect, it } from 'vitest';
import { ApiPaths, ENTITLEMENTS_DISABLED_MESSAGE, EntitlementPaths, OperatorPaths } from '@gatehouse/shared/wire';
import { linkIn, waitForMail } from './support/mailbox';
import { useBrowserAndServer, promoteSuperUser } from './support/server';
import { PASSWORD, signIn, visible } from './support/journey';

const env = useBrowserAndServer();

async function call<T>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const res = await fetch(`${env.server.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** An activated account (its own tenant), signed in through the HTTP API: its access token and tenant. */
async function account(email: string): Promise<{ token: string; tenantId: string; userId: string }> {
  await call('POST', ApiPaths.signUp, { email, password: PASSWORD, name: 'Ada Lovelace' });
  const link = new URL(linkIn(await waitForMail(env.server.url, email, /activate/i), '/account/activate'));
  await call('POST', ApiPaths.activate, { userId: link.searchParams.get('userId'), token: link.searchParams.get('token'), password: PASSWORD });
  const login = await call<{ accessToken: string; tenantId: string; userId: string }>('POST', ApiPaths.login, { email, password: PASSWORD });
  return { token: login.accessToken, tenantId: login.tenantId, userId: login.userId };
}

type App = {
  getEntitlements(): unknown;
  isEntitledTo(query: unknown, attributes?: unknown, options?: unknown): { isEntitled: boolean; justification?: string; explanation?: Array<Record<string, unknown>> };
  getFeatureEntitlements(key: string): { isEntitled: boolean; justification?: string };
  getPermissionEntitlements(key: string): { isEntitled: boolean; justification?: string };
  store: { loadSession(): Promise<void> };
};
/** Runs `fn` in the page with its `Gatehouse.getApp()` (a handle: the page's CSP allows no eval). */
async function withApp<T>(page: Page, fn: (app: App) => T | Promise<T>): Promise<T> {
  const app = await page.evaluateHandle(() => (globalThis as unknown as { Gatehouse: { getApp(): App } }).Gatehouse.getApp());
  try {
    return (await app.evaluate(fn)) as T;
  } finally {
    await app.dispose();
  }
}

it('answers entitlement checks in the browser from what loaded after sign-in, again with a new token; off, every method throws', async () => {
  const stamp = Date.now();
  const operatorEmail = `operator-${stamp}@example.com`;
  const email = `ent-user-${stamp}@example.com`;
  const operator = await account(operatorEmail);
  await promoteSuperUser(env.server, operatorEmail);
  const user = await account(email);

  // The operator's catalogue: reports (granted to the user's tenant), a flag granting the beta dashboard to this user only, and one
  // granting webhooks to someone else (so webhooks reaches this user's entitlements, not entitled, and its linked permission with it).
  await call('POST', OperatorPaths.features, { key: 'reports', name: 'Reports', linkedPermissions: ['fe.secure.read.audits'] }, operator.token);
  await call('POST', OperatorPaths.features, { key: 'webhooks', name: 'Webhooks', linkedPermissions: ['fe.connectivity.read.webhooks'] }, operator.token);
  await call('POST', OperatorPaths.features, { key: 'beta-dashboard', name: 'Beta dashboard' }, operator.token);
  await call('POST', OperatorPaths.features, { key: 'exports', name: 'Exports' }, operator.token);
  await call('POST', OperatorPaths.grants, { featureKey: 'reports', tenantId: user.tenantId }, operator.token);
  const rule = { conditionLogic: 'and', treatment: 'true', conditions: [{ attribute: 'frontegg.email', op: 'in_list', value: { list: [email] }, negate: false }] };
  await call('POST', OperatorPaths.featureFlags, { key: 'beta', name: 'Beta', on: true, offTreatment: 'false', defaultTreatment: 'false', rules: [rule], featureKeys: ['beta-dashboard'] }, operator.token);
  const elsewhere = { ...rule, conditions: [{ ...rule.conditions[0], value: { list: ['someone-else@example.com'] } }] };
  await call('POST', OperatorPaths.featureFlags, { key: 'webhooks-rollout', name: 'Webhooks rollout', on: true, offTreatment: 'false', defaultTreatment: 'false', rules: [elsewhere], featureKeys: ['webhooks'] }, operator.token);
  // What the server answers this user, the source the browser loads.
  const served = await call<{ features: Record<string, unknown> }>('GET', EntitlementPaths.userEntitlements, undefined, user.token);
  expect(Object.keys(served.features)).toEqual(expect.arrayContaining(['reports', 'beta-dashboard']));

  const context = await env.browser.newContext();
  const page = await context.newPage();
  const flagCalls: Request[] = [];
  const entitlementCalls: Request[] = [];
  const chunks: string[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    const chunk = /\/cdn\/runtime\/[^/]+\/assets\/(caller-data|entitlements)-[^/]+\.js$/.exec(path);
    if (chunk) chunks.push(chunk[1]!);
    if (path === ApiPaths.flags) flagCalls.push(r);
    if (path === EntitlementPaths.userEntitlements) entitlementCalls.push(r);
  });
  try {
    // Before sign-in nothing of entitlements is fetched.
    await page.goto(`${env.server.url}/account/login?entitlements=on`);
    expect(await withApp(page, (app) => app.getEntitlements())).toBeNull();
    expect(await withApp(page, (app) => app.isEntitledTo({ featureKey: 'reports' }))).toEqual({ isEntitled: false, justification: 'MISSING_FEATURE' });
    // The login form fetched none of their code: the runtime's chunks for it (listed with SRI in its lazy-files.json) come after sign-in.
    expect(chunks).toEqual([]);
    await signIn(page, email, PASSWORD);
    await visible(page, page.getByTestId('signed-in-user'));
    await page.waitForFunction(() => (globalThis as unknown as { Gatehouse: { getApp(): { getEntitlements(): unknown } } }).Gatehouse.getApp().getEntitlements() !== null);
    expect(entitlementCalls.length).toBeGreaterThanOrEqual(1);
    expect(chunks.sort()).toEqual(['caller-data', 'entitlements']);
    for (const r of entitlementCalls) expect(r.headers().authorization).toMatch(/^Bearer /);

    const loaded = (await withApp(page, (app) => app.getEntitlements())) as { features: Record<string, unknown>; permissions: Record<string, true> };
    expect(Object.keys(loaded.features)).toEqual(expect.arrayContaining(['reports', 'beta-dashboard', 'webhooks']));
    expect(loaded.features).not.toHaveProperty('exports');
    expect(loaded.permissions).toMatchObject({ 'fe.secure.read.audits': true, 'fe.connectivity.read.webhooks': true });

    expect(await withApp(page, (app) => app.isEntitledTo({ featureKey: 'reports' }))).toEqual({ isEntitled: true });
    expect(await withApp(page, (app) => app.isEntitledTo({ featureKey: 'webhooks' }))).toMatchObject({ isEntitled: false, justification: 'MISSING_FEATURE' });
    expect(await withApp(page, (app) => app.getFeatureEntitlements('beta-dashboard'))).toMatchObject({ isEntitled: true });
    expect(await withApp(page, (app) => app.getPermissionEntitlements('fe.secure.read.audits'))).toMatchObject({ isEntitled: true });
    expect(await withApp(page, (app) => app.getPermissionEntitlements('fe.connectivity.read.webhooks'))).toMatchObject({ isEntitled: false, justification: 'MISSING_FEATURE' });
    expect(await withApp(page, (app) => app.getPermissionEntitlements('fe.no.such.permission'))).toMatchObject({ isEntitled: false, justification: 'MISSING_PERMISSION' });

    // explain: which source decided.
    const direct = await withApp(page, (app) => app.isEntitledTo({ featureKey: 'reports' }, undefined, { explain: true }));
    expect(direct.isEntitled).toBe(true);
    expect(direct.explanation).toEqual(expect.arrayContaining([expect.objectContaining({ source: 'direct', featureKey: 'reports' })]));
    const byFlag = await withApp(page, (app) => app.isEntitledTo({ featureKey: 'beta-dashboard' }, undefined, { explain: true }));
    expect(byFlag.explanation).toEqual(expect.arrayContaining([expect.objectContaining({ source: 'feature-flag', ruleIndex: 0 })]));
    const notEntitled = await withApp(page, (app) => app.isEntitledTo({ featureKey: 'webhooks' }, undefined, { explain: true }));
    expect(notEntitled).toMatchObject({ isEntitled: false, justification: 'MISSING_FEATURE' });
    expect(notEntitled.explanation?.length).toBeGreaterThan(0);

    // The caller's flags: /flags asked again with the bearer token after sign-in, answering the flag that targets this user.
    const bearerFlags = flagCalls.filter((r) => r.headers().authorization?.startsWith('Bearer '));
    expect(bearerFlags.length).toBeGreaterThanOrEqual(1);
    const flagsAnswer = await (await bearerFlags.at(-1)!.response())!.json();
    expect(flagsAnswer).toMatchObject({ beta: 'on' });

    // A grant made now shows with the next token (a refresh), not before.
    await call('POST', OperatorPaths.grants, { featureKey: 'exports', tenantId: user.tenantId, userId: user.userId }, operator.token);
    expect(await withApp(page, (app) => app.isEntitledTo({ featureKey: 'exports' }))).toMatchObject({ isEntitled: false });
    const before = entitlementCalls.length;
    await withApp(page, (app) => app.store.loadSession());
    await page.waitForFunction(
      () => (globalThis as unknown as { Gatehouse: { getApp(): { isEntitledTo(q: unknown): { isEntitled: boolean } } } }).Gatehouse.getApp().isEntitledTo({ featureKey: 'exports' }).isEntitled,
    );
    expect(entitlementCalls.length).toBeGreaterThan(before);

    // The same signed-in browser on a host page without the option: every method throws the error.
    const plain = await context.newPage();
    await plain.goto(`${env.server.url}/`);
    await visible(plain, plain.getByTestId('signed-in-user'));
    const errors = await withApp(plain, (app) =>
      [() => app.getEntitlements(), () => app.isEntitledTo({ featureKey: 'reports' }), () => app.getFeatureEntitlements('reports'), () => app.getPermissionEntitlements('fe.secure.read.audits')].map((f) => {
        try {
          f();
          return 'no error';
        } catch (error) {
          return (error as Error).message;
        }
      }),
    );
    expect(errors).toEqual(Array(4).fill(ENTITLEMENTS_DISABLED_MESSAGE));
  } finally {
    await context.close();
  }
});
