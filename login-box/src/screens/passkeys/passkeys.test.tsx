import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PASSKEYS_DONT_SHOW_AGAIN_KEY } from '@gatehouse/shared';
import { autoCleanup, json, renderLoginBox, sampleMe, type Routes } from '../../test/harness';

// The real ceremony needs a browser with WebAuthn (covered by e2e/passkeys.e2e.test.ts); here the
// screens' wiring is under test, so the lazily loaded ceremony module is replaced.
const ceremonies = vi.hoisted(() => ({
  passkeyLogin: vi.fn(async (options: unknown) => ({ id: 'c1', rawId: 'c1', type: 'public-key', response: { clientDataJSON: 'a', authenticatorData: 'b', signature: 'c' }, clientExtensionResults: {}, options })),
  passkeyRegistration: vi.fn(async (options: unknown) => ({ id: 'c1', rawId: 'c1', type: 'public-key', response: { clientDataJSON: 'a', attestationObject: 'b' }, clientExtensionResults: {}, options })),
}));
vi.mock('./ceremonies', () => ceremonies);

const P = {
  login: 'POST /identity/resources/auth/v1/user',
  me: 'GET /identity/resources/users/v2/me',
  vendor: 'GET /vendors/public',
  preLogin: 'POST /identity/resources/auth/v1/webauthn/prelogin',
  postLogin: 'POST /identity/resources/auth/v1/webauthn/postlogin',
  devices: 'GET /identity/resources/users/webauthn/v1/devices',
  registerOptions: 'POST /identity/resources/users/webauthn/v1/devices',
  registerVerify: 'POST /identity/resources/users/webauthn/v1/devices/verify',
};
const session = () => json({ accessToken: 'tok', expiresIn: 300, expires: '', mfaRequired: false });
const vendor = { allowSignUps: false, secondaryLoginStrategies: [{ strategy: 'Passkeys', isActive: true }] };
const device = { id: 'd1', name: null, deviceType: 'singleDevice', backedUp: false, transports: ['internal'], createdAt: '', lastUsedAt: null };

function memoryStorage() {
  const map = new Map<string, string>();
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k), clear: () => map.clear(), map };
}

let local = memoryStorage();
beforeEach(() => {
  local = memoryStorage();
  vi.stubGlobal('localStorage', local);
  // happy-dom has no WebAuthn; the button is shown only where the browser has it.
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
});
afterEach(() => {
  vi.unstubAllGlobals();
  ceremonies.passkeyLogin.mockClear();
  ceremonies.passkeyRegistration.mockClear();
});
// Registered last so it runs first: the login box is torn down before the globals are restored.
autoCleanup();

const setup = (routes: Routes) => renderLoginBox('/account/login', routes, { me: sampleMe, vendor, gatehouse: { storage: null, flags: { 'show-passkeys-new': 'on' } } });

describe('passkeys in the login box', () => {
  it('"Sign in with a passkey" runs the ceremony on the prelogin options and signs in without a password', async () => {
    const { store, calls, navigate } = setup({ [P.preLogin]: () => json({ options: { challenge: 'ch' } }), [P.postLogin]: session });
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/'));
    expect(ceremonies.passkeyLogin).toHaveBeenCalledWith({ challenge: 'ch' });
    expect(calls.find((c) => c.key === P.preLogin)?.body).toEqual({});
    expect(calls.some((c) => c.key === P.login)).toBe(false);
    expect(store.getSnapshot().isAuthenticated).toBe(true);
  });

  it('shows the server refusal and stays on the form', async () => {
    setup({ [P.preLogin]: () => json({ options: { challenge: 'ch' } }), [P.postLogin]: () => json({ errors: ['This passkey is not registered'] }, 401) });
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This passkey is not registered');
    expect(screen.getByRole('button', { name: 'Continue' })).toBeTruthy();
  });

  it('prompts after a password sign-in; "Add a passkey" registers one, then Continue navigates', async () => {
    const { store, calls, navigate } = setup({
      [P.login]: session,
      [P.devices]: () => json({ devices: [] }),
      [P.registerOptions]: () => json({ options: { challenge: 'reg' } }),
      [P.registerVerify]: () => json(device, 201),
    });
    await act(async () => {
      await store.preLogin('ada@example.com');
      await store.login({ email: 'ada@example.com', password: 'pw' });
    });
    expect(await screen.findByRole('heading', { name: 'Use a passkey next time' })).toBeTruthy();
    expect(navigate).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByRole('heading', { name: 'Passkey added' })).toBeTruthy();
    expect(ceremonies.passkeyRegistration).toHaveBeenCalledWith({ challenge: 'reg' });
    expect(calls.find((c) => c.key === P.registerVerify)?.body.credential.id).toBe('c1');
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(navigate).toHaveBeenCalledWith('/');
  });

  it('"Don\'t show again" is stored and navigates on', async () => {
    const { store, navigate } = setup({ [P.login]: session, [P.devices]: () => json({ devices: [] }) });
    await act(async () => {
      await store.preLogin('ada@example.com');
      await store.login({ email: 'ada@example.com', password: 'pw' });
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Don’t show again' }));
    expect(local.map.get(PASSKEYS_DONT_SHOW_AGAIN_KEY)).toBe('true');
    expect(navigate).toHaveBeenCalledWith('/');
  });
});
