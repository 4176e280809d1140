import { afterEach, describe, expect, it } from 'vitest';
import { json } from '../../../shared/src/testing/fetch-stub';
import { createGatehouseClient } from './client.js';
import { createTestApp, login, me, ME, REFRESH, SWITCH, type TestApp } from './test/loader-app.js';
import type { LoaderApp } from './types.js';

const apps: TestApp[] = [];
afterEach(() => apps.splice(0).forEach((a) => a.store.dispose()));
const track = (app: TestApp) => (apps.push(app), app);
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('createGatehouseClient', () => {
  it('fetches the caller flags once per access token, again after a tenant switch gives a new one', async () => {
    const app = track(createTestApp({ routes: { [SWITCH]: () => json({}), [REFRESH]: () => json(login('t2')), [ME]: () => json(me({ tenantId: 't2' })) } }));
    const asked: Array<string | null> = [];
    const client = createGatehouseClient({
      connect: async () => app,
      fetchFlags: async (_app, token) => {
        asked.push(token);
        return { 'new-editor': token === asked[0] ? 'off' : 'on' };
      },
    });
    const app2 = await client.whenReady();
    await settle();
    expect(asked).toEqual([app.store.getAccessToken()]);
    expect(client.getSnapshot().flags).toEqual({ 'new-editor': 'off' });
    // An unrelated store change (an MFA step) asks nothing new.
    app.store.setMfaStep('verify');
    await settle();
    expect(asked).toHaveLength(1);

    await (app2 as LoaderApp).store!.switchTenant('t2');
    await settle();
    expect(asked).toHaveLength(2);
    expect(asked[1]).toBe(app.store.getAccessToken());
    expect(asked[1]).not.toBe(asked[0]);
    expect(client.getSnapshot().flags).toEqual({ 'new-editor': 'on' });
    expect(client.getSnapshot().auth.user?.tenantId).toBe('t2');
  });

  it('drops a flag answer that arrives after the token it was for has changed', async () => {
    const app = track(createTestApp({ routes: { [SWITCH]: () => json({}), [REFRESH]: () => json(login('t2')), [ME]: () => json(me({ tenantId: 't2' })) } }));
    const answers: Array<(flags: Record<string, string>) => void> = [];
    const client = createGatehouseClient({ connect: async () => app, fetchFlags: () => new Promise((resolve) => answers.push(resolve)) });
    await client.whenReady();
    await app.store.switchTenant('t2');
    await settle();
    expect(answers).toHaveLength(2);
    answers[1]!({ beta: 'on' });
    await settle();
    answers[0]!({ beta: 'off' }); // late answer for the first tenant's token
    await settle();
    expect(client.getSnapshot().flags).toEqual({ beta: 'on' });
  });

  it('a loader that cannot be reached ends loading in an error state, signed out, and tells its subscribers', async () => {
    const client = createGatehouseClient({ connect: () => Promise.reject(new Error('Failed to load the Gatehouse loader')) });
    let told = 0;
    client.subscribe(() => (told += 1));
    expect(client.getSnapshot()).toMatchObject({ status: 'loading', auth: { isLoading: true } });
    await expect(client.whenReady()).rejects.toThrow('Failed to load the Gatehouse loader');
    expect(client.getSnapshot()).toMatchObject({ status: 'error', error: { message: 'Failed to load the Gatehouse loader' }, auth: { isLoading: false, isAuthenticated: false, user: null } });
    expect(told).toBe(1);
  });

  it('keeps the server snapshot signed out and loading, whatever the browser state', async () => {
    const app = track(createTestApp());
    const client = createGatehouseClient({ connect: async () => app, fetchFlags: async () => ({}) });
    await client.whenReady();
    expect(client.getSnapshot().auth.isAuthenticated).toBe(true);
    expect(client.getServerSnapshot()).toMatchObject({ status: 'loading', auth: { isLoading: true, isAuthenticated: false, user: null }, entitlements: null });
  });
});
