import { expect, it } from 'vitest';
import { signUpAndActivate, describeDialects } from '../../test/harness';
import { recentPasswordHashes, rememberPassword } from './password-history';

describeDialects('password history queries', (h) => {
  it('keeps only the newest `keep` hashes of a user, newest first, and leaves other users alone', async () => {
    const server = await h.start({ RATE_LIMIT_SIGNUP_PER_IP: '1000/60' });
    const [user, other] = [await signUpAndActivate(server), await signUpAndActivate(server)];
    // Activation remembered each one's first password.
    expect(await recentPasswordHashes(server.db, user.userId, 24)).toHaveLength(1);
    for (let i = 0; i < 26; i++) await rememberPassword(server.db, { id: `h-${user.userId}-${i}`, userId: user.userId, passwordHash: `hash-${i}`, now: Date.now() + 60_000 + i }, 24);
    const kept = await recentPasswordHashes(server.db, user.userId, 100);
    expect(kept).toEqual(Array.from({ length: 24 }, (_, i) => `hash-${25 - i}`));
    expect(await recentPasswordHashes(server.db, user.userId, 3)).toEqual(['hash-25', 'hash-24', 'hash-23']);
    expect(await recentPasswordHashes(server.db, user.userId, 0)).toEqual([]);
    expect(await recentPasswordHashes(server.db, other.userId, 24)).toHaveLength(1);
  });
});
