import * as Iron from '@hapi/iron';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isGatehouseSessionError, SessionErrorMessages } from './errors.js';
import { constantTimeEqual, seal, unseal } from './iron.js';

const PASSWORD = 'a-session-password-of-at-least-32-characters';
const OTHER = 'another-session-password-of-32-characters-or-more';
const SESSION = { userId: 'u-1', tenantId: 't-1', accessToken: 'eyJ.a.b', nested: { roles: ['Admin'], n: 42 }, text: 'päßwörd ✓' };
const ironOptions = (ttl = 0) => ({ ...Iron.defaults, ttl });

/** Rejects with the GatehouseSessionError of `reason`. */
async function refused(promise: Promise<unknown>, reason: keyof typeof SessionErrorMessages) {
  const err = await promise.then(() => null, (e: unknown) => e);
  expect(isGatehouseSessionError(err), String(err)).toBe(true);
  expect((err as { reason: string }).reason).toBe(reason);
  expect((err as Error).message.startsWith(SessionErrorMessages[reason])).toBe(true);
}

/** Replaces part `index` of a sealed value. */
function withPart(sealed: string, index: number, value: string): string {
  const parts = sealed.split('*');
  parts[index] = value;
  return parts.join('*');
}

describe('iron format 2: round trips with @hapi/iron', () => {
  it('a value we seal has 8 parts, the Fe26.2 prefix, and @hapi/iron unseals it', async () => {
    const sealed = await seal(SESSION, PASSWORD, { ttlMs: 60_000 });
    const parts = sealed.split('*');
    expect(parts).toHaveLength(8);
    expect(parts[0]).toBe('Fe26.2');
    expect(Number(parts[5])).toBeGreaterThan(Date.now());
    expect(await Iron.unseal(sealed, PASSWORD, ironOptions())).toEqual(SESSION);
  });

  it('a value @hapi/iron seals, we unseal (with and without an expiration)', async () => {
    expect(await unseal(await Iron.seal(SESSION, PASSWORD, ironOptions()), PASSWORD)).toEqual(SESSION);
    expect(await unseal(await Iron.seal(SESSION, PASSWORD, ironOptions(60_000)), PASSWORD)).toEqual(SESSION);
  });

  it('rotation: we seal with the newest of { id: secret }, @hapi/iron finds it by id, and the reverse', async () => {
    const passwords = { '1': OTHER, '2': PASSWORD };
    const ours = await seal(SESSION, passwords);
    expect(ours.split('*')[1]).toBe('2');
    expect(await Iron.unseal(ours, { '2': PASSWORD }, ironOptions())).toEqual(SESSION);
    // A cookie sealed before the rotation, with the old password, still opens.
    const old = await Iron.seal(SESSION, { id: '1', secret: OTHER }, ironOptions());
    expect(await unseal(old, passwords)).toEqual(SESSION);
    // Once the old password is retired, it no longer does.
    await refused(unseal(old, { '2': PASSWORD }), 'unknownPasswordId');
  });

  it('a value sealed with another password is refused for its signature', async () => {
    await refused(unseal(await Iron.seal(SESSION, OTHER, ironOptions()), PASSWORD), 'badHmac');
  });
});

describe('iron format 2: refusals (seed 000 section 5)', () => {
  it('a password under 32 characters is refused for sealing and unsealing', async () => {
    await refused(seal(SESSION, 'x'.repeat(31)), 'passwordTooShort');
    await refused(seal(SESSION, { '1': 'x'.repeat(31) }), 'passwordTooShort');
    const sealed = await seal(SESSION, PASSWORD);
    await refused(unseal(sealed, 'x'.repeat(31)), 'passwordTooShort');
    expect(await unseal(await seal(SESSION, 'x'.repeat(32)), 'x'.repeat(32))).toEqual(SESSION);
  });

  it('a sealed value without exactly 8 parts is refused', async () => {
    const sealed = await seal(SESSION, PASSWORD);
    await refused(unseal(sealed.split('*').slice(0, 7).join('*'), PASSWORD), 'partCount');
    await refused(unseal(`${sealed}*x`, PASSWORD), 'partCount');
    await refused(unseal('', PASSWORD), 'partCount');
  });

  it('a wrong prefix is refused (an older iron format too)', async () => {
    const sealed = await seal(SESSION, PASSWORD);
    await refused(unseal(withPart(sealed, 0, 'Fe26.1'), PASSWORD), 'wrongPrefix');
    await refused(unseal(withPart(sealed, 0, 'Xx99.2'), PASSWORD), 'wrongPrefix');
  });

  it('an invalid expiration is refused', async () => {
    const sealed = await seal(SESSION, PASSWORD, { ttlMs: 60_000 });
    for (const bad of ['-1', '1e20', 'soon', '12.5']) await refused(unseal(withPart(sealed, 5, bad), PASSWORD), 'invalidExpiration');
  });

  it('an expired seal is refused past the 60 s skew, and accepted within it', async () => {
    const t = 1_800_000_000_000;
    const sealed = await seal(SESSION, PASSWORD, { ttlMs: 1000, now: () => t });
    expect(await unseal(sealed, PASSWORD, { now: () => t + 1000 + 59_999 })).toEqual(SESSION);
    await refused(unseal(sealed, PASSWORD, { now: () => t + 1000 + 60_000 }), 'expired');
    // @hapi/iron draws the same line.
    const theirs = await Iron.seal(SESSION, PASSWORD, ironOptions(1000));
    const sealedAt = Number(theirs.split('*')[5]) - 1000;
    await refused(unseal(theirs, PASSWORD, { now: () => sealedAt + 1000 + 60_000 }), 'expired');
  });

  it('tampering with any part is refused by the signature (extending the expiration included)', async () => {
    const sealed = await seal(SESSION, PASSWORD, { ttlMs: 60_000 });
    const parts = sealed.split('*');
    const flip = (s: string) => (s.at(-2) === 'A' ? s.slice(0, -2) + 'B' + s.slice(-1) : s.slice(0, -2) + 'A' + s.slice(-1));
    for (const index of [2, 3, 4, 6, 7]) await refused(unseal(withPart(sealed, index, flip(parts[index]!)), PASSWORD), 'badHmac');
    await refused(unseal(withPart(sealed, 5, String(Number(parts[5]) + 86_400_000)), PASSWORD), 'badHmac');
    // The password id is signed too: naming another valid id with the same secret is not enough.
    await refused(unseal(withPart(sealed, 1, 'x'), { x: PASSWORD, default: OTHER }), 'badHmac');
    // A forged value with a recomputed-looking but wrong signature of the right length.
    await refused(unseal(withPart(sealed, 7, 'A'.repeat(43)), PASSWORD), 'badHmac');
  });

  it('a password id that is not a word is refused', async () => {
    await refused(seal(SESSION, { 'a-b': PASSWORD }), 'invalidPasswordId');
    const sealed = await seal(SESSION, PASSWORD);
    await refused(unseal(withPart(sealed, 1, 'a-b'), { 'a-b': PASSWORD }), 'invalidPasswordId');
  });

  it('a __proto__ key in a sealed object does not become a prototype', async () => {
    const sealed = await Iron.seal(JSON.parse('{"a":1,"__proto__":{"polluted":true}}'), PASSWORD, ironOptions());
    const value = await unseal<Record<string, unknown>>(sealed, PASSWORD);
    expect(value).toEqual({ a: 1 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('secure random support', () => {
  afterEach(() => void vi.unstubAllGlobals());

  it('a runtime without crypto.getRandomValues cannot seal: the seed\'s error, not a weak salt', async () => {
    vi.stubGlobal('crypto', undefined);
    await refused(seal(SESSION, PASSWORD), 'noSecureRandom');
  });
});

describe('constantTimeEqual', () => {
  it('is true only for equal strings, whatever their lengths', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'ab')).toBe(false);
    expect(constantTimeEqual('', 'a')).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
  });
});
