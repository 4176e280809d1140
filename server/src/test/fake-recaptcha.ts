/**
 * A reCAPTCHA v3 peer for tests, on a real loopback HTTP server (its own origin):
 *
 * - `GET /recaptcha/api.js?render=<siteKey>`: a script implementing the browser API
 *   (`grecaptcha.ready`, `grecaptcha.execute(siteKey, { action })`). Tokens are made in the page
 *   (a signed payload of site key, action, page host name and time), as the real script hands
 *   them out; execute refuses a site key the script was not rendered with, as Google's does.
 * - `POST /recaptcha/api/siteverify`: Google's verify endpoint, form-encoded `secret`, `response`,
 *   `remoteip` in, `{ success, score, action, hostname, challenge_ts, error-codes }` out. Tokens are
 *   checked like the real one does: the signature, the site key, single use, 2 minutes of life.
 *
 * `behave()` turns the verify answers (score, refusals, outages) and the script (missing) per test.
 * Only imported by tests (server route tests, login-box tests and e2e).
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the fake answers; change it with `behave()`. */
export interface FakeRecaptchaBehaviour {
  /** The score of every accepted token. */
  score: number;
  /**
   * normal: check tokens as Google does; reject: answer every token `success: false`
   * (invalid-input-response); http-500: answer 500; hang: never answer; not-json: answer HTML.
   */
  verify: 'normal' | 'reject' | 'http-500' | 'hang' | 'not-json';
  /** missing: api.js answers 404 (the browser's script load fails). */
  script: 'ok' | 'missing';
}

export interface VerifyCall {
  secret: string;
  response: string;
  remoteip: string | null;
}

export interface FakeRecaptcha {
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  siteKey: string;
  secret: string;
  verifyUrl: string;
  scriptUrl: string;
  /** Every siteverify call, as received. */
  verifyCalls: VerifyCall[];
  /** Every api.js request URL (path and query). */
  scriptRequests: string[];
  behave(changes: Partial<FakeRecaptchaBehaviour>): void;
  /** A token as the script would make it in a page on `hostname`. */
  issueToken(action: string, hostname?: string, siteKey?: string): string;
  /** The env that points a Gatehouse server at this peer. */
  env(extra?: Record<string, string>): Record<string, string>;
  stop(): Promise<void>;
}

const TOKEN_LIFETIME_MS = 120_000;
const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

/** The browser script. `SIGNING_KEY` is readable there; it only makes tokens that no script made fail to verify. */
function scriptSource(signingKey: string): string {
  return `/* fake reCAPTCHA v3 for tests */
(() => {
  const SIGNING_KEY = ${JSON.stringify(signingKey)};
  const script = document.currentScript;
  const rendered = script ? new URL(script.src).searchParams.get('render') : null;
  const enc = new TextEncoder();
  const b64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  window.grecaptcha = {
    ready(callback) { setTimeout(callback, 0); },
    async execute(siteKey, options) {
      if (!rendered || siteKey !== rendered) throw new Error('Invalid site key or not loaded in api.js: ' + siteKey);
      const action = options && options.action;
      if (typeof action !== 'string' || !/^[A-Za-z0-9/_]+$/.test(action)) throw new Error('Invalid action name');
      const payload = b64url(enc.encode(JSON.stringify({ siteKey, action, hostname: location.hostname, iat: Date.now(), n: crypto.randomUUID() })));
      const key = await crypto.subtle.importKey('raw', enc.encode(SIGNING_KEY), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
      const signature = await crypto.subtle.sign('HMAC', key, enc.encode(payload));
      return 'v3.' + payload + '.' + b64url(signature);
    },
  };
})();
`;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (data += chunk));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

/** Starts the fake on 127.0.0.1 (a free port) with a fresh site key and secret. */
export async function startFakeRecaptcha(options: { siteKey?: string; secret?: string } = {}): Promise<FakeRecaptcha> {
  const siteKey = options.siteKey ?? `site-${randomBytes(8).toString('hex')}`;
  const secret = options.secret ?? `secret-${randomBytes(16).toString('hex')}`;
  const signingKey = randomBytes(32).toString('hex');
  const behaviour: FakeRecaptchaBehaviour = { score: 0.9, verify: 'normal', script: 'ok' };
  const used = new Set<string>();
  const verifyCalls: VerifyCall[] = [];
  const scriptRequests: string[] = [];
  const hanging = new Set<import('node:http').ServerResponse>();

  const sign = (payload: string) => createHmac('sha256', signingKey).update(payload).digest();

  function check(token: string): Record<string, unknown> {
    const fail = (code: string) => ({ success: false, 'error-codes': [code] });
    const [version, payload, signature] = token.split('.');
    if (version !== 'v3' || !payload || !signature) return fail('invalid-input-response');
    const expected = sign(payload);
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return fail('invalid-input-response');
    let claims: { siteKey?: string; action?: string; hostname?: string; iat?: number };
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return fail('invalid-input-response');
    }
    // A token of another site key does not verify with this secret.
    if (claims.siteKey !== siteKey) return fail('invalid-input-response');
    if (used.has(token) || typeof claims.iat !== 'number' || Date.now() - claims.iat > TOKEN_LIFETIME_MS) return fail('timeout-or-duplicate');
    used.add(token);
    return { success: true, score: behaviour.score, action: claims.action, hostname: claims.hostname, challenge_ts: new Date(claims.iat).toISOString() };
  }

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    if (req.method === 'GET' && url.pathname === '/recaptcha/api.js') {
      scriptRequests.push(`${url.pathname}${url.search}`);
      if (behaviour.script === 'missing') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' }).end(scriptSource(signingKey));
      return;
    }
    if (req.method === 'POST' && url.pathname === '/recaptcha/api/siteverify') {
      const form = new URLSearchParams(await readBody(req));
      verifyCalls.push({ secret: form.get('secret') ?? '', response: form.get('response') ?? '', remoteip: form.get('remoteip') });
      if (behaviour.verify === 'hang') {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      if (behaviour.verify === 'http-500') {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error');
        return;
      }
      if (behaviour.verify === 'not-json') {
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>');
        return;
      }
      let answer: Record<string, unknown>;
      if (!form.get('secret')) answer = { success: false, 'error-codes': ['missing-input-secret'] };
      else if (form.get('secret') !== secret) answer = { success: false, 'error-codes': ['invalid-input-secret'] };
      else if (!form.get('response')) answer = { success: false, 'error-codes': ['missing-input-response'] };
      else if (behaviour.verify === 'reject') answer = { success: false, 'error-codes': ['invalid-input-response'] };
      else answer = check(form.get('response')!);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const verifyUrl = `${origin}/recaptcha/api/siteverify`;
  const scriptUrl = `${origin}/recaptcha/api.js`;

  return {
    origin,
    siteKey,
    secret,
    verifyUrl,
    scriptUrl,
    verifyCalls,
    scriptRequests,
    behave: (changes) => void Object.assign(behaviour, changes),
    issueToken(action, hostname = 'localhost', key = siteKey) {
      const payload = b64url(JSON.stringify({ siteKey: key, action, hostname, iat: Date.now(), n: randomUUID() }));
      return `v3.${payload}.${b64url(sign(payload))}`;
    },
    env: (extra = {}) => ({ CAPTCHA_SITE_KEY: siteKey, CAPTCHA_SECRET_KEY: secret, CAPTCHA_VERIFY_URL: verifyUrl, CAPTCHA_SCRIPT_URL: scriptUrl, ...extra }),
    async stop() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
