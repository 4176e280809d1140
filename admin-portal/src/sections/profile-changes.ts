/** The profile form's data rules: prefill from `me`, validate, and send only what changed. */
import { USERNAME_PATTERN } from '@gatehouse/shared/admin-paths';
import type { AuthUser, UpdateMeRequest } from '../contract';

export type EditableProfileField = 'name' | 'phoneNumber' | 'address' | 'jobTitle';
export type ProfileDraft = Record<EditableProfileField, string>;
export type ProfileErrors = Partial<Record<EditableProfileField, string>>;

/** Same shape the server enforces for phone numbers (wire/users UpdateMeRequest). */
const PHONE = /^\+?[0-9 ()\-]*$/;

export function draftFromUser(user: Pick<AuthUser, EditableProfileField>): ProfileDraft {
  return { name: user.name ?? '', phoneNumber: user.phoneNumber ?? '', address: user.address ?? '', jobTitle: user.jobTitle ?? '' };
}

/**
 * The fields of `draft` that differ from `user`, among `editable` ones. Values are trimmed; an
 * emptied optional field is sent as null (clears it).
 */
export function changedFields(user: Pick<AuthUser, EditableProfileField>, draft: ProfileDraft, editable: readonly EditableProfileField[]): UpdateMeRequest {
  const original = draftFromUser(user);
  const changes: UpdateMeRequest = {};
  for (const field of editable) {
    const value = draft[field].trim();
    if (value === original[field].trim()) continue;
    if (field === 'name') changes.name = value;
    else changes[field] = value === '' ? null : value;
  }
  return changes;
}

/** Field messages (catalog keys) for values the server would refuse. */
export function validateChanges(changes: UpdateMeRequest): ProfileErrors {
  const errors: ProfileErrors = {};
  if (changes.name !== undefined && changes.name.length === 0) errors.name = 'profile.error.nameMissing';
  if (typeof changes.phoneNumber === 'string' && !PHONE.test(changes.phoneNumber)) {
    errors.phoneNumber = 'profile.error.phoneInvalid';
  }
  return errors;
}

/** One call of a username save. */
export type UsernameStep = { kind: 'delete' } | { kind: 'create'; username: string };

/**
 * Seed 001 section 5 "Username save": unchanged is a no-op; a changed value deletes the old username
 * first, then creates the new one; an empty new value just removes it.
 */
export function usernameSteps(current: string | null, next: string): UsernameStep[] {
  const before = (current ?? '').trim();
  const after = next.trim();
  if (after === before) return [];
  const steps: UsernameStep[] = before ? [{ kind: 'delete' }] : [];
  if (after) steps.push({ kind: 'create', username: after });
  return steps;
}

/** The message (a catalog key) for a username the server would refuse (empty is fine: it removes the username). */
export function usernameProblem(next: string): string | null {
  const value = next.trim();
  if (!value || USERNAME_PATTERN.test(value)) return null;
  return 'profile.error.usernameInvalid';
}
