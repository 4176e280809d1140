import { describe, expect, it, vi } from 'vitest';
import { createGatehouseStore } from '../store';
import type { GatehouseApi } from '../../core/types';
import type { LoginResponse } from '../../wire';

const signedIn: LoginResponse = { accessToken: 'at', expiresIn: 300, expires: '', mfaRequired: false, userId: 'u1' };
const me = { id: 'u1', email: 'ada@example.com', name: 'Ada', tenantId: 't1', tenantIds: ['t1'], roles: [], permissions: [], verified: true } as never;

function setup(loginResponses: LoginResponse[]) {
  const navigate = vi.fn();
  const timers: Array<{ ms: number; fn: () => void }> = [];
  const request = vi.fn(async () => ({}));
  const api = {
    request,
    login: vi.fn(async () => loginResponses.shift()!),
    me: vi.fn(async () => me),
    refresh: vi.fn(async () => signedIn),
  } as unknown as GatehouseApi;
  const store = createGatehouseStore({
    api,
    routes: { loginUrl: '/account/login', authenticatedUrl: '/', logoutUrl: '/account/logout', activateUrl: '/account/activate' } as never,
    navigate,
    storage: null,
    timers: { setTimeout: (fn: () => void, ms: number) => (timers.push({ ms, fn }), timers.length), clearTimeout: () => undefined } as never,
  });
  return { store, api, request, navigate, timers };
}

describe('password policies flow', () => {
  it('an expired password shows passwordRotationExpired; the new password is set with the token, then it signs in', async () => {
    const { store, request, navigate } = setup([
      { ...signedIn, accessToken: '', resetPasswordToken: 'rt', passwordRotation: { expired: true, daysToExpiry: 0 } },
      signedIn,
    ]);
    await store.login({ email: 'ada@example.com', password: 'old' });
    expect(store.getSnapshot().login.step).toBe('passwordRotationExpired');
    expect(store.getSnapshot().isAuthenticated).toBe(false);
    expect(JSON.stringify(store.getSnapshot())).not.toContain('rt');
    await store.setRotatedPassword('new passphrase');
    expect(request).toHaveBeenCalledWith('POST', '/identity/resources/users/v1/passwords/reset/verify', { body: { userId: 'u1', token: 'rt', password: 'new passphrase' } });
    expect(store.getSnapshot().isAuthenticated).toBe(true);
    expect(navigate).toHaveBeenCalledWith('/');
  });

  it('a rotation notice signs in first and waits on passwordRotationNotification until Continue', async () => {
    const { store, navigate } = setup([{ ...signedIn, passwordRotation: { expired: false, daysToExpiry: 3 } }]);
    await store.login({ email: 'ada@example.com', password: 'pw' });
    expect(store.getSnapshot().login).toMatchObject({ step: 'passwordRotationNotification', passwordExpiresInDays: 3 });
    expect(store.getSnapshot().isAuthenticated).toBe(true);
    expect(navigate).not.toHaveBeenCalled();
    await store.continueAfterRotationNotice();
    expect(navigate).toHaveBeenCalledWith('/');
  });

  it('a breached password shows breachedPassword; the reset email leads to breachedPasswordSuccess', async () => {
    const { store, request } = setup([{ ...signedIn, accessToken: '', isBreachedPassword: true }]);
    await store.login({ email: 'ada@example.com', password: 'password' });
    expect(store.getSnapshot().login).toMatchObject({ step: 'breachedPassword', isBreachedPassword: true });
    await store.sendBreachedPasswordReset();
    expect(request).toHaveBeenCalledWith('POST', '/identity/resources/users/v2/passwords/reset/email', { body: { identifier: 'ada@example.com', identifierType: 'email' } });
    expect(store.getSnapshot().login.step).toBe('breachedPasswordSuccess');
  });

  it('unlock posts the token and goes to the login route after 5000 ms', async () => {
    const { store, request, navigate, timers } = setup([]);
    await store.unlockAccount('tok');
    expect(request).toHaveBeenCalledWith('POST', '/identity/resources/users/v3/me/unlock', { body: { token: 'tok' } });
    const timer = timers.find((t) => t.ms === 5000);
    expect(timer).toBeDefined();
    expect(navigate).not.toHaveBeenCalled();
    timer!.fn();
    expect(navigate).toHaveBeenCalledWith('/account/login');
  });
});
