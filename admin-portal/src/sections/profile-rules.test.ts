import { describe, expect, it } from 'vitest';
import { changedFields, validateChanges } from './profile-changes';
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
