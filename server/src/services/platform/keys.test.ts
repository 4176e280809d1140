import { createLocalJWKSet, decodeProtectedHeader, generateKeyPair, importJWK, jwtVerify, SignJWT, type JWK } from 'jose';
import { KeyObject } from 'node:crypto';
import { ApiPaths } from '@gatehouse/shared/wire';
import { describe, expect, it } from 'vitest';
import { signJobsDuring } from '../../test/crypto-jobs';
import { call, describeDialects, movableClock, signUpAndActivate } from '../../test/harness';
import { payloadJson, signerThreadCounts } from './keys';

describeDialects('signing keys', (h) => {
  it('issues ES256 tokens with a kid that the published JWKS verifies', async () => {
    const server = await h.start();
    const { accessToken } = await signUpAndActivate(server);
    const header = decodeProtectedHeader(accessToken);
    expect(header.alg).toBe('ES256');
    expect(header.kid).toBeTruthy();
    const jwks = await call<{ keys: JWK[] }>(server, 'GET', ApiPaths.jwks);
    expect(jwks.body.keys.every((k) => k.d === undefined)).toBe(true);
    const { payload } = await jwtVerify(accessToken, createLocalJWKSet(jwks.body), { issuer: 'http://localhost:8787', audience: 'demo-client' });
    expect(payload.sub).toBeTruthy();
  });

  it('keeps the same key across restarts on the same database', async () => {
    const a = await h.start();
    const kidA = (await call(a, 'GET', ApiPaths.jwks)).body.keys.map((k: JWK) => k.kid);
    await a.close();
    const b = await h.start();
    const kidB = (await call(b, 'GET', ApiPaths.jwks)).body.keys.map((k: JWK) => k.kid);
    expect(kidB).toEqual(kidA);
  });

  it('uses RS256 keys of at least 2048 bits when configured', async () => {
    const server = await h.start({ GATEHOUSE_SIGNING_ALG: 'RS256' });
    const { accessToken } = await signUpAndActivate(server);
    const header = decodeProtectedHeader(accessToken);
    expect(header.alg).toBe('RS256');
    const jwk = (await call(server, 'GET', ApiPaths.jwks)).body.keys.find((k: JWK) => k.kid === header.kid) as JWK;
    const key = (await importJWK(jwk, 'RS256', { extractable: true })) as unknown as Parameters<typeof KeyObject.from>[0];
    const bits = KeyObject.from(key).asymmetricKeyDetails?.modulusLength;
    expect(bits).toBeGreaterThanOrEqual(2048);
    await jwtVerify(accessToken, createLocalJWKSet((await call(server, 'GET', ApiPaths.jwks)).body));
  });

  // Regression (security review M4): every token with an unknown kid re-read the key set, so forged
  // kids could make each request hit the database. Re-reads are now at most one per 5 s.
  it('re-reads the key set for an unknown kid at most once per 5 s, and then sees keys another process created', async () => {
    const clock = movableClock();
    const a = await h.start({}, { clock });
    const b = await h.start({}, { clock });
    const user = await signUpAndActivate(b);
    const forger = await generateKeyPair('ES256');
    const forged = await new SignJWT({ sub: user.userId, sid: 'x' })
      .setProtectedHeader({ alg: 'ES256', kid: 'f'.repeat(32) })
      .setIssuer('http://localhost:8787')
      .setAudience('demo-client')
      .setExpirationTime('5m')
      .sign(forger.privateKey);
    expect((await call(a, 'GET', ApiPaths.me, { token: forged })).status).toBe(401); // forces the one re-read
    expect((await call(a, 'GET', ApiPaths.me, { token: 'x.y.z' })).status).toBe(401);

    await b.rotateKeys();
    const fresh = await call(b, 'POST', ApiPaths.login, { body: { email: user.email, password: 'correct horse battery' } });
    clock.advance(1000);
    expect((await call(a, 'GET', ApiPaths.me, { token: fresh.body.accessToken })).status).toBe(401); // within the interval
    clock.advance(5000);
    expect((await call(a, 'GET', ApiPaths.me, { token: fresh.body.accessToken })).status).toBe(200); // re-read, new kid found
  });

  it('rotates with overlap: old tokens verify until their keys retire, new tokens use the new kid', async () => {
    const clock = movableClock();
    const server = await h.start({ GATEHOUSE_SIGNING_ALG: 'ES256' }, { clock });
    const before = await signUpAndActivate(server);
    const oldKid = decodeProtectedHeader(before.accessToken).kid;
    const newKid = await server.rotateKeys();
    const after = await call(server, 'POST', ApiPaths.login, { body: { email: before.email, password: 'correct horse battery' } });
    expect(decodeProtectedHeader(after.body.accessToken).kid).toBe(newKid);
    const jwks = (await call(server, 'GET', ApiPaths.jwks)).body;
    expect(jwks.keys.map((k: JWK) => k.kid)).toEqual(expect.arrayContaining([oldKid, newKid]));
    expect((await call(server, 'GET', ApiPaths.me, { token: before.accessToken })).status).toBe(200);
    clock.advance(60 * 60 * 1000);
    const later = (await call(server, 'GET', ApiPaths.jwks)).body.keys.map((k: JWK) => k.kid);
    expect(later).not.toContain(oldKid);
  });

  it('remembers a verified token for at most 1 s, checks its expiry at every use, and verifies any other string afresh', async () => {
    const clock = movableClock();
    const server = await h.start({ ACCESS_TOKEN_TTL: '10' }, { clock });
    const { accessToken } = await signUpAndActivate(server);
    const first = await server.keys.verify(accessToken);
    // The same object within 1 s: answered from memory, without a second signature check.
    clock.advance(999);
    expect(await server.keys.verify(accessToken)).toBe(first);
    clock.advance(1);
    const second = await server.keys.verify(accessToken);
    expect(second).not.toBe(first);
    expect(second).toEqual(first);
    // One changed character of the signature, or of the claims, is never the remembered token.
    const [header, payload, signature] = accessToken.split('.') as [string, string, string];
    const flipped = `${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BA' : 'AA'}`;
    await expect(server.keys.verify(flipped)).rejects.toThrow();
    expect((await call(server, 'GET', ApiPaths.me, { token: flipped })).status).toBe(401);
    // A token remembered 500 ms before it expires is refused the moment it expires.
    const expiresAt = (first.exp as number) * 1000;
    clock.set(expiresAt - 500);
    expect((await call(server, 'GET', ApiPaths.me, { token: accessToken })).status).toBe(200);
    clock.set(expiresAt);
    await expect(server.keys.verify(accessToken)).rejects.toThrow(/expired/);
    expect((await call(server, 'GET', ApiPaths.me, { token: accessToken })).status).toBe(401);
  });

  it('stores private keys encrypted when a key encryption key is set', async () => {
    const kek = 'ab'.repeat(32);
    const server = await h.start({ GATEHOUSE_KEY_ENCRYPTION_KEY: kek });
    await server.rotateKeys();
    const rows = await server.db.selectFrom('signing_keys').select(['kid', 'private_jwk', 'status']).where('status', '=', 'active').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.private_jwk.startsWith('enc:v1:')).toBe(true);
    const { accessToken } = await signUpAndActivate(server);
    await jwtVerify(accessToken, createLocalJWKSet((await call(server, 'GET', ApiPaths.jwks)).body));
    await server.close();
    await expect(h.start({ GATEHOUSE_KEY_ENCRYPTION_KEY: 'cd'.repeat(32) })).rejects.toThrow(/GATEHOUSE_KEY_ENCRYPTION_KEY differs/);
  });
});

describeDialects('token signing with node:crypto', (h) => {
  it('makes the same header and claims bytes as jose SignJWT, and third parties verify it against the JWKS (ES256 and RS256)', async () => {
    for (const alg of ['ES256', 'RS256'] as const) {
      const clock = movableClock(1_800_000_000_000);
      const server = await h.start({ GATEHOUSE_SIGNING_ALG: alg }, { clock });
      const claims = { sub: 'user-1', tenantId: 'tenant-1', roles: ['Admin'], email: 'ada@example.com' };
      const expiresAt = clock.now() + 300_000;
      const token = await server.keys.sign(claims, expiresAt);
      const [header, payload, signature] = token.split('.');

      const kid = decodeProtectedHeader(token).kid!;
      const { privateKey } = await generateKeyPair(alg);
      const expected = await new SignJWT(claims)
        .setProtectedHeader({ alg, kid, typ: 'JWT' })
        .setIssuer(server.config.publicUrl)
        .setAudience(server.config.clientId)
        .setIssuedAt(Math.floor(clock.now() / 1000))
        .setExpirationTime(Math.floor(expiresAt / 1000))
        .sign(privateKey);
      expect([header, payload], alg).toEqual(expected.split('.').slice(0, 2));
      // ES256 signatures are the raw 64-byte r||s pair JWS requires, not DER.
      if (alg === 'ES256') expect(Buffer.from(signature!, 'base64url')).toHaveLength(64);

      const jwks = (await call<{ keys: JWK[] }>(server, 'GET', ApiPaths.jwks)).body;
      const verified = await jwtVerify(token, createLocalJWKSet(jwks), { issuer: server.config.publicUrl, audience: server.config.clientId, currentDate: new Date(clock.now()) });
      expect(verified.payload).toMatchObject({ ...claims, iat: 1_800_000_000, exp: 1_800_000_300 });
      expect(await server.keys.verify(token)).toMatchObject(claims);
      // A flipped signature byte fails jose and our own verification.
      const bytes = Buffer.from(signature!, 'base64url');
      bytes[0] = bytes[0]! ^ 1;
      const forged = `${header}.${payload}.${bytes.toString('base64url')}`;
      await expect(jwtVerify(forged, createLocalJWKSet(jwks))).rejects.toThrow();
      await expect(server.keys.verify(forged)).rejects.toThrow();
      await server.close();
    }
  });

  // Issue 17: under load a process is limited by its main thread, and a signature cost it about a
  // fifth of a token grant. ES256 tokens are signed in batches on the process's signer thread
  // (signer-thread.ts): no job on libuv's pool, one message for the tokens of one turn. RS256 ones
  // go to the pool through node:crypto's callback form, which calls back into the event loop; the
  // synchronous form would not (test/crypto-jobs.ts).
  it('signs ES256 tokens in one batch on the signer thread and RS256 tokens on the thread pool, never on the event loop', async () => {
    for (const alg of ['ES256', 'RS256'] as const) {
      const server = await h.start({ GATEHOUSE_SIGNING_ALG: alg });
      await server.keys.sign({ sub: 'warm-up' }, Date.now() + 60_000); // loads the key first
      const before = signerThreadCounts() ?? { batches: 0, tokens: 0, onPool: 0 };
      const { result: tokens, jobs, calledBack } = await signJobsDuring(() => Promise.all([1, 2, 3].map((n) => server.keys.sign({ sub: `user-${n}` }, Date.now() + 60_000))));
      const after = signerThreadCounts()!;
      if (alg === 'ES256') {
        expect(jobs.size).toBe(0);
        expect({ batches: after.batches - before.batches, tokens: after.tokens - before.tokens, onPool: after.onPool - before.onPool }).toEqual({ batches: 1, tokens: 3, onPool: 0 });
      } else {
        expect(jobs.size).toBe(3);
        expect(calledBack).toEqual(jobs);
        expect(after).toEqual(before);
      }
      for (const [i, token] of tokens.entries()) expect(await server.keys.verify(token), alg).toMatchObject({ sub: `user-${i + 1}` });
      await server.close();
    }
  });
});

describe('token payloads', () => {
  const registered = { iss: 'https://id.example.test', aud: 'client-1', iat: 1_800_000_000, exp: 1_800_000_600 };
  it.each([
    ['no claims of its own', {}],
    ['claims of every JSON kind, in their order', { sub: 'u1', tenantIds: ['t1', 't2'], roles: [], nested: { a: 1, b: [null, true] }, n: 1.5, name: 'Zoë "quoted" \\ \u2028' }],
    ['a claim left undefined', { sub: 'u1', sid: undefined }],
    ['its own registered claims, which the key service replaces', { sub: 'u1', iss: 'https://evil.test', exp: 9_999_999_999, aud: ['x'] }],
  ])('writes the same JSON as spreading the claims and the registered ones: %s', (_, claims) => {
    const json = payloadJson(claims, registered);
    expect(json).toBe(JSON.stringify({ ...claims, ...registered }));
    expect(JSON.parse(json)).toMatchObject(registered);
  });
  it('writes an audience list as a list', () => {
    expect(JSON.parse(payloadJson({ sub: 'u1' }, { ...registered, aud: ['a', 'b'] })).aud).toEqual(['a', 'b']);
  });
});
