import { describe, expect, it } from 'vitest';
import type { PolicySessionRow } from '../../db/queries/sessions';
import { sessionsPolicy } from '../../test/sessions-policy-helpers';
import { breachesOf } from './session-policy';

const NOW = 10_000_000;
/** A session signed in and last refreshed `ageS` and `idleS` seconds before NOW. */
const session = (id: string, user: string, ageS: number, idleS = 0, counted = true): PolicySessionRow => ({
  id,
  user_id: user,
  created_at: NOW - ageS * 1000,
  auth_time: NOW - ageS * 1000,
  last_used_at: NOW - idleS * 1000,
  counted,
});
const ids = (set: Set<string>) => [...set].sort();

describe('breachesOf: which live sessions a sessions policy ends now', () => {
  it('ends a session idle for exactly the timeout or longer, and keeps one a millisecond younger', () => {
    const kept = { ...session('kept', 'u', 700, 0), last_used_at: NOW - 600_000 + 1 };
    const b = breachesOf(sessionsPolicy({ idle: 600 }), [session('a', 'u', 700, 600), session('b', 'u', 900, 601), kept], NOW);
    expect(ids(b.idle)).toEqual(['a', 'b']);
    expect(b.relogin.size + b.concurrent.size).toBe(0);
  });

  it('forced re-login counts from the sign-in (auth_time), however recent the last refresh', () => {
    const b = breachesOf(sessionsPolicy({ relogin: 3600 }), [session('old', 'u', 3600, 0), session('young', 'u', 3599, 0)], NOW);
    expect(ids(b.relogin)).toEqual(['old']);
  });

  it("keeps each user's newest sessions up to the maximum (the list is newest first), counting users apart", () => {
    const sessions = [session('u1', 'u', 10), session('v1', 'v', 15), session('u2', 'u', 20), session('u3', 'u', 30), session('v2', 'v', 40), session('u4', 'u', 50)];
    const b = breachesOf(sessionsPolicy({ max: 2 }), sessions, NOW);
    expect(ids(b.concurrent)).toEqual(['u3', 'u4']);
  });

  it('neither counts nor ends sessions that are not sign-ins of the user (grants, impersonations) under the maximum', () => {
    const sessions = [session('grant', 'u', 5, 0, false), session('u1', 'u', 10), session('u2', 'u', 20)];
    expect(breachesOf(sessionsPolicy({ max: 2 }), sessions, NOW).concurrent.size).toBe(0);
  });

  it('a session ended by idle time or age takes no place under the maximum', () => {
    const sessions = [session('u1', 'u', 10), session('idle', 'u', 20, 2000), session('u2', 'u', 30)];
    const b = breachesOf(sessionsPolicy({ idle: 600, max: 2 }), sessions, NOW);
    expect(ids(b.idle)).toEqual(['idle']);
    expect(b.concurrent.size).toBe(0);
  });

  it('ends nothing when every setting is off', () => {
    const b = breachesOf(sessionsPolicy(), [session('a', 'u', 10 ** 6, 10 ** 6), session('b', 'u', 10 ** 6, 10 ** 6)], NOW);
    expect(b.idle.size + b.relogin.size + b.concurrent.size).toBe(0);
  });
});
