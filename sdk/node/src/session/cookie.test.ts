import * as Iron from '@hapi/iron';
import { describe, expect, it } from 'vitest';
import {
  clearSessionCookies,
  COOKIE_SIZE_CAP,
  createSessionCookies,
  readSession,
  sealedSessionFrom,
  sessionCookieName,
  splitSealedSession,
  type SessionCookieOptions,
} from './cookie.js';
import { isGatehouseSessionError } from './errors.js';

const PASSWORD = 'a-session-password-of-at-least-32-characters';
const CLIENT_ID = '3f1c2a4e-8d7b-4c1a-9e2f-0a1b2c3d4e5f';
const NAME = 'gh_session_3f1c2a4e8d7b4c1a9e2f0a1b2c3d4e5f';
const options: SessionCookieOptions = { clientId: CLIENT_ID, password: PASSWORD };

/** The Cookie request header a browser sends back for these Set-Cookie values (expired ones dropped). */
function browserSends(setCookies: string[], before: Map<string, string> = new Map()): string {
  const jar = new Map(before);
  for (const c of setCookies) {
    const [pair] = c.split(';');
    const name = pair!.slice(0, pair!.indexOf('='));
    if (/Max-Age=0/.test(c)) jar.delete(name);
    else jar.set(name, pair!.slice(name.length + 1));
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
}
const jarOf = (header: string) => new Map(header.split('; ').filter(Boolean).map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)] as [string, string]));
const bigSession = (chars: number) => ({ userId: 'u-1', accessToken: 'x'.repeat(chars) });

describe('session cookie (seed 000 section 9)', () => {
  it('is named the session prefix plus the client id without dashes', () => {
    expect(sessionCookieName(CLIENT_ID)).toBe(NAME);
  });

  it('lives 15 days as a seal, its Max-Age 60 s less; HttpOnly, Secure, SameSite=None by default', async () => {
    const t = 1_800_000_000_000;
    const [cookie, ...rest] = await createSessionCookies({ userId: 'u-1' }, { ...options, now: () => t });
    expect(rest).toEqual([]);
    expect(cookie).toMatch(new RegExp(`^${NAME}=Fe26\\.2\\*`));
    expect(cookie).toContain('; Max-Age=1295940;');
    expect(cookie).toContain('; Path=/; HttpOnly; Secure; SameSite=None');
    const expiration = Number(cookie!.split(';')[0]!.split('*')[5]);
    expect(expiration).toBe(t + 1_296_000 * 1000);
  });

  it('offers SameSite lax and strict, and refuses anything else', async () => {
    expect((await createSessionCookies({}, { ...options, sameSite: 'lax' }))[0]).toContain('SameSite=Lax');
    expect((await createSessionCookies({}, { ...options, sameSite: 'strict' }))[0]).toContain('SameSite=Strict');
    await expect(createSessionCookies({}, { ...options, sameSite: 'sometimes' as never })).rejects.toThrow('sameSite must be none, lax or strict');
  });

  it('refuses a password under 32 characters when configured, with the seed\'s error', async () => {
    const err = await createSessionCookies({}, { ...options, password: 'short' }).catch((e: unknown) => e);
    expect(isGatehouseSessionError(err) && err.reason).toBe('passwordTooShort');
  });

  it('reads back what it wrote; a tampered, expired or foreign cookie reads as signed out', async () => {
    const t = Date.now();
    const [cookie] = await createSessionCookies({ userId: 'u-1' }, options);
    const header = browserSends([cookie!]);
    expect(await readSession(`other=1; ${header}`, options)).toEqual({ userId: 'u-1' });
    expect(await readSession(header.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')), options)).toBeNull();
    expect(await readSession(header, { ...options, now: () => t + 1_296_000_000 + 61_000 })).toBeNull();
    expect(await readSession(header, { ...options, password: 'another-session-password-of-32-characters-or-more' })).toBeNull();
    expect(await readSession('', options)).toBeNull();
    expect(await readSession(undefined, options)).toBeNull();
  });

  it('a cookie @hapi/iron sealed is read, and @hapi/iron unseals the cookie we write', async () => {
    const sealed = await Iron.seal({ userId: 'u-2' }, PASSWORD, { ...Iron.defaults, ttl: 60_000 });
    expect(await readSession(`${NAME}=${sealed}`, options)).toEqual({ userId: 'u-2' });
    const [cookie] = await createSessionCookies({ userId: 'u-3' }, options);
    expect(await Iron.unseal(sealedSessionFrom(browserSends([cookie!]), NAME)!, PASSWORD, Iron.defaults)).toEqual({ userId: 'u-3' });
  });

  it('password rotation: a cookie sealed with the old password still reads; new ones use the newest', async () => {
    const OLD = 'the-old-password-that-was-32-characters-long';
    const [before] = await createSessionCookies({ userId: 'u-1' }, { ...options, password: { '1': OLD } });
    const rotated = { ...options, password: { '1': OLD, '2': PASSWORD } };
    expect(await readSession(browserSends([before!]), rotated)).toEqual({ userId: 'u-1' });
    const [after] = await createSessionCookies({ userId: 'u-1' }, rotated);
    expect(after!.split('*')[1]).toBe('2');
    expect(await readSession(browserSends([after!]), { ...options, password: { '2': PASSWORD } })).toEqual({ userId: 'u-1' });
  });
});

describe('session cookie over the 4,096-character cap', () => {
  it('is split across numbered cookies, each within the cap, and rejoined', async () => {
    const session = bigSession(10_000);
    const cookies = await createSessionCookies(session, options);
    expect(cookies.length).toBeGreaterThanOrEqual(3);
    cookies.forEach((c, i) => {
      expect(c.startsWith(`${NAME}.${i}=`)).toBe(true);
      expect(c.length).toBeLessThanOrEqual(COOKIE_SIZE_CAP);
    });
    expect(await readSession(browserSends(cookies), options)).toEqual(session);
  });

  it('is refused with the seed\'s error when chunking is off', async () => {
    const err = await createSessionCookies(bigSession(5000), { ...options, chunking: false }).catch((e: unknown) => e);
    expect(isGatehouseSessionError(err) && err.reason).toBe('cookieTooLong');
    expect((err as Error).message).toMatch(/^Cookie length is over 4096 characters/);
  });

  it('clears stale pieces when a session shrinks, and the single cookie when it grows', async () => {
    const big = browserSends(await createSessionCookies(bigSession(12_000), options));
    expect(jarOf(big).size).toBeGreaterThanOrEqual(4);
    const smaller = await createSessionCookies(bigSession(5000), options, big);
    const afterShrink = browserSends(smaller, jarOf(big));
    expect([...jarOf(afterShrink).keys()]).toEqual([`${NAME}.0`, `${NAME}.1`]);
    expect(await readSession(afterShrink, options)).toEqual(bigSession(5000));
    const single = await createSessionCookies({ userId: 'u-1' }, options, afterShrink);
    const afterSingle = browserSends(single, jarOf(afterShrink));
    expect([...jarOf(afterSingle).keys()]).toEqual([NAME]);
    expect(await readSession(afterSingle, options)).toEqual({ userId: 'u-1' });
    const grown = browserSends(await createSessionCookies(bigSession(9000), options, afterSingle), jarOf(afterSingle));
    expect(jarOf(grown).has(NAME)).toBe(false);
    expect(await readSession(grown, options)).toEqual(bigSession(9000));
  });

  it('a stale piece left behind makes the joined value fail its signature, never a different session', async () => {
    const three = browserSends(await createSessionCookies(bigSession(9000), options));
    const two = browserSends(await createSessionCookies(bigSession(5000), options));
    expect(await readSession(`${two}; ${NAME}.2=${jarOf(three).get(`${NAME}.2`)}`, options)).toBeNull();
  });

  it('round trips with @hapi/iron in the chunked form, both directions', async () => {
    const session = bigSession(10_000);
    const theirs = await Iron.seal(session, PASSWORD, { ...Iron.defaults, ttl: 60_000 });
    const pieces = splitSealedSession(theirs, options);
    expect(pieces.length).toBeGreaterThan(1);
    expect(await readSession(browserSends(pieces), options)).toEqual(session);
    const ours = browserSends(await createSessionCookies(session, options));
    expect(await Iron.unseal(sealedSessionFrom(ours, NAME)!, PASSWORD, Iron.defaults)).toEqual(session);
  });

  it('sign-out clears every cookie of the session the request carries', async () => {
    const big = browserSends(await createSessionCookies(bigSession(9000), options));
    const cleared = clearSessionCookies(`other=1; ${big}`, options);
    expect(cleared.map((c) => c.split('=')[0]).sort()).toEqual([...jarOf(big).keys()].sort());
    expect(cleared.every((c) => c.includes('Max-Age=0'))).toBe(true);
    expect(browserSends(cleared, jarOf(big))).toBe('');
  });
});
