import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createServer } from './app';
import { runCli } from './cli';
import { loadConfig } from './config';
import { call } from './test/harness';
import { authorizeParams, basicAuth, pkce, tokenCall } from './test/oauth-helpers';

const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the CLI against the test's database, collecting what it prints. */
async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l), env: { GATEHOUSE_DATA_DIR: dir } });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('npm run gatehouse -- clients', () => {
  it('adds a public client the server then accepts, lists it and removes it', async () => {
    const added = await cli('clients', 'add', 'notes-spa', '--name', 'Notes', '--redirect-uri', 'https://notes.example.com/cb', '--post-logout-redirect-uri', 'https://notes.example.com/');
    expect(added.code).toBe(0);
    expect(added.out).toContain('Registered notes-spa (public, database) "Notes"');
    expect(added.out).not.toContain('secret');

    const server = await createServer(loadConfig({ GATEHOUSE_DATA_DIR: dir, GATEHOUSE_PUBLIC_URL: 'http://localhost:8787' }));
    try {
      const params = authorizeParams(pkce().challenge, { client_id: 'notes-spa', redirect_uri: 'https://notes.example.com/cb', prompt: 'none' });
      const res = await call(server, 'GET', `/oauth/authorize?${new URLSearchParams(params)}`);
      expect(res.headers.get('location')).toMatch(/^https:\/\/notes\.example\.com\/cb\?error=login_required/);
    } finally {
      await server.close();
    }

    expect((await cli('clients', 'list')).out).toContain('notes-spa (public, database) "Notes"\n  redirect URIs: https://notes.example.com/cb\n  post-logout URIs: https://notes.example.com/');
    expect((await cli('clients', 'add', 'notes-spa', '--redirect-uri', 'https://notes.example.com/cb')).err).toContain('already registered');
    expect((await cli('clients', 'remove', 'notes-spa')).code).toBe(0);
    expect((await cli('clients', 'remove', 'notes-spa')).code).toBe(1);
    expect((await cli('clients', 'list')).out).toBe('No clients registered.');
  });

  it('prints a confidential client\'s secret once and stores only its hash; the secret authenticates at the token endpoint', async () => {
    const added = await cli('clients', 'add', 'backend', '--redirect-uri', 'https://api.example.com/cb', '--confidential');
    expect(added.code).toBe(0);
    const secret = /client secret \(shown once; only its SHA-256 is stored\): (\S+)/.exec(added.out)?.[1];
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await cli('clients', 'list')).out).not.toContain(secret!);

    const server = await createServer(loadConfig({ GATEHOUSE_DATA_DIR: dir, GATEHOUSE_PUBLIC_URL: 'http://localhost:8787' }));
    try {
      const form = { grant_type: 'refresh_token', refresh_token: 'unknown' };
      // The right secret gets past client authentication (to the grant check); a wrong one does not.
      expect((await tokenCall(server, form, { authorization: basicAuth('backend', secret!) })).body.error).toBe('invalid_grant');
      expect((await tokenCall(server, form, { authorization: basicAuth('backend', 'guess') })).body.error).toBe('invalid_client');
    } finally {
      await server.close();
    }
  });

  it('refuses bad input with the reason and the usage', async () => {
    const noUri = await cli('clients', 'add', 'x');
    expect(noUri.code).toBe(1);
    expect(noUri.err).toContain('needs at least one redirect URI');
    expect(noUri.err).toContain('Usage:');
    expect((await cli('clients', 'add', 'x', '--redirect-uri', 'http://example.com/cb')).err).toContain('must be https');
    expect((await cli('clients', 'add', 'x', '--bogus')).err).toContain('Unknown option --bogus');
    expect((await cli('clients', 'frobnicate')).err).toContain('Unknown command');
    expect((await cli()).code).toBe(1);
    const secret = await cli('clients', 'secret');
    expect(secret.code).toBe(0);
    expect(secret.out).toMatch(/"clientSecretHash": "sha256:[0-9a-f]{64}"/);
  });
});
