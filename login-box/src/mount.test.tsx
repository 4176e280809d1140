import { act, fireEvent, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AFTER_AUTH_REDIRECT_KEY, resolveTheme } from '@gatehouse/shared';
import { autoCleanup, fieldErrorOf, json, mountLoginBox as mountAt, sampleMe as me } from './test/harness';

const P = {
  login: 'POST /identity/resources/auth/v1/user',
  logout: 'POST /identity/resources/auth/v1/logout',
  me: 'GET /identity/resources/users/v2/me',
  signUp: 'POST /identity/resources/users/v1/signUp',
  strategy: 'GET /identity/resources/users/v1/activate/strategy',
  activate: 'POST /identity/resources/users/v1/activate',
  resend: 'POST /identity/resources/users/v1/activate/reset',
  vendor: 'GET /vendors/public',
};
const loginResponse = { accessToken: 'tok', expiresIn: 300, expires: '', mfaRequired: false };

autoCleanup();

beforeEach(() => {
  window.sessionStorage.clear();
});

afterEach(() => {
  vi.restoreAllMocks();
});

const type = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });

describe('login screen', () => {
  it('has labelled fields with autocomplete, and goes email -> password -> signed in', async () => {
    const { view, navigate, calls, shadow } = await mountAt('/account/login', { [P.login]: () => json(loginResponse), [P.me]: () => json(me) });
    expect(view.getByRole('heading', { name: 'Sign in' })).toBeTruthy();
    const email = view.getByLabelText('Email') as HTMLInputElement;
    expect(email.type).toBe('email');
    expect(email.autocomplete).toBe('username');
    await waitFor(() => expect(shadow.activeElement).toBe(email));
    type(email, 'ada@example.com');
    fireEvent.click(view.getByRole('button', { name: 'Continue' }));
    const password = (await view.findByLabelText('Password')) as HTMLInputElement;
    expect(password.autocomplete).toBe('current-password');
    await waitFor(() => expect(shadow.activeElement).toBe(password));
    expect((view.getByLabelText('Email') as HTMLInputElement).value).toBe('ada@example.com');
    type(password, 'correct horse');
    fireEvent.click(view.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/'));
    expect(calls.find((c) => c.key === P.login)?.body).toEqual({ email: 'ada@example.com', password: 'correct horse' });
  });

  it('shows the server error in role=alert and keeps the email', async () => {
    const { view, shadow } = await mountAt('/account/login', { [P.login]: () => json({ errors: ['Invalid email or password'], errorCode: 'ER-01006' }, 401) });
    type(view.getByLabelText('Email'), 'ada@example.com');
    fireEvent.click(view.getByRole('button', { name: 'Continue' }));
    type(await view.findByLabelText('Password'), 'wrong');
    fireEvent.click(view.getByRole('button', { name: 'Sign in' }));
    const alert = await view.findByRole('alert');
    expect(alert.textContent).toBe('Invalid email or password');
    await waitFor(() => expect(shadow.activeElement).toBe(alert));
    expect((view.getByLabelText('Email') as HTMLInputElement).value).toBe('ada@example.com');
    expect(view.getByRole('button', { name: 'Sign in' }).getAttribute('aria-busy')).toBe('false');
  });

  it('disables the button with a spinner and aria-busy while signing in', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { view, store } = await mountAt('/account/login', {
      [P.login]: async () => {
        await held;
        return json({ errors: ['Invalid email or password'] }, 401);
      },
    });
    await act(() => store.preLogin('ada@example.com'));
    type(view.getByLabelText('Password'), 'x');
    fireEvent.click(view.getByRole('button', { name: 'Sign in' }));
    const button = view.getByRole('button', { name: 'Sign in' }) as HTMLButtonElement;
    await waitFor(() => expect(button.disabled).toBe(true));
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(button.querySelector('.gh-spinner')).not.toBeNull();
    await act(async () => release());
    await waitFor(() => expect(button.disabled).toBe(false));
    expect(button.getAttribute('aria-busy')).toBe('false');
  });

  it('stores a valid redirectUrl and ignores an off-site one', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const first = await mountAt('/account/login?redirectUrl=%2Freports%3Fid%3D7');
    expect(window.sessionStorage.getItem(AFTER_AUTH_REDIRECT_KEY)).toBe('/reports?id=7');
    await first.unmount();
    window.sessionStorage.clear();
    await mountAt('/account/login?redirectUrl=https%3A%2F%2Fevil.com');
    expect(window.sessionStorage.getItem(AFTER_AUTH_REDIRECT_KEY)).toBeNull();
    expect(warn).toHaveBeenCalledWith('The redirect url param is not valid, the origin is a different site');
    warn.mockRestore();
  });

  it('links to sign-up when the vendor allows it', async () => {
    const { view, navigate } = await mountAt('/account/login');
    const link = await view.findByRole('link', { name: 'Sign up' });
    expect(link.getAttribute('href')).toBe('/account/sign-up');
    fireEvent.click(link);
    expect(navigate).toHaveBeenCalledWith('/account/sign-up');
    expect(await view.findByRole('heading', { name: 'Create your account' })).toBeTruthy();
  });

  it('never sets a session when MFA is required', async () => {
    const { view, store } = await mountAt('/account/login', { [P.login]: () => json({ ...loginResponse, mfaRequired: true, mfaToken: 'm' }) });
    type(view.getByLabelText('Email'), 'ada@example.com');
    fireEvent.click(view.getByRole('button', { name: 'Continue' }));
    type(await view.findByLabelText('Password'), 'pw');
    fireEvent.click(view.getByRole('button', { name: 'Sign in' }));
    await view.findByRole('heading', { name: 'Two-factor authentication' });
    expect(view.getByLabelText('Authentication code')).toBeTruthy();
    expect(store.getSnapshot().isAuthenticated).toBe(false);
  });
});

describe('sign-up screen', () => {
  it('labels and autocompletes, shows the password hint, and ends on Check your email', async () => {
    const { view, calls } = await mountAt('/account/sign-up', { [P.signUp]: () => json({ shouldActivate: true, userId: 'u1', tenantId: 't1' }) });
    expect(view.getByRole('heading', { name: 'Create your account' })).toBeTruthy();
    expect((view.getByLabelText('Name') as HTMLInputElement).autocomplete).toBe('name');
    expect((view.getByLabelText('Company name') as HTMLInputElement).autocomplete).toBe('organization');
    expect((view.getByLabelText('Email') as HTMLInputElement).autocomplete).toBe('email');
    const password = view.getByLabelText('Password') as HTMLInputElement;
    expect(password.autocomplete).toBe('new-password');
    expect(await view.findByText('At least 8 characters')).toBeTruthy();
    type(view.getByLabelText('Name'), 'Grace');
    type(view.getByLabelText('Company name'), 'Navy');
    type(view.getByLabelText('Email'), 'grace@example.com');
    type(password, 'Secret-pass-1');
    fireEvent.click(view.getByRole('button', { name: 'Sign up' }));
    expect(await view.findByRole('heading', { name: 'Check your email' })).toBeTruthy();
    expect(view.getByRole('status').textContent).toContain('We sent an activation link to grace@example.com');
    expect(calls.find((c) => c.key === P.signUp)?.body).toEqual({ email: 'grace@example.com', password: 'Secret-pass-1', name: 'Grace', companyName: 'Navy' });
  });

  it('shows the server error', async () => {
    const { view } = await mountAt('/account/sign-up', { [P.signUp]: () => json({ errors: ['User already exists'] }, 409) });
    type(view.getByLabelText('Name'), 'G');
    type(view.getByLabelText('Company name'), 'N');
    type(view.getByLabelText('Email'), 'g@example.com');
    type(view.getByLabelText('Password'), 'Secret-pass-1');
    fireEvent.click(view.getByRole('button', { name: 'Sign up' }));
    expect((await view.findByRole('alert')).textContent).toBe('User already exists');
  });
});

describe('activate screen', () => {
  it('sets a password and activates', async () => {
    const { view, calls, store } = await mountAt('/account/activate?userId=u1&token=tk', {
      [P.strategy]: () => json({ shouldSetPassword: true }),
      [P.activate]: () => json(loginResponse),
      [P.me]: () => json(me),
    });
    expect(view.getByRole('heading', { name: 'Activate your account' })).toBeTruthy();
    const password = (await view.findByLabelText('Password')) as HTMLInputElement;
    const confirm = view.getByLabelText('Confirm password') as HTMLInputElement;
    expect(password.autocomplete).toBe('new-password');
    expect(confirm.autocomplete).toBe('new-password');
    type(password, 'Secret-pass-1');
    type(confirm, 'Secret-pass-2');
    fireEvent.click(view.getByRole('button', { name: 'Activate' }));
    // At its field, described by it, and focused: no alert for the form's own check.
    await waitFor(() => expect(fieldErrorOf(confirm)).toBe('Passwords do not match'));
    await waitFor(() => expect((confirm.getRootNode() as ShadowRoot).activeElement).toBe(confirm));
    type(confirm, 'Secret-pass-1');
    fireEvent.click(view.getByRole('button', { name: 'Activate' }));
    expect(await view.findByRole('heading', { name: 'Account activated' })).toBeTruthy();
    expect(view.getByRole('status').textContent).toContain('Your account is activated.');
    expect(view.getByRole('button', { name: 'Continue' })).toBeTruthy();
    expect(calls.find((c) => c.key === P.activate)?.body).toEqual({ userId: 'u1', token: 'tk', password: 'Secret-pass-1' });
    expect(store.getSnapshot().isAuthenticated).toBe(true);
  });

  it('shows the failure message and resends', async () => {
    const { view, calls } = await mountAt('/account/activate?userId=u1&token=bad', {
      [P.strategy]: () => json({ errors: ['Activation link is invalid or has expired'], errorCode: 'ER-01009' }, 400),
      [P.resend]: () => new Response(null, { status: 204 }),
    });
    expect((await view.findByRole('alert')).textContent).toBe('The activation link is invalid or has expired');
    type(view.getByLabelText('Email'), 'ada@example.com');
    fireEvent.click(view.getByRole('button', { name: 'Resend activation email' }));
    expect(await view.findByText(/we sent it a new activation link/)).toBeTruthy();
    expect(calls.find((c) => c.key === P.resend)?.body).toEqual({ email: 'ada@example.com' });
  });

  it('asks for a resend when the link is incomplete, without calling the server', async () => {
    const { view, calls } = await mountAt('/account/activate?userId=u1');
    expect((await view.findByRole('alert')).textContent).toMatch(/incomplete/);
    expect(calls.some((c) => c.key === P.strategy)).toBe(false);
  });
});

describe('logout screen', () => {
  it('signs out and goes to the login route', async () => {
    const { view, navigate, calls } = await mountAt('/account/logout', {
      [P.logout]: () => new Promise<Response>((resolve) => setTimeout(() => resolve(new Response(null, { status: 204 })), 30)) as never,
    });
    expect(view.getByRole('heading', { name: 'Signing out' })).toBeTruthy();
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/account/login'));
    expect(calls.some((c) => c.key === P.logout)).toBe(true);
    expect(await view.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
  });
});

describe('mount lifecycle', () => {
  it('adopts its stylesheet into the shadow root, themes through CSS variables, and leaves nothing on unmount', async () => {
    const add = vi.spyOn(window, 'addEventListener');
    const remove = vi.spyOn(window, 'removeEventListener');
    const count = (spy: typeof add, type: string) => spy.mock.calls.filter((call) => call[0] === type).length;
    const m = await mountAt('/account/login');
    expect(m.activeSubscriptions()).toBeGreaterThan(0);
    expect(m.shadow.adoptedStyleSheets).toHaveLength(1);
    expect(document.adoptedStyleSheets ?? []).toHaveLength(0);
    expect(m.shadow.querySelector('style')).toBeNull();
    // The scheme holds from mount (the system's), before the loader's first call.
    expect(m.domElement.getAttribute('data-gh-scheme')).toBe('system');
    act(() => m.themeSetter()!(resolveTheme({ theme: { primaryColor: '#ff0000', borderRadius: '2px', mode: 'dark' } })));
    expect(m.domElement.style.getPropertyValue('--gh-primary')).toBe('#ff0000');
    // Pure red is unreadable on the dark surface (4.46:1): the dark scheme keeps its own primary.
    expect(m.domElement.style.getPropertyValue('--gh-dark-primary')).toBe('#a5b4fc');
    expect(m.domElement.style.getPropertyValue('--gh-radius')).toBe('2px');
    expect(m.domElement.getAttribute('data-gh-scheme')).toBe('dark');
    expect(count(add, 'popstate')).toBeGreaterThan(0);

    await m.unmount();
    expect(m.domElement.innerHTML).toBe('');
    expect(m.shadow.adoptedStyleSheets).toHaveLength(0);
    expect(m.domElement.style.getPropertyValue('--gh-primary')).toBe('');
    expect(m.domElement.hasAttribute('data-gh-scheme')).toBe(false);
    expect(count(remove, 'popstate')).toBe(count(add, 'popstate'));
    expect(m.activeSubscriptions()).toBe(0);
  });

  it('works in light DOM too', async () => {
    const m = await mountAt('/account/login', {}, { shadow: false });
    expect(document.adoptedStyleSheets).toHaveLength(1);
    expect(m.view.getByRole('heading', { name: 'Sign in' })).toBeTruthy();
    await m.unmount();
    expect(document.adoptedStyleSheets).toHaveLength(0);
  });

  it('renders nothing on a route that is not its own', async () => {
    const m = await mountAt('/dashboard');
    expect(m.domElement.innerHTML).toBe('');
  });
});
