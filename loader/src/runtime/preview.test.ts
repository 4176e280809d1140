import { expect, it, vi } from 'vitest';
import type { BootContext } from '../types';
import { defaultRoutes } from '@gatehouse/shared';
import { createPreview, PREVIEW_LOGIN_ROUTE, SIGNED_OUT_DEFAULTS } from './preview';

const boot = (routes?: Record<string, string>): BootContext =>
  ({ name: 'default', options: { contextOptions: { baseUrl: 'https://id.example.com' }, previewMode: true, authOptions: { routes } }, flags: {}, metadata: {}, session: null }) as unknown as BootContext;

it('starts signed in as the sample admin off the login route, with the preview flags forced on and no session mark', () => {
  const ctx = boot();
  const client = createPreview(ctx, 'https://id.example.com', '/dashboard', Date.UTC(2026, 1, 1));
  expect(ctx.session?.me.roles.map((r) => r.key)).toEqual(['Admin']);
  expect(ctx.flags['admin-portal-ip-restrictions']).toBe('on');
  expect(client.flags['admin-portal-temporary-users']).toBe('on');
  expect(Object.hasOwn(client, 'sessionHint') && client.sessionHint === undefined).toBe(true);
});

it("shows the login box at the static route /account/login, whatever the host's login routes say, signed out there", async () => {
  const ctx = boot({ loginUrl: '/signin', customLoginUrl: '/my-login', signUpUrl: '/join' });
  const client = createPreview(ctx, 'https://id.example.com', PREVIEW_LOGIN_ROUTE);
  expect(PREVIEW_LOGIN_ROUTE).toBe('/account/login');
  expect(client.routes).toEqual({ loginUrl: '/account/login', signUpUrl: '/join' });
  expect(ctx.session).toBeNull();
  const network = vi.spyOn(globalThis, 'fetch');
  const me = await client.fetch('https://id.example.com/identity/resources/users/v2/me');
  expect(me.status).toBe(401);
  expect(network).not.toHaveBeenCalled();
  network.mockRestore();
});

it("starts signed out on the sign-up and forgotten-password pages too (the host's or the default routes), so a visitor opening one directly can use it", async () => {
  for (const [routes, path] of [[undefined, '/account/sign-up'], [undefined, '/account/forget-password'], [{ signUpUrl: '/join' }, '/join']] as const) {
    const ctx = boot(routes);
    const client = createPreview(ctx, 'https://id.example.com', path);
    expect(ctx.session).toBeNull();
    expect((await client.fetch('https://id.example.com/identity/resources/users/v2/me')).status).toBe(401);
  }
  // Off them, and on a default route the host moved elsewhere, the page starts signed in.
  const moved = boot({ signUpUrl: '/join' });
  createPreview(moved, 'https://id.example.com', '/account/sign-up');
  expect(moved.session).not.toBeNull();
  expect(SIGNED_OUT_DEFAULTS).toEqual({ signUpUrl: defaultRoutes.signUpUrl, forgetPasswordUrl: defaultRoutes.forgetPasswordUrl });
});
