import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { OperatorPaths } from '@gatehouse/shared/wire';
import { afterAll, describe, expect, it } from 'vitest';
import { createServer } from './app';
import { runCli } from './cli';
import { loadConfig } from './config';
import { findUserByEmail } from './db/queries/users';
import { auditsOf } from './test/admin-helpers';
import { call, signUpAndActivate, uniqueEmail } from './test/harness';
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

describe('npm run gatehouse -- users promote|demote', () => {
  it('promotes an existing user to super user, who may then call the Operator API, and demotes them again; each change writes an audit row in their tenant', async () => {
    // Dev mode for its mailbox, where the sign-up's activation link is read.
    const server = await createServer(loadConfig({ GATEHOUSE_DEV: '1', GATEHOUSE_DATA_DIR: dir, GATEHOUSE_PUBLIC_URL: 'http://localhost:8787' }));
    try {
      const user = await signUpAndActivate(server, uniqueEmail('operator'));
      const plans = () => call(server, 'GET', OperatorPaths.plans, { token: user.accessToken });
      expect((await plans()).status).toBe(403);

      // Case does not matter: emails are stored lower-case.
      const promoted = await cli('users', 'promote', user.email.toUpperCase());
      expect(promoted).toMatchObject({ code: 0, err: '' });
      expect(promoted.out).toBe(`${user.email} is now a super user (the vendor's operator).`);
      expect((await findUserByEmail(server.db, user.email))!.super_user).toBe(1);
      // Read from the database at each call: the same token now passes the operator guard.
      expect((await plans()).status).toBe(200);
      expect((await cli('users', 'promote', user.email)).out).toContain('is already a super user; nothing changed.');

      const demoted = await cli('users', 'demote', user.email);
      expect(demoted.code).toBe(0);
      expect(demoted.out).toBe(`${user.email} is no longer a super user.`);
      expect((await findUserByEmail(server.db, user.email))!.super_user).toBe(0);
      expect((await plans()).status).toBe(403);

      const audits = await auditsOf(server, user.tenantId);
      const rows = audits.filter((a) => a.action.startsWith('operator.user.')).reverse();
      expect(rows.map((a) => a.action)).toEqual(['operator.user.promoted', 'operator.user.demoted']);
      expect(rows.map((a) => JSON.parse(a.json!))).toEqual([
        { userId: user.userId, email: user.email, old: { superUser: false }, new: { superUser: true } },
        { userId: user.userId, email: user.email, old: { superUser: true }, new: { superUser: false } },
      ]);
      expect(rows[0]).toMatchObject({ user_id: null, user_agent: 'gatehouse CLI', severity: 'High' });
    } finally {
      await server.close();
    }
  });

  it('refuses an unknown email, a missing or extra argument and an unknown users command with exit code 1, changing nothing', async () => {
    const unknown = await cli('users', 'promote', 'nobody@example.com');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('No user with the email nobody@example.com');
    expect((await cli('users', 'demote', 'nobody@example.com')).code).toBe(1);
    const missing = await cli('users', 'promote');
    expect([missing.code, missing.err.split('\n')[0]]).toEqual([1, 'users promote takes one email address.']);
    expect((await cli('users', 'promote', 'a@example.com', 'b@example.com')).code).toBe(1);
    expect((await cli('users', 'elevate', 'a@example.com')).err).toContain('Unknown command "users elevate"');
    const help = await cli('users', 'help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('users promote <email>');
    expect(help.out).toContain('users demote <email>');
  });
});
