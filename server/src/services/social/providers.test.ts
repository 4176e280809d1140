/**
 * The built-in providers that cannot be reached from tests (no internet): how each one's account is
 * read, which emails count as verified, how SOCIAL_LOGIN_PROVIDERS is checked, and Apple's client
 * secret. The whole flow runs against a real OpenID Connect provider in routes/social/login.test.ts.
 */
import { generateKeyPairSync } from 'node:crypto';
import { decodeProtectedHeader, importSPKI, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { socialLoginConfig } from './config';
import { appleClientSecret } from './oauth';
import { readProfile } from './providers';

const fail = (message: string) => new Error(message);
const parse = (providers: unknown) => socialLoginConfig({ providers: JSON.stringify(providers), allowSignUp: true, stateTtl: 600 }, fail);

describe('reading a provider account', () => {
  it('OIDC (Google, LinkedIn, Slack, custom): email_verified decides, the ID token wins over UserInfo', () => {
    expect(readProfile('oidc', { idClaims: { sub: 's1', email: 'Ada@Example.com', email_verified: true, name: 'Ada' } }, false)).toEqual({ subject: 's1', email: 'ada@example.com', emailVerified: true, name: 'Ada' });
    expect(readProfile('oidc', { idClaims: { sub: 's1' }, userinfo: { sub: 's1', email: 'a@x.io', email_verified: false, given_name: 'Ada', family_name: 'L' } }, true)).toEqual({ subject: 's1', email: 'a@x.io', emailVerified: false, name: 'Ada L' });
    // Silent about verification: unverified unless the vendor trusts the provider.
    expect(readProfile('oidc', { idClaims: { sub: 's1', email: 'a@x.io' } }, false).emailVerified).toBe(false);
    expect(readProfile('oidc', { idClaims: { sub: 's1', email: 'a@x.io' } }, true).emailVerified).toBe(true);
    expect(() => readProfile('oidc', { idClaims: { email: 'a@x.io' } }, false)).toThrow(/subject/);
  });

  it('regression: an address that lowercasing folds into ASCII (KELVIN SIGN -> k) is never verified, so it cannot take over kate@', () => {
    // 'K' (U+212A).toLowerCase() is 'k': linked by email, it would be the account of kate@example.com.
    const kelvin = '\u212Aate@example.com';
    for (const reader of ['oidc', 'microsoft', 'apple'] as const) {
      expect(readProfile(reader, { idClaims: { sub: 's', email: kelvin, email_verified: true, xms_edov: true } }, true), reader).toMatchObject({ email: 'kate@example.com', emailVerified: false });
    }
    expect(readProfile('github', { userinfo: { id: 1 }, emails: [{ email: kelvin, primary: true, verified: true }] }, true).emailVerified).toBe(false);
    expect(readProfile('facebook', { userinfo: { id: '1', email: kelvin } }, true).emailVerified).toBe(false);
    expect(readProfile('oidc', { idClaims: { sub: 's', email: '\u0130lker@example.com', email_verified: true } }, false).emailVerified).toBe(false);
    // Non-ASCII letters that stay non-ASCII are ordinary addresses.
    expect(readProfile('oidc', { idClaims: { sub: 's', email: 'J\u00dcRGEN@example.com', email_verified: true } }, false)).toMatchObject({ email: 'j\u00fcrgen@example.com', emailVerified: true });
  });

  it('Microsoft: the email counts as verified only with xms_edov (the domain owner verified it)', () => {
    expect(readProfile('microsoft', { idClaims: { sub: 'm', email: 'a@contoso.com' } }, false).emailVerified).toBe(false);
    expect(readProfile('microsoft', { idClaims: { sub: 'm', email: 'a@contoso.com', xms_edov: false } }, true).emailVerified).toBe(false);
    expect(readProfile('microsoft', { idClaims: { sub: 'm', email: 'a@contoso.com', xms_edov: true } }, false).emailVerified).toBe(true);
  });

  it("Apple: email_verified arrives as the string 'true'; the name only in the first sign-in's form field", () => {
    const profile = readProfile('apple', { idClaims: { sub: 'a', email: 'x@privaterelay.appleid.com', email_verified: 'true' }, providerUser: '{"name":{"firstName":"Ada","lastName":"Lovelace"}}' }, false);
    expect(profile).toEqual({ subject: 'a', email: 'x@privaterelay.appleid.com', emailVerified: true, name: 'Ada Lovelace' });
    expect(readProfile('apple', { idClaims: { sub: 'a', email: 'x@y.z', email_verified: 'false' }, providerUser: 'not json' }, false)).toMatchObject({ emailVerified: false, name: null });
  });

  it("GitHub: the primary address from the emails API with its verified flag; the profile's email alone is not trusted", () => {
    const user = { id: 583231, login: 'octocat', name: null, email: 'public@example.com' };
    expect(readProfile('github', { userinfo: user, emails: [{ email: 'other@example.com', primary: false, verified: true }, { email: 'Octo@Example.com', primary: true, verified: true }] }, false)).toEqual({
      subject: '583231', email: 'octo@example.com', emailVerified: true, name: 'octocat',
    });
    expect(readProfile('github', { userinfo: user, emails: [{ email: 'octo@example.com', primary: true, verified: false }] }, true).emailVerified).toBe(false);
    expect(readProfile('github', { userinfo: user, emails: [] }, false)).toMatchObject({ email: 'public@example.com', emailVerified: false });
  });

  it('Facebook: no verified flag in the Graph API, so only trustEmail makes its email verified', () => {
    const me = { id: '10158', name: 'Ada L', email: 'ada@example.com' };
    expect(readProfile('facebook', { userinfo: me }, false)).toEqual({ subject: '10158', email: 'ada@example.com', emailVerified: false, name: 'Ada L' });
    expect(readProfile('facebook', { userinfo: me }, true).emailVerified).toBe(true);
  });
});

describe('SOCIAL_LOGIN_PROVIDERS', () => {
  it('fills in the built-in endpoints and keeps the vendor settings', () => {
    const { providers } = parse({ google: { clientId: 'g', clientSecret: 's' }, github: { clientId: 'h', clientSecret: 't', scopes: ['read:user', 'user:email'] }, microsoft: { clientId: 'm', clientSecret: 'u', tenant: 'organizations' } });
    const google = providers.find((p) => p.id === 'google')!;
    expect(google).toMatchObject({ kind: 'oidc', issuer: 'https://accounts.google.com', tokenEndpoint: 'https://oauth2.googleapis.com/token', scopes: 'openid email profile', enabled: true, tokenAuth: 'client_secret_post' });
    expect(providers.find((p) => p.id === 'github')).toMatchObject({ kind: 'oauth2', emailsEndpoint: 'https://api.github.com/user/emails', scopes: 'read:user user:email' });
    expect(providers.find((p) => p.id === 'microsoft')).toMatchObject({ discover: true, issuer: 'https://login.microsoftonline.com/organizations/v2.0' });
  });

  it('custom providers: discovery or explicit endpoints, https only (http for localhost)', () => {
    const { providers } = parse({ custom: [{ id: 'acme', displayName: 'Acme', issuer: 'https://id.acme.test', clientId: 'a', clientSecret: 'b' }, { id: 'forge', displayName: 'Forge', authorizationEndpoint: 'http://localhost:9000/auth', tokenEndpoint: 'http://localhost:9000/token', userinfoEndpoint: 'http://localhost:9000/me', clientId: 'a', clientSecret: 'b', tokenEndpointAuthMethod: 'client_secret_post' }] });
    expect(providers[0]).toMatchObject({ id: 'acme', custom: true, kind: 'oidc', discover: true, tokenAuth: 'client_secret_basic' });
    expect(providers[1]).toMatchObject({ id: 'forge', kind: 'oauth2', discover: false, scopes: 'email profile', tokenAuth: 'client_secret_post' });
  });

  it('refuses settings that cannot work, saying what to fix', () => {
    expect(() => parse({ gitlab: {} })).toThrow('unknown provider "gitlab"');
    expect(() => parse({ google: { clientId: 'g' } })).toThrow('google needs "clientSecret"');
    expect(() => parse({ apple: { clientId: 'a', teamId: 't', keyId: 'k', privateKey: 'nope' } })).toThrow(/apple.privateKey/);
    expect(() => parse({ custom: [{ id: 'google', displayName: 'G', issuer: 'https://x.test', clientId: 'a', clientSecret: 'b' }] })).toThrow(/built-in provider/);
    expect(() => parse({ custom: [{ id: 'Bad Id', displayName: 'B', issuer: 'https://x.test', clientId: 'a', clientSecret: 'b' }] })).toThrow(/lowercase/);
    expect(() => parse({ custom: [{ id: 'plain', displayName: 'P', issuer: 'http://idp.example.com', clientId: 'a', clientSecret: 'b' }] })).toThrow(/must be https/);
    expect(() => parse({ custom: [{ id: 'half', displayName: 'H', authorizationEndpoint: 'https://x.test/a', clientId: 'a', clientSecret: 'b' }] })).toThrow(/both "authorizationEndpoint" and "tokenEndpoint"/);
    expect(() => parse({ custom: [{ id: 'noinfo', displayName: 'N', authorizationEndpoint: 'https://x.test/a', tokenEndpoint: 'https://x.test/t', clientId: 'a', clientSecret: 'b' }] })).toThrow(/needs "userinfoEndpoint"/);
    expect(() => socialLoginConfig({ providers: '{not json', allowSignUp: true, stateTtl: 600 }, fail)).toThrow(/must be a JSON object/);
  });
});

describe("Apple's client secret", () => {
  it('is an ES256 JWT from the team to Apple about the client id, signed with the configured key, short-lived', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const [apple] = parse({ apple: { clientId: 'com.example.web', teamId: 'TEAM123456', keyId: 'KEY1234567', privateKey: pem } }).providers;
    const secret = await appleClientSecret(apple!);
    expect(decodeProtectedHeader(secret)).toEqual({ alg: 'ES256', kid: 'KEY1234567' });
    const { payload } = await jwtVerify(secret, await importSPKI(publicKey.export({ type: 'spki', format: 'pem' }).toString(), 'ES256'), { issuer: 'TEAM123456', audience: 'https://appleid.apple.com', subject: 'com.example.web' });
    expect(payload.exp! - payload.iat!).toBeLessThanOrEqual(300);
  });
});
