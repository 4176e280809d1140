import { describe, expect, it } from 'vitest';
import { checkEnvironment, GatehouseEnvironmentError } from './env.js';

const good = {
  GATEHOUSE_BASE_URL: 'https://auth.example.com/',
  GATEHOUSE_CLIENT_ID: 'demo-client',
  GATEHOUSE_ENCRYPTION_PASSWORD: 'a'.repeat(32) + 'F0'.repeat(16),
};

function problems(env: Record<string, string | undefined>, options?: Parameters<typeof checkEnvironment>[1]): string[] {
  try {
    checkEnvironment(env, options);
  } catch (err) {
    expect(err).toBeInstanceOf(GatehouseEnvironmentError);
    return (err as GatehouseEnvironmentError).problems;
  }
  return [];
}

describe('checkEnvironment', () => {
  it('returns the settings of a good environment, the base URL without its trailing slash', () => {
    expect(checkEnvironment(good)).toEqual({ baseUrl: 'https://auth.example.com', clientId: 'demo-client', clientSecret: undefined, encryptionPassword: good.GATEHOUSE_ENCRYPTION_PASSWORD, appUrl: undefined, secureJwt: false, hostedLogin: false });
  });

  it('names a missing base URL and client id', () => {
    expect(problems({ GATEHOUSE_ENCRYPTION_PASSWORD: good.GATEHOUSE_ENCRYPTION_PASSWORD })).toEqual([
      'GATEHOUSE_BASE_URL is required: the URL of your Gatehouse server.',
      'GATEHOUSE_CLIENT_ID is required: the client id of your Gatehouse server.',
    ]);
    expect(problems({ ...good, GATEHOUSE_BASE_URL: 'auth.example.com' })).toEqual(['GATEHOUSE_BASE_URL is not a valid URL: it must be an http or https URL.']);
    expect(problems({ ...good, GATEHOUSE_APP_URL: 'javascript:alert(1)' })).toEqual(['GATEHOUSE_APP_URL is not a valid URL: it must be an http or https URL.']);
  });

  it('needs an encryption password of exactly 64 hex characters, unless the host keeps no session', () => {
    const { GATEHOUSE_ENCRYPTION_PASSWORD: _, ...withoutPassword } = good;
    expect(problems(withoutPassword)).toEqual([expect.stringMatching(/^GATEHOUSE_ENCRYPTION_PASSWORD is required: 64 hex characters/)]);
    for (const bad of ['a'.repeat(63), 'a'.repeat(65), 'g'.repeat(64), 'correct horse battery staple and more words to reach sixty-four!']) {
      expect(problems({ ...good, GATEHOUSE_ENCRYPTION_PASSWORD: bad })).toEqual([expect.stringMatching(/^GATEHOUSE_ENCRYPTION_PASSWORD must be 64 hex characters/)]);
    }
    expect(problems(withoutPassword, { session: false })).toEqual([]);
    // Set but malformed is still refused when the host keeps no session.
    expect(problems({ ...good, GATEHOUSE_ENCRYPTION_PASSWORD: 'short' }, { session: false })).toHaveLength(1);
  });

  it('needs the client secret when secure JWT is on', () => {
    expect(problems({ ...good, GATEHOUSE_SECURE_JWT_ENABLED: 'true' })).toEqual(['GATEHOUSE_CLIENT_SECRET is required when GATEHOUSE_SECURE_JWT_ENABLED is on.']);
    expect(checkEnvironment({ ...good, GATEHOUSE_SECURE_JWT_ENABLED: 'true', GATEHOUSE_CLIENT_SECRET: 's3cret' })).toMatchObject({ secureJwt: true, clientSecret: 's3cret' });
    expect(problems({ ...good, GATEHOUSE_SECURE_JWT_ENABLED: 'yes' })).toEqual(['GATEHOUSE_SECURE_JWT_ENABLED must be true or false.']);
  });

  it('refuses a hosted-login setting that conflicts with the hostedLogin option', () => {
    expect(problems({ ...good, GATEHOUSE_HOSTED_LOGIN: 'false' }, { hostedLogin: true })).toEqual(['GATEHOUSE_HOSTED_LOGIN is false but the hostedLogin option is true: set one of them, or make them agree.']);
    expect(checkEnvironment({ ...good, GATEHOUSE_HOSTED_LOGIN: 'true' }, { hostedLogin: true }).hostedLogin).toBe(true);
    expect(checkEnvironment({ ...good, GATEHOUSE_HOSTED_LOGIN: 'true' }).hostedLogin).toBe(true);
    expect(checkEnvironment(good, { hostedLogin: true }).hostedLogin).toBe(true);
  });

  it('reports every problem at once, one sentence each, and never echoes a secret', () => {
    const secret = 'x'.repeat(64);
    let message = '';
    try {
      checkEnvironment({ GATEHOUSE_ENCRYPTION_PASSWORD: secret, GATEHOUSE_SECURE_JWT_ENABLED: '1' });
    } catch (err) {
      message = (err as Error).message;
      expect((err as GatehouseEnvironmentError).problems).toHaveLength(4);
    }
    expect(message).toContain('GATEHOUSE_CLIENT_SECRET');
    expect(message).not.toContain(secret);
  });
});
