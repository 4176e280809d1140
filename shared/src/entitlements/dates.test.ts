import { describe, expect, it } from 'vitest';
import { readDate } from './dates';

const DAY = 86_400_000;

describe('readDate', () => {
  it('a date-only string is its whole UTC day', () => {
    const start = Date.UTC(2024, 1, 29);
    expect(readDate('2024-02-29')).toEqual({ from: start, to: start + DAY - 1 });
  });
  it('a date-time is one instant; offsets are applied and a missing zone is UTC', () => {
    const instant = Date.UTC(2024, 1, 29, 10, 30);
    expect(readDate('2024-02-29T10:30Z')).toEqual({ from: instant, to: instant });
    expect(readDate('2024-02-29T10:30')).toEqual({ from: instant, to: instant });
    expect(readDate('2024-02-29T12:30:00+02:00')?.from).toBe(instant);
    expect(readDate('2024-02-29T10:30:00.123456Z')?.from).toBe(instant + 123);
  });
  it('reads Date objects and epoch milliseconds as instants', () => {
    expect(readDate(new Date(5))).toEqual({ from: 5, to: 5 });
    expect(readDate(0)).toEqual({ from: 0, to: 0 });
    expect(readDate(-DAY)).toEqual({ from: -DAY, to: -DAY });
  });
  it('refuses impossible dates and clocks', () => {
    for (const value of ['2023-02-29', '2100-02-29', '2024-04-31', '2024-13-01', '2024-00-10', '2024-01-00', '0000-01-01', '2024-01-01T24:00Z', '2024-01-01T10:60Z', '2024-01-01T10:00:61Z']) {
      expect(readDate(value), value).toBeUndefined();
    }
    expect(readDate('2000-02-29')).toBeDefined();
  });
  it('refuses other spellings, other types, invalid Dates and numbers beyond the Date range', () => {
    for (const value of ['March 1, 2024', '2024/03/01', '20240301', '2024-03-01 10:00', '2024-03-01T10:00+0200', ' 2024-03-01', '', true, null, {}, [], NaN, Infinity, 8.64e15 + 1, new Date(NaN)]) {
      expect(readDate(value), String(value)).toBeUndefined();
    }
  });
});
