import { createPublicKey, generateKeyPairSync, sign as signWith, verify, type KeyObject } from 'node:crypto';
import { setImmediate as turn } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createSignerThread, type SignerThread, type ThreadSigningKey } from './signer-thread';

/** The pool's way, as keys.ts signs RS256 and a failed thread's tokens: here synchronous, counted. */
function poolSigner() {
  const calls: string[] = [];
  const sign = async (key: ThreadSigningKey, payload: string) => {
    calls.push(payload);
    const input = `${key.header}.${Buffer.from(payload).toString('base64url')}`;
    return `${input}.${signWith('sha256', Buffer.from(input), { key: key.key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
  };
  return { calls, sign };
}

function es256Key(kid: string): ThreadSigningKey & { publicKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { kid, key: privateKey, publicKey, header: Buffer.from(JSON.stringify({ alg: 'ES256', kid, typ: 'JWT' })).toString('base64url') };
}

/** The token's payload when its ES256 signature (raw r||s) verifies under `publicKey`, else null. */
function payloadIfValid(token: string, publicKey: KeyObject): unknown {
  const [header, payload, signature] = token.split('.');
  const ok = verify('sha256', Buffer.from(`${header}.${payload}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature!, 'base64url'));
  return ok ? JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) : null;
}

describe('signer thread', () => {
  let thread: SignerThread | null = null;
  afterEach(async () => {
    await thread?.close();
    thread = null;
  });

  it('signs the tokens asked for in one turn in batches of at most 8 off the thread pool, each over its own payload', async () => {
    const pool = poolSigner();
    thread = createSignerThread(pool.sign);
    const key = es256Key('k1');
    const asked = Array.from({ length: 20 }, (_, i) => thread!.sign(key, JSON.stringify({ sub: `user-${i}`, n: i })));
    // Each full batch leaves at once, while the turn goes on; the rest leave at its end.
    expect(thread.counts()).toEqual({ batches: 2, tokens: 16, onPool: 0 });
    const tokens = await Promise.all(asked);
    expect(thread.counts()).toEqual({ batches: 3, tokens: 20, onPool: 0 });
    expect(pool.calls).toEqual([]);
    tokens.forEach((token, i) => {
      expect(token.split('.')[0]).toBe(key.header);
      expect(payloadIfValid(token, key.publicKey)).toEqual({ sub: `user-${i}`, n: i });
    });
    // The next turn's tokens are the next batch.
    await thread.sign(key, '{"sub":"later"}');
    expect(thread.counts()).toEqual({ batches: 4, tokens: 21, onPool: 0 });
  });

  it('signs with the key it is given when a key id comes back with other key material, and with more keys than it keeps', async () => {
    const pool = poolSigner();
    thread = createSignerThread(pool.sign);
    const first = es256Key('same-kid');
    const second = es256Key('same-kid');
    const a = await thread.sign(first, '{"sub":"a"}');
    const b = await thread.sign(second, '{"sub":"b"}');
    expect(payloadIfValid(a, first.publicKey)).toEqual({ sub: 'a' });
    expect(payloadIfValid(b, second.publicKey)).toEqual({ sub: 'b' });
    expect(payloadIfValid(b, first.publicKey)).toBeNull();
    // Twelve keys in one turn, then the first of them again after the thread dropped it.
    const keys = Array.from({ length: 12 }, (_, i) => es256Key(`kid-${i}`));
    const tokens = await Promise.all(keys.map((k, i) => thread!.sign(k, JSON.stringify({ i }))));
    tokens.forEach((token, i) => expect(payloadIfValid(token, keys[i]!.publicKey)).toEqual({ i }));
    expect(payloadIfValid(await thread.sign(keys[0]!, '{"again":true}'), keys[0]!.publicKey)).toEqual({ again: true });
    expect(pool.calls).toEqual([]);
  });

  it('hands the tokens the thread still holds to the thread pool when it stops, and loses none', async () => {
    const pool = poolSigner();
    thread = createSignerThread(pool.sign);
    const key = es256Key('k1');
    const pending = Array.from({ length: 200 }, (_, i) => thread!.sign(key, JSON.stringify({ i })));
    await turn(); // the batches have been posted
    await thread.close();
    const tokens = await Promise.all(pending);
    tokens.forEach((token, i) => expect(payloadIfValid(token, key.publicKey)).toEqual({ i }));
    expect(thread.counts()).toMatchObject({ batches: 25, tokens: 200 });
    // A later token starts a new thread.
    expect(payloadIfValid(await thread.sign(key, '{"after":"close"}'), key.publicKey)).toEqual({ after: 'close' });
    expect(thread.counts().batches).toBe(26);
  });

  it("answers a key that cannot sign with node's own error, and still signs the other tokens of its batch", async () => {
    const pool = poolSigner();
    thread = createSignerThread(pool.sign);
    const good = es256Key('good');
    const publicOnly = { kid: 'public', key: createPublicKey(good.key), header: good.header };
    const [ok, bad] = await Promise.allSettled([thread.sign(good, '{"sub":"ok"}'), thread.sign(publicOnly, '{"sub":"bad"}')]);
    expect(ok.status === 'fulfilled' && payloadIfValid(ok.value, good.publicKey)).toEqual({ sub: 'ok' });
    expect(bad.status).toBe('rejected');
    expect(String((bad as PromiseRejectedResult).reason)).toMatch(/key|private/i);
    expect(pool.calls).toEqual(['{"sub":"bad"}']);
  });

  it('signs every token on the pool when no thread can be made, full batches posted mid-turn included, and tries a thread again only after the retry delay', async () => {
    const pool = poolSigner();
    const key = es256Key('k1');
    let clock = 0;
    // A machine where no worker thread can be made: its constructor throws, as on a process out of resources.
    const attempts = { n: 0 };
    const newWorker = (): never => {
      attempts.n += 1;
      throw new Error('ERR_WORKER_INIT_FAILED');
    };
    const signer = createSignerThread(pool.sign, { now: () => clock, newWorker });
    // 20 tokens in one turn: two full batches leave from inside sign(), the rest at the turn's end.
    const tokens = await Promise.all(Array.from({ length: 20 }, (_, i) => signer.sign(key, `{"n":${i}}`)));
    expect(tokens).toHaveLength(20);
    tokens.forEach((token, i) => expect(payloadIfValid(token, key.publicKey)).toEqual({ n: i }));
    expect(pool.calls).toHaveLength(20);
    expect(signer.counts()).toEqual({ batches: 0, tokens: 0, onPool: 20 });
    // One attempt: the failure holds the pool in place for the retry delay.
    expect(attempts.n).toBe(1);
    clock += 9_999;
    await signer.sign(key, '{"soon":true}');
    expect(attempts.n).toBe(1);
    clock += 1;
    expect(payloadIfValid(await signer.sign(key, '{"later":true}'), key.publicKey)).toEqual({ later: true });
    expect(attempts.n).toBe(2);
    expect(signer.counts()).toEqual({ batches: 0, tokens: 0, onPool: 22 });
    await signer.close();
  });
});
