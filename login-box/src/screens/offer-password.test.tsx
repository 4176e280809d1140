/**
 * suggestSavePassword (seed 000 section 1, native mobile bridge) from the login box's password step,
 * over the real store: an app on iOS or Android that reports support is offered the email and
 * password once the server accepted them (also when a second factor follows); a refused password,
 * an app without support, or a page off iOS and Android gets nothing.
 */
import { fireEvent, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { autoCleanup, json, mountLoginBox, sampleMe, type Routes } from '../test/harness';

const LOGIN = 'POST /identity/resources/auth/v1/user';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36';
const signedIn = () => json({ accessToken: 'tok', expiresIn: 300, expires: '', mfaRequired: false, tenantId: 't1', userId: 'u1' });
const type = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });

autoCleanup();
beforeEach(() => window.sessionStorage.clear());
afterEach(() => {
  vi.unstubAllGlobals();
  delete (window.navigator as { userAgent?: string }).userAgent;
});

/** The page runs on `agent` inside an app whose bridge reports `supported`; what it posts (iOS) lands in the list. */
function app(supported: Record<string, boolean>, agent = IPHONE) {
  const messages: unknown[] = [];
  Object.defineProperty(window.navigator, 'userAgent', { value: agent, configurable: true });
  vi.stubGlobal('GatehouseNativeBridgeFunctions', supported);
  vi.stubGlobal('webkit', { messageHandlers: { GatehouseNativeBridge: { postMessage: (m: string) => messages.push(JSON.parse(m)) } } });
  return messages;
}

async function signIn(login: Routes[string], password = 'correct horse battery') {
  const box = await mountLoginBox('/account/login', { [LOGIN]: login }, { me: sampleMe });
  type(box.view.getByLabelText('Email'), 'ada@example.com');
  fireEvent.click(box.view.getByRole('button', { name: 'Continue' }));
  type(await box.view.findByLabelText('Password'), password);
  fireEvent.click(box.view.getByRole('button', { name: 'Sign in' }));
  return box;
}

/** The bridge's chunk is imported on demand: let a pending import settle before looking for what was (not) sent. */
async function settled() {
  await import('@gatehouse/shared/native-bridge');
  await new Promise((resolve) => setTimeout(resolve, 0));
}

describe('suggestSavePassword after a password sign-in', () => {
  it('an iOS app that supports it is offered the email and password the server accepted', async () => {
    const messages = app({ suggestSavePassword: true });
    const { store } = await signIn(signedIn);
    await waitFor(() => expect(messages).toEqual([{ action: 'suggestSavePassword', data: JSON.stringify({ email: 'ada@example.com', password: 'correct horse battery' }) }]));
    expect(store.getSnapshot().isAuthenticated).toBe(true);
  });

  it('an Android app gets it through its own function, also when a second factor follows', async () => {
    const sent: string[] = [];
    app({ suggestSavePassword: true }, ANDROID);
    vi.stubGlobal('GatehouseNativeBridge', { suggestSavePassword: (data: string) => sent.push(data) });
    const { store } = await signIn(() => json({ accessToken: '', expiresIn: 0, expires: '', mfaRequired: true, mfaToken: 'm1' }), 'pw-1');
    await waitFor(() => expect(sent.map((d) => JSON.parse(d))).toEqual([{ email: 'ada@example.com', password: 'pw-1' }]));
    expect(store.getSnapshot().login.step).toBe('loginWithTwoFactor');
  });

  it('a refused password is never offered', async () => {
    const messages = app({ suggestSavePassword: true });
    const { view } = await signIn(() => json({ errors: ['Invalid email or password'] }, 401), 'wrong');
    expect((await view.findByRole('alert')).textContent).toBe('Invalid email or password');
    await settled();
    expect(messages).toEqual([]);
  });

  it('nothing is sent when the app does not report support, or off iOS and Android', async () => {
    const unsupported = app({ loginWithSSO: true });
    const first = await signIn(signedIn);
    await waitFor(() => expect(first.store.getSnapshot().isAuthenticated).toBe(true));
    await settled();
    expect(unsupported).toEqual([]);
    await first.unmount();

    const desktop = app({ suggestSavePassword: true }, 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36');
    const second = await signIn(signedIn);
    await waitFor(() => expect(second.store.getSnapshot().isAuthenticated).toBe(true));
    await settled();
    expect(desktop).toEqual([]);
  });
});
