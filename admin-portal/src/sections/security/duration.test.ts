import { describe, expect, it } from 'vitest';
import { durationFromSeconds, secondsOf } from './duration';

describe('durations in the units an admin thinks in', () => {
  it('shows seconds in the largest unit that holds them exactly', () => {
    expect(durationFromSeconds(1_800, ['minutes', 'hours', 'days'])).toEqual({ amount: '30', unit: 'minutes' });
    expect(durationFromSeconds(7_200, ['minutes', 'hours', 'days'])).toEqual({ amount: '2', unit: 'hours' });
    expect(durationFromSeconds(30 * 86_400, ['minutes', 'hours', 'days'])).toEqual({ amount: '30', unit: 'days' });
  });

  it('rounds to the smallest offered unit when none holds the value exactly', () => {
    expect(durationFromSeconds(90, ['minutes', 'hours'])).toEqual({ amount: '2', unit: 'minutes' });
    expect(durationFromSeconds(86_400 + 3_600, ['days'])).toEqual({ amount: '1', unit: 'days' });
  });

  it('turns an amount and unit back into seconds, and refuses what is not a whole number', () => {
    expect(secondsOf({ amount: '45', unit: 'minutes' })).toBe(2_700);
    expect(secondsOf({ amount: ' 3 ', unit: 'days' })).toBe(259_200);
    expect(secondsOf({ amount: '1.5', unit: 'hours' })).toBeNull();
    expect(secondsOf({ amount: '', unit: 'hours' })).toBeNull();
    expect(secondsOf({ amount: '-1', unit: 'hours' })).toBeNull();
  });
});
