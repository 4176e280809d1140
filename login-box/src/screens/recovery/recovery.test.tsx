import { act, fireEvent, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGatehouse, type ThemeTokens } from '@gatehouse/shared';
import { createParcel } from '../../mount';

const P = {
  strategies: 'GET /identity/resources/users/v1/passwords/recovery/strategies',
  sms: 'POST /identity/resources/users/v2/passwords/reset/sms',
  smsVerify: 'POST /identity/resources/users/v2/passwords/reset/sms/verify',
  verify: 'POST /identity/resources/users/v1/passwords/reset/verify',
  vendor: 'GET /vendors/public',
};
type Handler = (body: unknown) => Response;
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const vendor = { name: 'Acme', allowSignUps: true, loginStrategy: 'EmailAndPassword', signUpStrategies: { email: { enabled: true, required: true }, phoneNumber: { enabled: false, required: false } }, passwordConfig: { allowPassphrases: false, maxLength: 128, minLength: 8, minPhraseLength: 20, minOptionalTestsToPass: 0 } };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Mounts the real login box parcel at `path` into a shadow root, over a stubbed fetch. */
async function mountAt(path: string, routes: Record<string, Handler>) {
  window.history.replaceState({}, '', path);
  const calls: { key: string; body: unknown }[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const text = await request.text();
    const body = text ? JSON.parse(text) : undefined;
    const key = `${request.method} ${new URL(request.url).pathname}`;
    calls.push({ key, body });
    const handler = routes[key] ?? (key === P.vendor ? () => json(vendor) : undefined);
    return handler ? handler(body) : json({ errors: [`no route ${key}`] }, 404);
  }) as typeof globalThis.fetch;
  const navigate = vi.fn((url: string) => {
    window.history.pushState({}, '', url);
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  const gatehouse = createGatehouse({ baseUrl: 'http://api.test', clientId: 'c', fetch, navigate, getLocationSearch: () => '', retry: { delayMs: 1 } });
  const host = document.createElement('gatehouse-login-box');
  document.body.appendChild(host);
  const domElement = document.createElement('div');
  host.attachShadow({ mode: 'open' }).appendChild(domElement);
  const props = { name: 'recovery', domElement, store: gatehouse.store, api: gatehouse.api, routes: gatehouse.routes, options: { flags: {}, metadata: {} }, navigate, setThemeSetter: (_: (t: ThemeTokens) => void) => undefined };
  const parcel = createParcel();
  await parcel.bootstrap(props as never);
  let mounting: Promise<unknown> = Promise.resolve();
  await act(async () => {
    mounting = parcel.mount(props as never);
  });
  await mounting;
  cleanups.push(async () => {
    let unmounting: Promise<unknown> = Promise.resolve();
    await act(async () => {
      unmounting = parcel.unmount(props as never);
    });
    await unmounting;
    gatehouse.store.dispose();
    host.remove();
  });
  return { view: within(domElement), shadow: host.shadowRoot!, calls, navigate, store: gatehouse.store };
}

const type = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });

describe('forgot password screen', () => {
  it('email -> channel choice -> SMS code -> new password -> success, with labels, autocomplete and focused alerts', async () => {
    const { view, shadow, calls } = await mountAt('/account/forget-password', {
      [P.strategies]: () => json({ strategies: [{ strategy: 'email', isActive: true }, { strategy: 'sms', isActive: true }] }),
      [P.sms]: () => json({ sessionId: 's-1' }),
      [P.smsVerify]: (body) => ((body as { otcToken: string }).otcToken === '123456' ? json({ userId: 'u1', token: 't1' }) : json({ errors: ['The code is invalid or has expired'], errorCode: 'ER-01402' }, 400)),
      [P.verify]: () => json({}),
    });
    expect(view.getByRole('heading', { name: 'Forgot password?' })).toBeTruthy();
    const email = view.getByLabelText('Email') as HTMLInputElement;
    expect(shadow.activeElement).toBe(email);
    type(email, 'ada@example.com');
    fireEvent.submit(email.form!);
    const textMe = await view.findByRole('button', { name: 'Text me a code' });
    expect(view.getByRole('group')).toBeTruthy();
    await waitFor(() => expect(shadow.activeElement).toBe(view.getByRole('button', { name: 'Email me a reset link' })));
    fireEvent.click(textMe);

    const code = (await view.findByLabelText('Code')) as HTMLInputElement;
    expect(code.autocomplete).toBe('one-time-code');
    expect(code.inputMode).toBe('numeric');
    await waitFor(() => expect(shadow.activeElement).toBe(code));
    type(code, '12-34-50');
    expect(code.value).toBe('123450');
    fireEvent.submit(code.form!);
    const alert = await view.findByRole('alert');
    expect(alert.textContent).toBe('The code is invalid or has expired');
    await waitFor(() => expect(shadow.activeElement).toBe(alert));

    type(code, '123456');
    fireEvent.submit(code.form!);
    const fresh = (await view.findByLabelText('New password')) as HTMLInputElement;
    expect(fresh.autocomplete).toBe('new-password');
    expect((view.getByLabelText('Confirm new password') as HTMLInputElement).autocomplete).toBe('new-password');
    type(fresh, 'new passphrase 1');
    type(view.getByLabelText('Confirm new password'), 'new passphrase 1');
    fireEvent.submit(fresh.form!);
    expect((await view.findByRole('status')).textContent).toContain('Your password has been reset');
    expect(calls.find((c) => c.key === P.verify)!.body).toEqual({ userId: 'u1', token: 't1', password: 'new passphrase 1' });
  });
});

describe('reset password screen', () => {
  it('explains an incomplete link and offers a new one', async () => {
    const { view } = await mountAt('/account/reset-password?userId=u1', {});
    expect((await view.findByRole('alert')).textContent).toContain('incomplete');
    expect(view.getByRole('link', { name: 'Request a new one' }).getAttribute('href')).toBe('/account/forget-password');
  });

  it("checks the confirmation locally, shows the server's refusal, then succeeds", async () => {
    let answer = json({ errors: ['The password reset link is invalid or has expired'], errorCode: 'ER-01401' }, 400);
    const { view, calls } = await mountAt('/account/reset-password?userId=u1&token=tok', { [P.verify]: () => answer });
    const fresh = (await view.findByLabelText('New password')) as HTMLInputElement;
    type(fresh, 'new passphrase 1');
    type(view.getByLabelText('Confirm new password'), 'different');
    fireEvent.submit(fresh.form!);
    expect((await view.findByRole('alert')).textContent).toBe('Passwords do not match');
    expect(calls.some((c) => c.key === P.verify)).toBe(false);
    type(view.getByLabelText('Confirm new password'), 'new passphrase 1');
    fireEvent.submit(fresh.form!);
    await waitFor(() => expect(view.getByRole('alert').textContent).toBe('The password reset link is invalid or has expired'));
    answer = json({});
    fireEvent.submit(fresh.form!);
    expect((await view.findByRole('status')).textContent).toContain('Your password has been reset');
    expect(view.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/account/login');
  });
});

describe('login screen', () => {
  it("offers 'Forgot password?' on the password step", async () => {
    const { view, navigate } = await mountAt('/account/login', {});
    expect(view.queryByRole('link', { name: 'Forgot password?' })).toBeNull();
    const email = view.getByLabelText('Email');
    type(email, 'ada@example.com');
    fireEvent.submit((email as HTMLInputElement).form!);
    const link = await view.findByRole('link', { name: 'Forgot password?' });
    expect(link.getAttribute('href')).toBe('/account/forget-password');
    fireEvent.click(link);
    expect(navigate).toHaveBeenCalledWith('/account/forget-password');
    expect(await view.findByRole('heading', { name: 'Forgot password?' })).toBeTruthy();
    expect((view.getByLabelText('Email') as HTMLInputElement).value).toBe('ada@example.com');
  });
});
