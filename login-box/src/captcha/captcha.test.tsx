/**
 * The login box under a captcha policy. happy-dom does not run external scripts, so these tests play
 * the browser's part for Google's script: they see the script element the box adds, and put a
 * `grecaptcha` with Google's v3 API (ready, execute) on the window, or let the load fail. The real
 * script, served from another origin under the demo page's strict CSP, runs in e2e/captcha.e2e.test.ts.
 */
import { fireEvent, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { autoCleanup, json, mountLoginBox, sampleMe, type RecordedCall } from '../test/harness';
import { CAPTCHA_LOAD_ERROR } from './recaptcha';

const P = {
  policy: 'GET /identity/resources/configurations/v1/captcha-policy/public',
  login: 'POST /identity/resources/auth/v1/user',
  signUp: 'POST /identity/resources/users/v1/signUp',
};
const SCRIPT_URL = 'https://captcha.test/recaptcha/api.js';
const NONCE = 'page-nonce-123';
const session = () => json({ accessToken: 'a.b.c', expiresIn: 300, expires: '', mfaRequired: false });
const type = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });

let siteKeys = 0;
/** A policy with a site key of its own, so each test loads its own script URL. */
const policyOn = () => ({ enabled: true, siteKey: `site-key-${++siteKeys}`, minScore: 0.5, scriptUrl: SCRIPT_URL });

type HappyWindow = Window & { grecaptcha?: unknown; happyDOM?: { settings: { handleDisabledFileLoadingAsSuccess: boolean } } };
const win = window as HappyWindow;

/** Google's reCAPTCHA v3 browser API as the script defines it; records what it was asked. */
function installGrecaptcha() {
  const executed: Array<{ siteKey: string; action: string }> = [];
  win.grecaptcha = {
    ready: (callback: () => void) => setTimeout(callback, 0),
    execute: async (siteKey: string, options: { action: string }) => {
      executed.push({ siteKey, action: options.action });
      return `token-${options.action}-${executed.length}`;
    },
  };
  return executed;
}

const captchaScripts = () => [...document.head.querySelectorAll('script')].filter((s) => s.src.startsWith(SCRIPT_URL));

autoCleanup();
afterEach(() => {
  for (const script of captchaScripts()) script.remove();
  delete win.grecaptcha;
  if (win.happyDOM) win.happyDOM.settings.handleDisabledFileLoadingAsSuccess = false;
});

async function signIn(view: Awaited<ReturnType<typeof mountLoginBox>>['view']) {
  const email = (await view.findByLabelText('Email')) as HTMLInputElement;
  type(email, 'ada@example.com');
  fireEvent.submit(email.form!);
  const password = (await view.findByLabelText('Password')) as HTMLInputElement;
  type(password, 'correct horse battery');
  fireEvent.submit(password.form!);
}

const loginCalls = (calls: RecordedCall[]) => calls.filter((c) => c.key === P.login);

describe('captcha in the login box', () => {
  it('with the policy off: no script, no token, and the policy is not fetched before the form is used', async () => {
    const { view, calls, navigate } = await mountLoginBox('/account/login', { [P.policy]: () => json({ enabled: false, siteKey: null, minScore: 0.5, scriptUrl: null }), [P.login]: session }, { me: sampleMe });
    await view.findByLabelText('Email');
    expect(calls.some((c) => c.key === P.policy)).toBe(false);
    await signIn(view);
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/'));
    expect(loginCalls(calls).map((c) => c.body)).toEqual([{ email: 'ada@example.com', password: 'correct horse battery' }]);
    expect(calls.filter((c) => c.key === P.policy)).toHaveLength(1);
    expect(captchaScripts()).toEqual([]);
  });

  it('with the policy on: loads the script once (render=site key, the page nonce) and signs in with a login token', async () => {
    const policy = policyOn();
    if (win.happyDOM) win.happyDOM.settings.handleDisabledFileLoadingAsSuccess = true;
    const executed = installGrecaptcha();
    const { view, calls, navigate } = await mountLoginBox('/account/login', { [P.policy]: () => json(policy), [P.login]: session }, { me: sampleMe, mountOptions: { nonce: NONCE } });
    await signIn(view);
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/'));

    const [script, ...more] = captchaScripts();
    expect(more).toEqual([]);
    expect(script!.src).toBe(`${SCRIPT_URL}?render=${policy.siteKey}`);
    expect(script!.nonce).toBe(NONCE);
    expect(script!.async).toBe(true);
    expect(executed).toEqual([{ siteKey: policy.siteKey, action: 'login' }]);
    expect(loginCalls(calls).map((c) => c.body)).toEqual([{ email: 'ada@example.com', password: 'correct horse battery', recaptchaToken: 'token-login-1' }]);
  });

  it('shows the server refusing the token (captcha failed) in the alert, and keeps the password step', async () => {
    if (win.happyDOM) win.happyDOM.settings.handleDisabledFileLoadingAsSuccess = true;
    installGrecaptcha();
    const policy = policyOn();
    const refused = () => json({ errors: ['The captcha check failed. Please try again.'], errorCode: 'ER-01902', errorContext: { reason: 'low-score' } }, 400);
    const { view } = await mountLoginBox('/account/login', { [P.policy]: () => json(policy), [P.login]: refused });
    await signIn(view);
    expect((await view.findByRole('alert')).textContent).toBe('The captcha check failed. Please try again.');
    expect(view.getByLabelText('Password')).toBeTruthy();
  });

  it('says so when the script cannot load, sends nothing, and tries the script again on the next attempt', async () => {
    const policy = policyOn();
    const { view, calls, shadow } = await mountLoginBox('/account/login', { [P.policy]: () => json(policy), [P.login]: session }, { me: sampleMe });
    await signIn(view);
    const alert = await view.findByRole('alert');
    expect(alert.textContent).toBe(CAPTCHA_LOAD_ERROR);
    // The alert takes focus, so keyboard and screen-reader users meet it.
    await waitFor(() => expect(shadow.activeElement).toBe(alert));
    expect(loginCalls(calls)).toEqual([]);
    // The failed element is gone; the next submit adds a fresh one (and fails the same way here).
    await waitFor(() => expect(captchaScripts()).toEqual([]));
    fireEvent.submit((view.getByLabelText('Password') as HTMLInputElement).form!);
    await waitFor(() => expect(view.getByRole('button', { name: 'Sign in' }).hasAttribute('disabled')).toBe(false));
    expect(view.getByRole('alert').textContent).toBe(CAPTCHA_LOAD_ERROR);
    expect(loginCalls(calls)).toEqual([]);
  });

  it('a failed policy load is swallowed: the box signs in without captcha', async () => {
    const { view, calls, navigate } = await mountLoginBox('/account/login', { [P.policy]: () => json({ errors: ['boom'] }, 500), [P.login]: session }, { me: sampleMe, gatehouse: { retry: { attempts: 1, delayMs: 1 } } });
    await signIn(view);
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/'));
    expect(loginCalls(calls)[0]!.body).toEqual({ email: 'ada@example.com', password: 'correct horse battery' });
    expect(view.queryByRole('alert')).toBeNull();
  });

  it('sign-up sends a token of the signup action', async () => {
    if (win.happyDOM) win.happyDOM.settings.handleDisabledFileLoadingAsSuccess = true;
    const executed = installGrecaptcha();
    const policy = policyOn();
    const { view, calls } = await mountLoginBox('/account/sign-up', { [P.policy]: () => json(policy), [P.signUp]: () => json({ shouldActivate: true, userId: 'u1', tenantId: 't1' }) });
    type(await view.findByLabelText('Name'), 'Ada');
    type(view.getByLabelText('Company name'), 'Engines');
    type(view.getByLabelText('Email'), 'ada@example.com');
    const password = view.getByLabelText('Password') as HTMLInputElement;
    type(password, 'correct horse battery');
    fireEvent.submit(password.form!);
    expect(await view.findByRole('heading', { name: 'Check your email' })).toBeTruthy();
    expect(executed).toEqual([{ siteKey: policy.siteKey, action: 'signup' }]);
    expect(calls.find((c) => c.key === P.signUp)!.body.recaptchaToken).toBe('token-signup-1');
  });
});
