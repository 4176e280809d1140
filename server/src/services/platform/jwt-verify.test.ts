import { createPublicKey, KeyObject, sign } from 'node:crypto';
import { exportJWK, generateKeyPair, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { signJobsDuring } from '../../test/crypto-jobs';
import { verifyJwt } from './jwt-verify';

const NOW = 1_800_000_000_000;
const ISSUER = 'https://id.example.com';
const AUDIENCE = 'demo-client';
const options = { algorithms: ['ES256', 'RS256'], issuer: ISSUER, audience: AUDIENCE, now: NOW };
const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

type Pair = { privateKey: CryptoKey; publicKey: KeyObject; webPublic: CryptoKey };
const keys: Record<'ES256' | 'RS256', Pair> = {} as never;

beforeAll(async () => {
  for (const alg of ['ES256', 'RS256'] as const) {
    const pair = await generateKeyPair(alg, { extractable: true });
    keys[alg] = { privateKey: pair.privateKey, webPublic: pair.publicKey, publicKey: createPublicKey({ key: (await exportJWK(pair.publicKey)) as never, format: 'jwk' }) };
  }
});

function claims(extra: Record<string, unknown> = {}): JWTPayload {
  return { sub: 'user-1', iss: ISSUER, aud: AUDIENCE, iat: NOW / 1000 - 10, exp: NOW / 1000 + 300, ...extra };
}

async function signed(alg: 'ES256' | 'RS256', payload: JWTPayload, header: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg, kid: 'k1', typ: 'JWT', ...header } as never).sign(keys[alg].privateKey);
}

/** A token signed as is, by hand (ES256), for headers jose would not sign. */
function rawSigned(header: Record<string, unknown>, payload: JWTPayload, dsaEncoding: 'ieee-p1363' | 'der' = 'ieee-p1363'): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${sign('sha256', Buffer.from(input), { key: KeyObject.from(keys.ES256.privateKey), dsaEncoding }).toString('base64url')}`;
}

/** Our verdict and jose's on the same token and key. */
async function verdicts(token: string, alg: 'ES256' | 'RS256' = 'ES256', keyAlg: 'ES256' | 'RS256' = alg) {
  const ours = await verifyJwt(token, async () => keys[keyAlg].publicKey, options).then(
    () => 'accepted',
    () => 'rejected',
  );
  const jose = await jwtVerify(token, keys[keyAlg].webPublic, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['ES256', 'RS256'], currentDate: new Date(NOW) }).then(
    () => 'accepted',
    () => 'rejected',
  );
  return { ours, jose };
}

describe('verifyJwt (node:crypto) against jose jwtVerify', () => {
  it('accepts what jose accepts: ES256 and RS256 tokens for this issuer and audience, aud as a list too', async () => {
    for (const alg of ['ES256', 'RS256'] as const) {
      const token = await signed(alg, claims());
      expect(await verdicts(token, alg)).toEqual({ ours: 'accepted', jose: 'accepted' });
      expect(await verifyJwt(token, async () => keys[alg].publicKey, options)).toMatchObject({ sub: 'user-1' });
      expect(await verdicts(await signed(alg, claims({ aud: ['other', AUDIENCE] })), alg)).toEqual({ ours: 'accepted', jose: 'accepted' });
    }
    // The hand-signed tokens below fail for their headers alone: the same signing with a plain header passes.
    expect(await verdicts(rawSigned({ alg: 'ES256', kid: 'k1', typ: 'JWT' }, claims()))).toEqual({ ours: 'accepted', jose: 'accepted' });
  });

  it('rejects what jose rejects: claims that do not fit, tampering, foreign algorithms and header tricks', async () => {
    const cases: Record<string, string> = {
      'wrong issuer': await signed('ES256', claims({ iss: 'https://evil.example.com' })),
      'wrong audience': await signed('ES256', claims({ aud: 'other-client' })),
      'expired at this second': await signed('ES256', claims({ exp: NOW / 1000 })),
      'not valid yet': await signed('ES256', claims({ nbf: NOW / 1000 + 60 })),
      'iat not a number': await signed('ES256', claims({ iat: 'yesterday' })),
      'exp not a number': await signed('ES256', claims({ exp: String(NOW / 1000 + 300) })),
      'crit header': rawSigned({ alg: 'ES256', kid: 'k1', crit: ['exp'], exp: 1 }, claims()),
      'unencoded payload': rawSigned({ alg: 'ES256', kid: 'k1', b64: false, crit: ['b64'] }, claims()),
      'DER signature': rawSigned({ alg: 'ES256', kid: 'k1', typ: 'JWT' }, claims(), 'der'),
      'alg none': `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims())}.`,
      'HS256 with the public key as secret': await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256' }).sign(keys.ES256.publicKey.export({ format: 'der', type: 'spki' })),
    };
    const good = (await signed('ES256', claims())).split('.');
    cases['payload swapped'] = `${good[0]}.${b64(claims({ sub: 'admin' }))}.${good[2]}`;
    cases['not three parts'] = `${good[0]}.${good[1]}`;
    for (const [name, token] of Object.entries(cases)) expect(await verdicts(token), name).toEqual({ ours: 'rejected', jose: 'rejected' });
  });

  it('rejects a token whose header names an algorithm the key is not for, and a token without exp', async () => {
    expect((await verdicts(await signed('RS256', claims()), 'RS256', 'ES256')).ours).toBe('rejected');
    const { exp: _exp, ...noExp } = claims();
    await expect(verifyJwt(await signed('ES256', noExp), async () => keys.ES256.publicKey, options)).rejects.toThrow(/exp/);
  });

  // As signing (keys.test.ts): the check runs on libuv's thread pool and calls back into the event
  // loop; the synchronous form does not (test/crypto-jobs.ts).
  it('checks signatures on the thread pool, not on the event loop (ES256 and RS256), and still refuses a bad one', async () => {
    for (const alg of ['ES256', 'RS256'] as const) {
      const token = await signed(alg, claims());
      const [header, payload, signature] = token.split('.') as [string, string, string];
      const bytes = Buffer.from(signature, 'base64url');
      bytes[5] = bytes[5]! ^ 1;
      const { jobs, calledBack } = await signJobsDuring(async () => {
        expect(await verifyJwt(token, async () => keys[alg].publicKey, options), alg).toMatchObject({ sub: 'user-1' });
        await expect(verifyJwt(`${header}.${payload}.${bytes.toString('base64url')}`, async () => keys[alg].publicKey, options), alg).rejects.toThrow(/signature verification failed/);
      });
      expect(jobs.size, alg).toBe(2);
      expect(calledBack, alg).toEqual(jobs);
    }
  });
});
