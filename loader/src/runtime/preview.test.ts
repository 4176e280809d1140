import { expect, it, vi } from 'vitest';
import { createPreview, PREVIEW_LOGIN_ROUTE } from './preview';

it('starts signed in as the sample admin off the login route, with the preview flags forced on', () => {
  const preview = createPreview('https://id.example.com', undefined, '/dashboard', Date.UTC(2026, 1, 1));
  expect(preview.session?.me.roles.map((r) => r.key)).toEqual(['Admin']);
  expect(preview.flags['admin-portal-ip-restrictions']).toBe('on');
  expect(preview.flags['admin-portal-temporary-users']).toBe('on');
});

it("shows the login box at the static route /account/login, whatever the host's login routes say, signed out there", async () => {
  const preview = createPreview('https://id.example.com', { loginUrl: '/signin', customLoginUrl: '/my-login', signUpUrl: '/join' }, PREVIEW_LOGIN_ROUTE);
  expect(PREVIEW_LOGIN_ROUTE).toBe('/account/login');
  expect(preview.routes).toEqual({ loginUrl: '/account/login', signUpUrl: '/join' });
  expect(preview.session).toBeNull();
  const network = vi.spyOn(globalThis, 'fetch');
  const me = await preview.fetch('https://id.example.com/identity/resources/users/v2/me');
  expect(me.status).toBe(401);
  expect(network).not.toHaveBeenCalled();
  network.mockRestore();
});
