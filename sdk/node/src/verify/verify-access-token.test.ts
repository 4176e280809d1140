import { getRequestListener } from '@hono/node-server';
import { createSign, generateKeyPairSync } from 'node:crypto';
import { generateKeyPair, SignJWT } from 'jose';
import { expect, it } from 'vitest';
import { insertSigningKey } from '../../../../server/src/db/queries/signing-keys.js';
import { newId } from '../../../../server/src/crypto.js';
import { signIn, tenantWithAdmin } from '../../../../server/src/test/admin-helpers.js';
import { describeDialects, movableClock } from '../../../../server/src/test/harness.js';
import { isGatehouseAuthError } from '../errors.js';
import { countingFetch, JWKS_PATH, listen, sdkOptions } from '../test/gatehouse.js';
import { JWKS_COOLDOWN_MS } from './key-set.js';
import { verifyAccessToken } from './verify-access-token.js';

/** The rejection of a verification (it must reject). */
async function refusal(promise: Promise<unknown>) {
  const err = await promise.then(
    () => {
      throw new Error('verification passed');
    },
    (e: unknown) => e,
  );
  expect(isGatehouseAuthError(err)).toBe(true);
  return err as { status: number; message: string };
}

const headerOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as { kid: string; alg: string };

describeDialects('sdk/node verifyAccessToken against a Gatehouse server', (harness) => {
  it("verifies a signed-in user's access token by its kid, with one key-set fetch for many verifications", async () => {
    const server = await harness.start();
    const admin = await tenantWithAdmin(server);
    const fetch = countingFetch(server);
    const claims = await verifyAccessToken(admin.accessToken, sdkOptions(server, fetch));
    expect(claims).toMatchObject({ sub: admin.userId, tenantId: admin.tenantId, iss: server.config.publicUrl, aud: server.config.clientId });
    expect(claims.permissions!.length).toBeGreaterThan(0);
    for (let i = 0; i < 20; i++) await verifyAccessToken(admin.accessToken, sdkOptions(server, fetch));
    expect(fetch.count(JWKS_PATH)).toBe(1);
    // A base URL with a trailing slash names the same issuer.
    expect((await verifyAccessToken(admin.accessToken, { ...sdkOptions(server, fetch), baseUrl: `${server.config.publicUrl}/` })).sub).toBe(admin.userId);
  });

  it('verifies tokens of a rotated key and of the key before it, concurrently, without one failed verification', async () => {
    const server = await harness.start();
    const admin = await tenantWithAdmin(server);
    const fetch = countingFetch(server);
    const options = sdkOptions(server, fetch);
    await verifyAccessToken(admin.accessToken, options);
    const newKid = await server.rotateKeys();
    const fresh = (await signIn(server, admin.email)).body.accessToken as string;
    expect(headerOf(fresh).kid).toBe(newKid);
    expect(headerOf(admin.accessToken).kid).not.toBe(newKid);
    const results = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => verifyAccessToken(i % 2 ? fresh : admin.accessToken, options)));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    // The new kid caused one read, shared by the concurrent verifications.
    expect(fetch.count(JWKS_PATH)).toBe(2);
  });

  it('reads the key set at most once per 30 s under a flood of tokens with unknown kids, and again after 10 minutes', async () => {
    const clock = movableClock();
    const server = await harness.start({}, { clock });
    const admin = await tenantWithAdmin(server);
    const fetch = countingFetch(server);
    const options = sdkOptions(server, fetch, clock.now);
    await verifyAccessToken(admin.accessToken, options);
    const { privateKey } = await generateKeyPair('ES256');
    const forged = (kid: string) =>
      new SignJWT({ tenantId: admin.tenantId }).setProtectedHeader({ alg: 'ES256', kid }).setIssuer(server.config.publicUrl).setAudience(server.config.clientId).setSubject(admin.userId).setExpirationTime('5m').sign(privateKey);
    const flood = async (n: number) => {
      const tokens = await Promise.all(Array.from({ length: n }, () => forged(newId())));
      const results = await Promise.allSettled(tokens.map((t) => verifyAccessToken(t, options)));
      for (const r of results) expect(r.status === 'rejected' && isGatehouseAuthError(r.reason) && r.reason.status === 401).toBe(true);
    };
    await flood(200);
    expect(fetch.count(JWKS_PATH)).toBe(2);
    clock.advance(JWKS_COOLDOWN_MS - 1000);
    await flood(200);
    expect(fetch.count(JWKS_PATH)).toBe(2);
    clock.advance(1000);
    await flood(200);
    expect(fetch.count(JWKS_PATH)).toBe(3);
    // Real tokens kept verifying through the flood, from the cache.
    expect((await verifyAccessToken(admin.accessToken, options)).sub).toBe(admin.userId);
    expect(fetch.count(JWKS_PATH)).toBe(3);
    clock.advance(10 * 60_000);
    const later = (await signIn(server, admin.email)).body.accessToken as string;
    expect((await verifyAccessToken(later, options)).sub).toBe(admin.userId);
    expect(fetch.count(JWKS_PATH)).toBe(4);
  });

  it('keeps verifying with the keys it holds when the re-read after 10 minutes fails (server unreachable), trying again once per 30 s', async () => {
    const clock = movableClock();
    const server = await harness.start({ ACCESS_TOKEN_TTL: '3600' }, { clock });
    const admin = await tenantWithAdmin(server);
    // The server on a real port; the SDK's requests for its base URL go there, until it stops listening.
    const listener = await listen(getRequestListener(server.fetch));
    let attempts = 0;
    const fetch = (input: string, init?: RequestInit) => {
      attempts += 1;
      const url = new URL(input);
      return globalThis.fetch(`${listener.url}${url.pathname}`, init);
    };
    const options = sdkOptions(server, fetch, clock.now);
    await verifyAccessToken(admin.accessToken, options);
    await listener.close();
    clock.advance(10 * 60_000 + 1000);
    expect((await verifyAccessToken(admin.accessToken, options)).sub).toBe(admin.userId);
    expect(attempts).toBe(2);
    clock.advance(JWKS_COOLDOWN_MS - 1000);
    expect((await verifyAccessToken(admin.accessToken, options)).sub).toBe(admin.userId);
    expect(attempts).toBe(2);
    clock.advance(1000);
    expect((await verifyAccessToken(admin.accessToken, options)).sub).toBe(admin.userId);
    expect(attempts).toBe(3);
  });

  it('verifies RS256 tokens of a 2048-bit key and refuses those of a key under 2048 bits', async () => {
    const server = await harness.start({ GATEHOUSE_SIGNING_ALG: 'RS256' });
    const admin = await tenantWithAdmin(server);
    const fetch = countingFetch(server);
    expect(headerOf(admin.accessToken).alg).toBe('RS256');
    expect((await verifyAccessToken(admin.accessToken, sdkOptions(server, fetch))).sub).toBe(admin.userId);

    // The server publishes, besides its own, a 1024-bit and a 2048-bit RSA key (retired keys still
    // in their overlap window); a token signed by each with the same claims: only the weak one is refused.
    const published = async (bits: number) => {
      const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: bits });
      const kid = newId();
      const jwk = { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
      await insertSigningKey(server.db, { kid, alg: 'RS256', public_jwk: JSON.stringify(jwk), private_jwk: '{}', status: 'retired', created_at: Date.now(), not_after: Date.now() + 3_600_000 });
      const head = Buffer.from(JSON.stringify({ alg: 'RS256', kid, typ: 'JWT' })).toString('base64url');
      const body = admin.accessToken.split('.')[1]!;
      return `${head}.${body}.${createSign('RSA-SHA256').update(`${head}.${body}`).sign(privateKey).toString('base64url')}`;
    };
    const weak = await published(1024);
    const strong = await published(2048);
    await server.keys.ensureKeys(); // re-reads its keys now rather than within its one-minute cache
    const options = sdkOptions(server, countingFetch(server));
    expect((await verifyAccessToken(strong, options)).sub).toBe(admin.userId);
    expect((await refusal(verifyAccessToken(weak, options))).status).toBe(401);
  });

  it('refuses a token for another issuer, another audience, an expired token, an ID token, a bad signature and garbage, each with status 401', async () => {
    const server = await harness.start();
    const admin = await tenantWithAdmin(server);
    const fetch = countingFetch(server);
    const clock = movableClock();
    const options = sdkOptions(server, fetch, clock.now);
    expect((await verifyAccessToken(admin.accessToken, options)).sub).toBe(admin.userId);
    expect((await refusal(verifyAccessToken(admin.accessToken, { ...options, baseUrl: 'http://127.0.0.1:8787' }))).status).toBe(401);
    expect((await refusal(verifyAccessToken(admin.accessToken, { ...options, clientId: 'another-app' }))).status).toBe(401);
    // Signed by the server's own key with its issuer, but an ID token (audience the application, no tenant).
    const idToken = await server.keys.sign({ sub: admin.userId, azp: 'notes-spa' }, Date.now() + 60_000, 'notes-spa');
    expect((await refusal(verifyAccessToken(idToken, { ...options, clientId: 'notes-spa' }))).status).toBe(401);
    const [h, p, s] = admin.accessToken.split('.');
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), superUser: true })).toString('base64url')}.${s}`;
    expect((await refusal(verifyAccessToken(tampered, options))).status).toBe(401);
    for (const garbage of ['', 'x', 'a.b.c', `${h}.${p}.`]) expect((await refusal(verifyAccessToken(garbage, options))).status).toBe(401);
    // Access tokens live 300 s; past that (and the 5 s tolerance) the token is refused.
    clock.advance(306_000);
    expect((await refusal(verifyAccessToken(admin.accessToken, options))).status).toBe(401);
  });
});
