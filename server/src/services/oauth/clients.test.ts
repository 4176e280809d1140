import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';
import { hashClientSecret, isClientOrigin, isRegisteredUri, redirectUriProblem, verifyClientSecret, type OAuthClient } from './clients';

const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-clients-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fileWith(content: unknown): string {
  const file = path.join(dir, `clients-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

const load = (file: string) => loadConfig({ OAUTH_CLIENTS_FILE: file, GATEHOUSE_DATA_DIR: dir });

describe('OAuth clients', () => {
  const registered: OAuthClient = {
    clientId: 'notes',
    name: 'Notes',
    secretHash: null,
    redirectUris: ['https://notes.example.com/cb', 'http://127.0.0.1:4000/cb'],
    postLogoutRedirectUris: ['https://notes.example.com/'],
    anyLoopback: false,
    source: 'file',
  };
  const devClient: OAuthClient = { ...registered, clientId: 'demo-spa', redirectUris: [], postLogoutRedirectUris: [], anyLoopback: true, source: 'dev' };

  it('matches redirect URIs exactly for registered clients (no port, path, case or query slack)', () => {
    expect(isRegisteredUri(registered, 'https://notes.example.com/cb', 'redirect')).toBe(true);
    expect(isRegisteredUri(registered, 'http://127.0.0.1:4000/cb', 'redirect')).toBe(true);
    for (const uri of ['http://127.0.0.1:4001/cb', 'https://notes.example.com/cb/', 'https://NOTES.example.com/cb', 'https://notes.example.com/cb?x=1', 'https://notes.example.com/']) {
      expect(isRegisteredUri(registered, uri, 'redirect'), uri).toBe(false);
    }
    expect(isRegisteredUri(registered, 'https://notes.example.com/', 'postLogout')).toBe(true);
  });

  it('lets the dev client demo-spa use any loopback http URI, on any port (RFC 8252), and nothing else', () => {
    for (const uri of ['http://localhost:5173/oauth/callback', 'http://127.0.0.1:40123/cb', 'http://[::1]:8080/', 'http://localhost/x?y=1']) {
      expect(isRegisteredUri(devClient, uri, 'redirect'), uri).toBe(true);
    }
    for (const uri of ['https://localhost:5173/cb', 'http://localhost.evil.example/cb', 'http://127.0.0.1.nip.io/cb', 'http://user@localhost:3000/cb', 'http://localhost:3000/cb#x', 'http://10.0.0.1/cb']) {
      expect(isRegisteredUri(devClient, uri, 'redirect'), uri).toBe(false);
    }
    expect(isClientOrigin(devClient, 'http://localhost:5173')).toBe(true);
    expect(isClientOrigin(devClient, 'https://evil.example')).toBe(false);
    expect(isClientOrigin(registered, 'https://notes.example.com')).toBe(true);
    expect(isClientOrigin(registered, 'https://other.example.com')).toBe(false);
  });

  it('registers only https redirect URIs, or http on a loopback host, without fragment or credentials', () => {
    expect(redirectUriProblem('https://app.example.com/cb')).toBeNull();
    expect(redirectUriProblem('http://localhost:3000/cb')).toBeNull();
    expect(redirectUriProblem('http://app.example.com/cb')).toMatch(/must be https/);
    expect(redirectUriProblem('https://app.example.com/cb#x')).toMatch(/fragment/);
    expect(redirectUriProblem('https://u:p@app.example.com/cb')).toMatch(/user name/);
    expect(redirectUriProblem('/cb')).toMatch(/absolute/);
  });

  it('stores confidential secrets as SHA-256 and checks them in constant time', () => {
    const secret = 'correct-client-secret-with-enough-entropy';
    const hash = hashClientSecret(secret);
    expect(hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(hash).not.toContain(secret);
    const client = { ...registered, secretHash: hash.slice('sha256:'.length) };
    expect(verifyClientSecret(client, secret)).toBe(true);
    expect(verifyClientSecret(client, `${secret}x`)).toBe(false);
    expect(verifyClientSecret(registered, secret)).toBe(false);
  });

  it('reads OAUTH_CLIENTS_FILE at start; a bad file stops the server with a sentence naming the setting', () => {
    const good = load(fileWith({ clients: [{ clientId: 'notes', redirectUris: ['https://notes.example.com/cb'], clientSecretHash: hashClientSecret('s3cret-s3cret-s3cret') }] }));
    expect(good.oauthClients).toHaveLength(1);
    expect(good.oauthClients[0]).toMatchObject({ clientId: 'notes', name: 'notes', postLogoutRedirectUris: [], source: 'file' });
    expect(good.oauthClients[0]!.secretHash).toMatch(/^[0-9a-f]{64}$/);

    const cases: Array<[unknown, RegExp]> = [
      ['{not json', /OAUTH_CLIENTS_FILE .* could not be read as JSON/],
      [{ apps: [] }, /must hold \{"clients": \[\.\.\.\]\}/],
      [{ clients: [{ clientId: 'bad id!', redirectUris: ['https://a.example/cb'] }] }, /clientId must be/],
      [{ clients: [{ clientId: 'a', redirectUris: [] }] }, /needs at least one redirect URI/],
      [{ clients: [{ clientId: 'a', redirectUris: ['http://a.example/cb'] }] }, /must be https/],
      [{ clients: [{ clientId: 'a', redirectUris: ['https://a.example/cb'], clientSecretHash: 'plain-secret' }] }, /clientSecretHash must be sha256/],
      [{ clients: [{ clientId: 'demo-client', redirectUris: ['https://a.example/cb'] }] }, /GATEHOUSE_CLIENT_ID/],
      [{ clients: [{ clientId: 'a', redirectUris: ['https://a.example/cb'] }, { clientId: 'a', redirectUris: ['https://a.example/cb'] }] }, /twice/],
    ];
    for (const [content, message] of cases) {
      expect(() => load(fileWith(content)), String(message)).toThrow(ConfigError);
      expect(() => load(fileWith(content))).toThrow(message);
    }
    expect(() => load(path.join(dir, 'missing.json'))).toThrow(/OAUTH_CLIENTS_FILE/);
  });
});
