import { describe, expect, it } from 'vitest';
import { DurationUnits } from './duration';
import { GENERAL_SPECS, SESSIONS_SPEC } from './policy-specs';
import english from '../../i18n/en/security';

describe('policy cards', () => {
  it('have every title, legend, label, hint, choice and unit in the catalog (keys the catalog check cannot see: built from names)', () => {
    const keys = [SESSIONS_SPEC, ...GENERAL_SPECS].flatMap((spec) => [
      spec.title,
      spec.description,
      spec.savedMessage,
      ...spec.groups.flatMap((group) => [group.legend, group.hint, ...group.fields.flatMap((field) => [field.label, field.hint, ...(field.kind === 'choice' ? field.choices.map((c) => c.label) : []), ...(field.kind === 'number' ? [field.suffix] : [])])]),
    ]);
    const missing = [...keys, ...DurationUnits.map((unit) => `security.unit.${unit}`)].filter((key): key is string => Boolean(key)).filter((key) => !(key in english));
    expect(missing).toEqual([]);
  });

  it('give every field a distinct name, so the host can hide or freeze each one', () => {
    const names = [SESSIONS_SPEC, ...GENERAL_SPECS].flatMap((spec) => spec.groups.flatMap((group) => group.fields.map((field) => field.name)));
    expect(new Set(names).size).toBe(names.length);
    expect(GENERAL_SPECS.map((spec) => spec.name)).toEqual(['mfa', 'lockout', 'passwordHistory', 'password', 'passwordRotation', 'captcha', 'userEmails']);
  });
});
