/**
 * reCAPTCHA v3 in the browser, the login box's captcha provider (see `setCaptchaProvider`). Its own
 * chunk: it is imported only after the store found the captcha policy on, so sites without captcha
 * never download it. The script is the policy's `scriptUrl` with `?render=<siteKey>`, added once to
 * the document with the page's CSP nonce (under `'strict-dynamic'` it would load without one too;
 * with a nonce-only policy it needs it). A token is `grecaptcha.ready` then `grecaptcha.execute`.
 */
import type { CaptchaPolicy, ErrorCodes, GatehouseError } from '@gatehouse/shared';

/** The part of Google's `grecaptcha` (v3) used here. */
interface Grecaptcha {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): PromiseLike<string>;
}

/** How long the script may take to load and get ready, and one token may take to come. */
export const CAPTCHA_TIMEOUT_MS = 10_000;

/** Shown when the script cannot be fetched or run (offline, blocked by an extension or a CSP). */
export const CAPTCHA_LOAD_ERROR = 'The captcha could not be loaded. Check your connection or allow it in your content blocker, then try again.';
/** Shown when the loaded script gives no token. */
export const CAPTCHA_EXECUTE_ERROR = 'The captcha check could not be completed. Please try again.';

// Refused locally with the code the server gives a call without a token: no token can be sent. Only
// types come from @gatehouse/shared (the literal is checked against ErrorCodes): a runtime import of
// it would move the federation import into the chunk every screen loads first.
const CAPTCHA_REQUIRED: (typeof ErrorCodes)['captchaRequired'] = 'ER-01901';
const refusal = (message: string): GatehouseError => ({ kind: 'GatehouseError', message, statusCode: 400, errorCode: CAPTCHA_REQUIRED });

/** The script URL of a policy: `scriptUrl?render=<siteKey>` (reCAPTCHA v3's explicit site key). */
export function captchaScriptSrc(policy: Pick<CaptchaPolicy, 'scriptUrl' | 'siteKey'>): string {
  const url = new URL(policy.scriptUrl ?? '');
  url.searchParams.set('render', policy.siteKey ?? '');
  return url.href;
}

let loading: { src: string; ready: Promise<Grecaptcha> } | null = null;

function withTimeout<T>(promise: PromiseLike<T>, message: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(refusal(message)), CAPTCHA_TIMEOUT_MS);
    Promise.resolve(promise).then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        reject(refusal(message));
      },
    );
  });
}

/** Adds the script once per URL; a failed load is forgotten, so the next call tries again. */
function load(src: string, nonce: string | undefined): Promise<Grecaptcha> {
  if (loading?.src === src) return loading.ready;
  const script = document.createElement('script');
  const ready = withTimeout(
    new Promise<Grecaptcha>((resolve, reject) => {
      script.onload = () => {
        const grecaptcha = (window as { grecaptcha?: Grecaptcha }).grecaptcha;
        if (typeof grecaptcha?.ready !== 'function') reject(new Error('no grecaptcha'));
        else grecaptcha.ready(() => resolve(grecaptcha));
      };
      script.onerror = () => reject(new Error('script error'));
    }),
    CAPTCHA_LOAD_ERROR,
  );
  const entry = { src, ready };
  loading = entry;
  ready.catch(() => {
    script.remove();
    if (loading === entry) loading = null;
  });
  script.src = src;
  script.async = true;
  if (nonce) script.nonce = nonce;
  document.head.appendChild(script);
  return ready;
}

/** The login box's CaptchaTokenProvider (see shared `CaptchaTokenProvider`). */
export async function recaptchaToken(policy: CaptchaPolicy, action: string | undefined, nonce: string | undefined): Promise<string | undefined> {
  if (!policy.siteKey || !policy.scriptUrl) throw refusal(CAPTCHA_LOAD_ERROR);
  const grecaptcha = await load(captchaScriptSrc(policy), nonce);
  if (!action) return undefined;
  const token = await withTimeout(grecaptcha.execute(policy.siteKey, { action }), CAPTCHA_EXECUTE_ERROR);
  if (typeof token !== 'string' || !token) throw refusal(CAPTCHA_EXECUTE_ERROR);
  return token;
}
