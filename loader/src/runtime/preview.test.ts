import { expect, it, vi } from 'vitest';
import type { BootContext } from '../types';
import { createPreview, PREVIEW_LOGIN_ROUTE } from './preview';

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
