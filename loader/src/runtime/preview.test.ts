import { expect, it, vi } from 'vitest';
import type { BootContext } from '../types';
import { createPreview, PREVIEW_LOGIN_ROUTE } from './preview';

const boot = (routes?: Record<string, string>): BootContext =>
  ({ name: 'default', options: { contextOptions: { baseUrl: 'https://id.example.com' }, previewMode: true, authOptions: { routes } }, flags: {}, metadata: {}, session: null }) as unknown as BootContext;

it('starts signed in as the sample admin off the login route, with the preview flags forced on and no session mark', () => {
  const preview = createPreview(boot(), 'https://id.example.com', '/dashboard', Date.UTC(2026, 1, 1));
  expect(preview.ctx.session?.me.roles.map((r) => r.key)).toEqual(['Admin']);
  expect(preview.ctx.flags['admin-portal-ip-restrictions']).toBe('on');
  expect(preview.client.flags['admin-portal-temporary-users']).toBe('on');
  expect(Object.hasOwn(preview.client, 'sessionHint') && preview.client.sessionHint === undefined).toBe(true);
});

it("shows the login box at the static route /account/login, whatever the host's login routes say, signed out there", async () => {
  const preview = createPreview(boot({ loginUrl: '/signin', customLoginUrl: '/my-login', signUpUrl: '/join' }), 'https://id.example.com', PREVIEW_LOGIN_ROUTE);
  expect(PREVIEW_LOGIN_ROUTE).toBe('/account/login');
  expect(preview.client.routes).toEqual({ loginUrl: '/account/login', signUpUrl: '/join' });
  expect(preview.ctx.session).toBeNull();
  const network = vi.spyOn(globalThis, 'fetch');
  const me = await preview.client.fetch('https://id.example.com/identity/resources/users/v2/me');
  expect(me.status).toBe(401);
  expect(network).not.toHaveBeenCalled();
  network.mockRestore();
});
