import { describe, expect, it } from 'vitest';
import { maskPhoneNumber, normalizePhoneNumber } from './phone';

describe('normalizePhoneNumber', () => {
  it('keeps E.164 and drops the separators people type', () => {
    expect(normalizePhoneNumber('+1 (415) 555-0100')).toBe('+14155550100');
    expect(normalizePhoneNumber(' +44 20 7946.0958 ')).toBe('+442079460958');
    expect(normalizePhoneNumber('0049 30 1234567')).toBe('+49301234567');
  });

  it('refuses numbers whose country cannot be known and anything that is not a number', () => {
    for (const bad of ['4155550100', '+0123456789', '+1234', '+1234567890123456', '+1 555 abc 0100', '', null, 42, '+'.padEnd(40, '1')]) {
      expect(normalizePhoneNumber(bad)).toBeNull();
    }
  });
});

describe('maskPhoneNumber', () => {
  it('shows only the country prefix and the last 4 digits', () => {
    expect(maskPhoneNumber('+14155550100')).toBe('+14•••••0100');
    expect(maskPhoneNumber('+14155550100').endsWith('0100')).toBe(true);
  });
});
