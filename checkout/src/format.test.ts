import { describe, expect, it } from 'vitest';
import { formatMinorUnits } from './format';

describe('formatMinorUnits', () => {
  it('divides by the currency own decimals: 10000 usd is 100.00, 500 jpy stays 500', () => {
    expect(formatMinorUnits(10000, 'usd', 'en')).toBe('$100.00');
    expect(formatMinorUnits(0, 'usd', 'en')).toBe('$0.00');
    expect(formatMinorUnits(500, 'jpy', 'en')).toBe('¥500');
    expect(formatMinorUnits(1999, 'eur', 'de')).toBe('19,99\u00a0€');
  });
});
