import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('passkey settings', () => {
  it('defaults the RP ID to the public host and keeps only origins it covers', () => {
    const config = loadConfig({ GATEHOUSE_PUBLIC_URL: 'https://id.example.com', GATEHOUSE_ALLOWED_ORIGINS: 'https://id.example.com,https://other.test' });
    expect(config.webauthn).toEqual({ rpId: 'id.example.com', rpName: 'Gatehouse', origins: ['https://id.example.com'], passkeysPrompt: false });
  });

  it('accepts a parent domain as RP ID, covering the app origins below it', () => {
    const config = loadConfig({
      GATEHOUSE_PUBLIC_URL: 'https://id.example.com',
      GATEHOUSE_ALLOWED_ORIGINS: 'https://app.example.com,https://example.com,https://notexample.com',
      WEBAUTHN_RP_ID: 'Example.com',
      WEBAUTHN_RP_NAME: 'Acme',
      PASSKEYS_PROMPT: 'on',
    });
    expect(config.webauthn).toEqual({ rpId: 'example.com', rpName: 'Acme', origins: ['https://id.example.com', 'https://app.example.com', 'https://example.com'], passkeysPrompt: true });
  });

  it('refuses an RP ID that no page could use, with a sentence naming the setting', () => {
    expect(() => loadConfig({ GATEHOUSE_PUBLIC_URL: 'https://id.example.com', WEBAUTHN_RP_ID: 'evil.test' })).toThrow(ConfigError);
    expect(() => loadConfig({ GATEHOUSE_PUBLIC_URL: 'https://id.example.com', WEBAUTHN_RP_ID: 'evil.test' })).toThrow(/WEBAUTHN_RP_ID \(evil\.test\)/);
    expect(() => loadConfig({ WEBAUTHN_RP_ID: 'https://example.com' })).toThrow(/WEBAUTHN_RP_ID must be a host name/);
  });
});
