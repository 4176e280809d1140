import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const KEYS = { CAPTCHA_SITE_KEY: '6LeSiteKey_abc-123', CAPTCHA_SECRET_KEY: 'super-secret-value-42' };

describe('captcha settings', () => {
  it('leave captcha off when neither key is set', () => {
    expect(loadConfig({}).captcha).toBeNull();
  });

  it('turn it on with both keys, with Google reCAPTCHA v3 defaults', () => {
    expect(loadConfig(KEYS).captcha).toEqual({
      siteKey: '6LeSiteKey_abc-123',
      secretKey: 'super-secret-value-42',
      minScore: 0.5,
      verifyUrl: 'https://www.google.com/recaptcha/api/siteverify',
      scriptUrl: 'https://www.google.com/recaptcha/api.js',
      ignoredEmails: [],
      verifyTimeoutMs: 5000,
    });
  });

  it('read the score, URLs, timeout and ignored emails (trimmed, lowercased)', () => {
    const captcha = loadConfig({
      ...KEYS,
      CAPTCHA_MIN_SCORE: '0.7',
      CAPTCHA_VERIFY_URL: 'https://www.recaptcha.net/recaptcha/api/siteverify',
      CAPTCHA_SCRIPT_URL: 'https://www.recaptcha.net/recaptcha/api.js',
      CAPTCHA_IGNORED_EMAILS: ' QA@Example.com, ,robot@example.com ',
      CAPTCHA_VERIFY_TIMEOUT_MS: '2500',
    }).captcha;
    expect(captcha).toMatchObject({ minScore: 0.7, verifyUrl: 'https://www.recaptcha.net/recaptcha/api/siteverify', scriptUrl: 'https://www.recaptcha.net/recaptcha/api.js', ignoredEmails: ['qa@example.com', 'robot@example.com'], verifyTimeoutMs: 2500 });
  });

  it('refuse a half-set policy, naming the missing key and never printing the secret', () => {
    expect(() => loadConfig({ CAPTCHA_SITE_KEY: 'site' })).toThrow(/CAPTCHA_SITE_KEY is set but CAPTCHA_SECRET_KEY is not/);
    let message = '';
    try {
      loadConfig({ CAPTCHA_SECRET_KEY: 'super-secret-value-42' });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(message).toMatch(/CAPTCHA_SECRET_KEY is set but CAPTCHA_SITE_KEY is not/);
    expect(message).not.toContain('super-secret-value-42');
  });

  it('refuse scores outside 0..1, unbounded timeouts, odd site keys and non-http URLs', () => {
    expect(() => loadConfig({ ...KEYS, CAPTCHA_MIN_SCORE: '1.5' })).toThrow(/CAPTCHA_MIN_SCORE must be a number from 0.0 to 1.0/);
    expect(() => loadConfig({ ...KEYS, CAPTCHA_MIN_SCORE: 'high' })).toThrow(/CAPTCHA_MIN_SCORE/);
    expect(() => loadConfig({ ...KEYS, CAPTCHA_VERIFY_TIMEOUT_MS: '600000' })).toThrow(/CAPTCHA_VERIFY_TIMEOUT_MS must be at most 60000/);
    expect(() => loadConfig({ ...KEYS, CAPTCHA_SITE_KEY: 'key"><script>' })).toThrow(/CAPTCHA_SITE_KEY must be/);
    expect(() => loadConfig({ ...KEYS, CAPTCHA_SCRIPT_URL: 'javascript:alert(1)' })).toThrow(/CAPTCHA_SCRIPT_URL must be an http\(s\) URL/);
  });

  it('require an https verify URL in production (the secret travels to it), loopback excepted', () => {
    const production = { ...KEYS, NODE_ENV: 'production', GATEHOUSE_PUBLIC_URL: 'https://id.example.com' };
    expect(() => loadConfig({ ...production, CAPTCHA_VERIFY_URL: 'http://verify.example.com/siteverify' })).toThrow(/CAPTCHA_VERIFY_URL must be https in production/);
    expect(loadConfig({ ...production, CAPTCHA_VERIFY_URL: 'http://127.0.0.1:9000/siteverify' }).captcha?.verifyUrl).toBe('http://127.0.0.1:9000/siteverify');
  });
});
