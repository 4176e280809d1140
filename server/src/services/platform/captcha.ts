import { ErrorCodes, type CaptchaAction, type CaptchaPolicyResponse } from '@gatehouse/shared/wire';
import type { Config } from '../../config';
import { AppError } from '../../errors';
import { UNKNOWN_CLIENT, type RateLimiter } from './rate-limit';
import { log as serverLog } from '../../log';

/** What a protected call is checked against: the action its token must be made for, and who asks. */
export interface CaptchaCheck {
  action: CaptchaAction;
  ip: string | null;
  /** The email the call is about, when it has one (ignored emails skip the check). */
  email?: string | null;
  /** A higher minimum score than the vendor's: the tenant's captcha policy, when the call names its tenant (issue 12). */
  minScore?: number;
}

export interface CaptchaService {
  /** The public policy: enabled, site key, minimum score and script URL; never the secret. */
  policy(): CaptchaPolicyResponse;
  /**
   * With a policy set, throws unless `token` is a reCAPTCHA v3 token the verify URL accepts for
   * `check.action`, from one of our sites, scoring at least the minimum: 400 when missing or
   * refused, 503 when the verify URL cannot answer (fails closed). Without a policy, does nothing.
   */
  verify(token: string | undefined, check: CaptchaCheck): Promise<void>;
}

/** The parts of the siteverify answer (reCAPTCHA v3) that are read. */
interface SiteverifyAnswer {
  success?: unknown;
  score?: unknown;
  action?: unknown;
  hostname?: unknown;
  'error-codes'?: unknown;
}

/** Answers of the verify URL that mean our request or our secret is wrong, not the user's token. */
const OUR_FAULT = new Set(['missing-input-secret', 'invalid-input-secret', 'bad-request']);

const required = () =>
  new AppError(ErrorCodes.captchaRequired, 400, 'Captcha verification is required. Reload the page and try again.');
const failed = (reason: string) =>
  new AppError(ErrorCodes.captchaFailed, 400, 'The captcha check failed. Please try again.', { reason });
const unavailable = () =>
  new AppError(ErrorCodes.captchaUnavailable, 503, 'The captcha check could not be completed right now. Please try again in a moment.');

/**
 * reCAPTCHA v3 server side (seed 000 section 7.2 `recaptchaToken`): each token is posted to the
 * verify URL, form-encoded with the secret and the client IP, within a bounded time. Nothing the
 * caller sent and nothing secret is logged: only the verify URL's origin and path and what went wrong.
 */
export function createCaptchaService(deps: {
  config: Pick<Config, 'captcha' | 'allowedOrigins' | 'publicOrigin'>;
  limiter: RateLimiter;
  fetch?: typeof globalThis.fetch;
  /** Where operator-facing problems go (default: the server log, as a warning). */
  log?: (message: string) => void;
}): CaptchaService {
  const { limiter } = deps;
  const captcha = deps.config.captcha;
  const doFetch = deps.fetch ?? globalThis.fetch;
  const log = deps.log ?? ((message: string) => serverLog.warn(message));
  // Tokens are made on the pages that show the login box: the public URL's host and the allowed origins'.
  const hostnames = new Set([deps.config.publicOrigin, ...deps.config.allowedOrigins].map((o) => new URL(o).hostname.toLowerCase()));
  const ignored = new Set(captcha?.ignoredEmails ?? []);
  const where = captcha ? `${new URL(captcha.verifyUrl).origin}${new URL(captcha.verifyUrl).pathname}` : '';

  async function siteverify(secret: string, token: string, ip: string | null, timeoutMs: number): Promise<SiteverifyAnswer> {
    const form = new URLSearchParams({ secret, response: token });
    if (ip) form.set('remoteip', ip);
    let res: Response;
    try {
      res = await doFetch(captcha!.verifyUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form.toString(),
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      });
    } catch (err) {
      log(`captcha: verify URL ${where} could not be reached (${err instanceof Error ? err.name : 'error'})`);
      throw unavailable();
    }
    const text = await res.text().catch(() => '');
    if (!res.ok) {
      log(`captcha: verify URL ${where} answered ${res.status}`);
      throw unavailable();
    }
    try {
      const parsed = JSON.parse(text) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as SiteverifyAnswer;
    } catch {
      // reported below
    }
    log(`captcha: verify URL ${where} answered something other than a siteverify JSON object`);
    throw unavailable();
  }

  return {
    policy() {
      if (!captcha) return { enabled: false, siteKey: null, minScore: 0.5, scriptUrl: null };
      return { enabled: true, siteKey: captcha.siteKey, minScore: captcha.minScore, scriptUrl: captcha.scriptUrl };
    },

    async verify(token, check) {
      if (!captcha) return;
      if (check.email && ignored.has(check.email.trim().toLowerCase())) return;
      if (!token?.trim()) throw required();
      // Bounds the verify calls one client can cause; counted before the call, like every limit.
      await limiter.consume('captchaPerIp', check.ip ?? UNKNOWN_CLIENT);
      const answer = await siteverify(captcha.secretKey, token.trim(), check.ip, captcha.verifyTimeoutMs);
      if (answer.success !== true) {
        const codes = Array.isArray(answer['error-codes']) ? answer['error-codes'].filter((c): c is string => typeof c === 'string') : [];
        if (codes.some((c) => OUR_FAULT.has(c))) {
          // Our secret or request is wrong: no user can pass, so this is an outage, not their failure.
          log(`captcha: verify URL ${where} refused our request (${codes.join(', ')}); check CAPTCHA_SECRET_KEY`);
          throw unavailable();
        }
        throw failed(codes.filter((c) => /^[a-z-]{1,64}$/.test(c)).join(',') || 'rejected');
      }
      if (typeof answer.score !== 'number') {
        // A v2 key answers without a score: an operator mistake that refuses everyone.
        log(`captcha: verify URL ${where} answered without a score; CAPTCHA_SITE_KEY and CAPTCHA_SECRET_KEY must be reCAPTCHA v3 keys`);
        throw failed('missing-score');
      }
      if (answer.action !== check.action) throw failed('action-mismatch');
      if (typeof answer.hostname === 'string' && answer.hostname && !hostnames.has(answer.hostname.toLowerCase())) throw failed('hostname-mismatch');
      if (answer.score < Math.max(captcha.minScore, check.minScore ?? 0)) throw failed('low-score');
    },
  };
}
