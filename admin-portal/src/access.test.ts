import { describe, expect, it } from 'vitest';
import { passesGate } from './access';

const keys = (...list: string[]) => list.map((key) => ({ key }));

describe('passesGate (seed 001 sections 5 and 6)', () => {
  it('lets a super user through any requirement', () => {
    expect(passesGate({ superUser: true }, { permissions: ['fe.secure.write.users'], roles: ['Admin'] })).toBe(true);
  });

  it('needs every required permission and every required role', () => {
    const subject = { permissions: keys('fe.secure.read.users', 'fe.secure.write.users'), roles: keys('Admin') };
    expect(passesGate(subject, { permissions: ['fe.secure.read.users', 'fe.secure.write.users'], roles: ['Admin'] })).toBe(true);
    expect(passesGate(subject, { permissions: ['fe.secure.read.users', 'fe.secure.read.roles'] })).toBe(false);
    expect(passesGate(subject, { roles: ['Admin', 'Support'] })).toBe(false);
  });

  it('fails a user with no permissions or roles when they are required', () => {
    expect(passesGate({}, { permissions: ['fe.secure.read.users'] })).toBe(false);
    expect(passesGate({ permissions: [], roles: [] }, { roles: ['Admin'] })).toBe(false);
  });

  it('passes an empty requirement for a signed-in user, never for no user', () => {
    expect(passesGate({}, {})).toBe(true);
    expect(passesGate(null, {})).toBe(false);
  });

  it('matches wildcard permission keys', () => {
    expect(passesGate({ permissions: keys('fe.secure.*') }, { permissions: ['fe.secure.read.audits'] })).toBe(true);
  });
});
