import { describe, expect, it } from 'vitest';
import { changedFields, usernameProblem, usernameSteps, validateChanges } from './profile-changes';
import { IMAGE_SIZE_MESSAGE, IMAGE_TYPE_MESSAGE, isUploadableImage, MAX_PROFILE_IMAGE_BYTES, profileImageProblem } from './profile-image';

const user = { name: 'Ada', phoneNumber: null, address: 'Old street', jobTitle: 'Analyst' };
const all = ['name', 'phoneNumber', 'address', 'jobTitle'] as const;

describe('profile changes', () => {
  it('sends only changed, editable fields; emptied optional fields become null', () => {
    expect(changedFields(user, { name: 'Ada', phoneNumber: '', address: '', jobTitle: ' Analyst ' }, all)).toEqual({ address: null });
    expect(changedFields(user, { name: 'Ada B', phoneNumber: '+1 555', address: 'Old street', jobTitle: 'Analyst' }, ['phoneNumber'])).toEqual({ phoneNumber: '+1 555' });
  });

  it('refuses an empty name and a malformed phone number', () => {
    expect(validateChanges({ name: '', phoneNumber: 'abc' })).toEqual({ name: expect.any(String), phoneNumber: expect.any(String) });
    expect(validateChanges({ name: 'x', phoneNumber: '+1 (555) 010-0000' })).toEqual({});
  });
});

describe('profile image rules', () => {
  it('accepts png, jpeg, gif, webp up to 1 MiB', () => {
    expect(profileImageProblem({ type: 'image/webp', size: MAX_PROFILE_IMAGE_BYTES })).toBeNull();
    expect(profileImageProblem({ type: 'image/png', size: MAX_PROFILE_IMAGE_BYTES + 1 })).toBe(IMAGE_SIZE_MESSAGE);
    expect(profileImageProblem({ type: 'image/svg+xml', size: 10 })).toBe(IMAGE_TYPE_MESSAGE);
  });

  it('uploads only a base64 image data URL different from the current picture', () => {
    const url = 'data:image/png;base64,iVBORw0KGgo=';
    expect(isUploadableImage(url, null)).toBe(true);
    expect(isUploadableImage(url, url)).toBe(false);
    expect(isUploadableImage('https://cdn.example/p.png', null)).toBe(false);
    expect(isUploadableImage('data:image/svg+xml;base64,PHN2Zz4=', null)).toBe(false);
    expect(isUploadableImage(null, null)).toBe(false);
  });
});

describe('username save (seed 001 section 5)', () => {
  it('unchanged is a no-op, whitespace included', () => {
    expect(usernameSteps('ada', 'ada')).toEqual([]);
    expect(usernameSteps('ada', ' ada ')).toEqual([]);
    expect(usernameSteps(null, '')).toEqual([]);
    expect(usernameSteps(null, '   ')).toEqual([]);
  });

  it('a changed value deletes the old username first, then creates the new one', () => {
    expect(usernameSteps('ada', 'ada.l')).toEqual([{ kind: 'delete' }, { kind: 'create', username: 'ada.l' }]);
    expect(usernameSteps(null, ' ada ')).toEqual([{ kind: 'create', username: 'ada' }]);
  });

  it('an empty new value just removes it', () => {
    expect(usernameSteps('ada', '')).toEqual([{ kind: 'delete' }]);
    expect(usernameSteps('ada', '  ')).toEqual([{ kind: 'delete' }]);
  });

  it('refuses what the server would: too short, spaces, an email address; empty is allowed', () => {
    expect(usernameProblem('ab')).toEqual(expect.any(String));
    expect(usernameProblem('ada lovelace')).toEqual(expect.any(String));
    expect(usernameProblem('ada@example.com')).toEqual(expect.any(String));
    expect(usernameProblem('ada_l.1-x')).toBeNull();
    expect(usernameProblem('')).toBeNull();
  });
});
