import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_OPTIONS, loadConfig, renderConfigTable } from './config';

const CONFIG_DOC = path.join(import.meta.dirname, '..', '..', 'docs', 'configuration.md');
const TABLE_START = '<!-- config-table:start -->';
const TABLE_END = '<!-- config-table:end -->';

describe('loadConfig', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 8787, host: '127.0.0.1', publicUrl: 'http://localhost:8787', clientId: 'demo-client', allowedOrigins: ['http://localhost:8787'], accessTokenTtl: 300, signingAlg: 'ES256', cookieSameSite: 'lax', cookieSecure: true, dev: false, databaseUrl: null });
    expect(c.password).toEqual({ minLength: 8, maxLength: 128, allowPassphrases: true, minPhraseLength: 20, minOptionalTestsToPass: 0 });
  });

  it('fails with a sentence naming the wrong setting', () => {
    expect(() => loadConfig({ GATEHOUSE_KEY_ENCRYPTION_KEY: 'abc' })).toThrow(/GATEHOUSE_KEY_ENCRYPTION_KEY must be exactly 64 hex characters/);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT must be a whole number/);
    expect(() => loadConfig({ GATEHOUSE_SIGNING_ALG: 'HS256' })).toThrow(/GATEHOUSE_SIGNING_ALG must be one of ES256, RS256/);
    expect(() => loadConfig({ GATEHOUSE_PUBLIC_URL: 'not a url' })).toThrow(/GATEHOUSE_PUBLIC_URL must be an http\(s\) URL/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL must start with postgres:\/\//);
    expect(() => loadConfig({ GATEHOUSE_FLAGS: '[1]' })).toThrow(/GATEHOUSE_FLAGS must be a JSON object/);
    expect(() => loadConfig({ COOKIE_SAMESITE: 'none', COOKIE_SECURE: 'false' })).toThrow(/needs Secure cookies/);
    expect(() => loadConfig({ GATEHOUSE_CONFIG: '/nonexistent/gatehouse.json' })).toThrow(/GATEHOUSE_CONFIG points to/);
    // Regression (security review L5): production over plain http would drop Secure silently.
    expect(() => loadConfig({ NODE_ENV: 'production', GATEHOUSE_PUBLIC_URL: 'http://id.example.com' })).toThrow(/must be https in production/);
    expect(loadConfig({ NODE_ENV: 'production', GATEHOUSE_PUBLIC_URL: 'https://id.example.com' }).cookieSecure).toBe(true);
  });

  it("reads STRIPE_API_URL as the origin Stripe's SDK calls (unset: Stripe's own), and names it when it is not an http(s) URL", () => {
    expect(loadConfig({}).stripeApiUrl).toBeNull();
    expect(loadConfig({ STRIPE_API_URL: ' http://127.0.0.1:8420/ ' }).stripeApiUrl).toBe('http://127.0.0.1:8420');
    expect(() => loadConfig({ STRIPE_API_URL: 'ftp://stripe.local' })).toThrow(/STRIPE_API_URL must be an http\(s\) URL/);
  });

  it('reads CONNECTIVITY_LEASE_MS, the claim lease of the connectivity worker (default 60 s), and refuses less than 1 s', () => {
    expect(loadConfig({}).connectivity.leaseMs).toBe(60_000);
    expect(loadConfig({ CONNECTIVITY_LEASE_MS: '3000' }).connectivity.leaseMs).toBe(3000);
    expect(() => loadConfig({ CONNECTIVITY_LEASE_MS: '500' })).toThrow(/CONNECTIVITY_LEASE_MS must be a whole number of at least 1000/);
  });

  it('turns dev mode off under NODE_ENV=production and forces Secure for SameSite=None', () => {
    expect(loadConfig({ GATEHOUSE_DEV: '1', NODE_ENV: 'production' }).dev).toBe(false);
    expect(loadConfig({ GATEHOUSE_PUBLIC_URL: 'http://gatehouse.internal', COOKIE_SAMESITE: 'none' }).cookieSecure).toBe(true);
    expect(loadConfig({ GATEHOUSE_PUBLIC_URL: 'http://gatehouse.internal' }).cookieSecure).toBe(false);
  });

  it('reads the JSON config file, with the environment winning', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'gatehouse-config-')), 'gatehouse.json');
    writeFileSync(file, JSON.stringify({ PORT: 9000, GATEHOUSE_CLIENT_ID: 'from-file' }));
    const c = loadConfig({ GATEHOUSE_CONFIG: file, GATEHOUSE_CLIENT_ID: 'from-env' });
    expect(c.port).toBe(9000);
    expect(c.clientId).toBe('from-env');
  });

  it('reads rate limits as <count>/<seconds> with safe defaults, and explains a bad value in a sentence', () => {
    // toMatchObject: other features add buckets of their own.
    expect(loadConfig({}).rateLimits).toMatchObject({
      loginPerIp: { limit: 30, windowSeconds: 600 },
      loginFailuresPerAccount: { limit: 10, windowSeconds: 900 },
      signUpPerIp: { limit: 20, windowSeconds: 3600 },
      activationPerIp: { limit: 60, windowSeconds: 600 },
      resendPerIp: { limit: 10, windowSeconds: 3600 },
      resendPerEmail: { limit: 3, windowSeconds: 3600 },
      refreshPerIp: { limit: 120, windowSeconds: 60 },
    });
    expect(loadConfig({ RATE_LIMIT_LOGIN_PER_IP: ' 5 / 60 ' }).rateLimits.loginPerIp).toEqual({ limit: 5, windowSeconds: 60 });
    expect(() => loadConfig({ RATE_LIMIT_LOGIN_PER_IP: '30' })).toThrow('RATE_LIMIT_LOGIN_PER_IP must be <count>/<seconds>, such as "30/600" for 30 per 10 minutes, got "30".');
    expect(() => loadConfig({ RATE_LIMIT_SIGNUP_PER_IP: '20 per hour' })).toThrow(/^RATE_LIMIT_SIGNUP_PER_IP must be <count>\/<seconds>/);
    expect(() => loadConfig({ RATE_LIMIT_REFRESH_PER_IP: '-1/60' })).toThrow(/RATE_LIMIT_REFRESH_PER_IP must be <count>\/<seconds>/);
    expect(() => loadConfig({ RATE_LIMIT_RESEND_PER_EMAIL: '0/3600' })).toThrow('RATE_LIMIT_RESEND_PER_EMAIL must allow between 1 and 1000000000 requests per window, got "0/3600".');
    expect(() => loadConfig({ RATE_LIMIT_ACTIVATION_PER_IP: '60/0' })).toThrow('RATE_LIMIT_ACTIVATION_PER_IP must have a window between 1 second and 31 days, got "60/0".');
  });

  it('reads the vendor session policy (SESSION_*): 0 turns each off, other values must be ones a tenant could also hold', () => {
    expect(loadConfig({}).sessionPolicy).toEqual({ idleTimeout: 0, forceRelogin: 0, maxConcurrent: 0 });
    expect(loadConfig({ SESSION_IDLE_TIMEOUT: '900', SESSION_FORCE_RELOGIN: '86400', SESSION_MAX_CONCURRENT: '3' }).sessionPolicy).toEqual({ idleTimeout: 900, forceRelogin: 86400, maxConcurrent: 3 });
    expect(() => loadConfig({ SESSION_IDLE_TIMEOUT: '30' })).toThrow('SESSION_IDLE_TIMEOUT must be 0 (off) or between 60 and 31536000 seconds, got "30".');
    expect(() => loadConfig({ SESSION_MAX_CONCURRENT: '101' })).toThrow('SESSION_MAX_CONCURRENT must be 0 (off) or between 1 and 100 sessions, got "101".');
    expect(() => loadConfig({ SESSION_FORCE_RELOGIN: '-1' })).toThrow(/SESSION_FORCE_RELOGIN must be a whole number/);
  });

  it('keeps the CDN manifest 30 s by default, takes 0 to 60, and refuses anything longer than a minute or not a whole number', () => {
    expect(loadConfig({}).cdnManifestMaxAge).toBe(30);
    expect(loadConfig({ GATEHOUSE_CDN_MANIFEST_MAX_AGE: '0' }).cdnManifestMaxAge).toBe(0);
    expect(loadConfig({ GATEHOUSE_CDN_MANIFEST_MAX_AGE: '60' }).cdnManifestMaxAge).toBe(60);
    expect(() => loadConfig({ GATEHOUSE_CDN_MANIFEST_MAX_AGE: '61' })).toThrow('GATEHOUSE_CDN_MANIFEST_MAX_AGE must be at most 60 seconds (a rollout change must reach new page loads within a minute), got "61".');
    expect(() => loadConfig({ GATEHOUSE_CDN_MANIFEST_MAX_AGE: '-1' })).toThrow(/GATEHOUSE_CDN_MANIFEST_MAX_AGE must be a whole number of at least 0/);
    expect(() => loadConfig({ GATEHOUSE_CDN_MANIFEST_MAX_AGE: '2.5' })).toThrow(/GATEHOUSE_CDN_MANIFEST_MAX_AGE must be a whole number/);
  });

  it('documents every option in the configuration table of docs/configuration.md', () => {
    const table = renderConfigTable();
    const doc = readFileSync(CONFIG_DOC, 'utf8');
    const [before, rest] = doc.split(TABLE_START);
    const after = rest?.split(TABLE_END)[1];
    if (before === undefined || after === undefined) throw new Error(`docs/configuration.md lacks the ${TABLE_START} ... ${TABLE_END} markers`);
    if (process.env.UPDATE_CONFIG_MD === '1') writeFileSync(CONFIG_DOC, `${before}${TABLE_START}\n${table}\n${TABLE_END}${after}`);
    expect(readFileSync(CONFIG_DOC, 'utf8')).toContain(`${TABLE_START}\n${table}\n${TABLE_END}`);
    for (const option of CONFIG_OPTIONS) expect(table).toContain(`\`${option.name}\``);
  });

});
