import { describe, expect, it } from 'vitest';
import { majorToMinor, MAX_PRICE_MINOR, minorToMajorText } from './price';

describe('plan price conversion', () => {
  it('turns typed major units into minor units exactly, with no floating-point drift', () => {
    expect(majorToMinor('100')).toBe(10_000);
    expect(majorToMinor('0.29')).toBe(29);
    expect(majorToMinor('12.5')).toBe(1250);
    expect(majorToMinor(' 99.99 ')).toBe(9999);
    expect(majorToMinor('1,299.00')).toBe(129_900);
    expect(majorToMinor('0')).toBe(0);
  });

  it('refuses what is not a price: negative, more than two decimals, letters, empty, above the server ceiling', () => {
    for (const text of ['', '-1', '1.234', 'ten', '1e3', '12.', '.5', '1,2']) expect(majorToMinor(text), text).toBeNull();
    expect(majorToMinor('1000000')).toBe(MAX_PRICE_MINOR);
    expect(majorToMinor('1000000.01')).toBeNull();
  });

  it('writes minor units back as the operator typed them', () => {
    expect(minorToMajorText(10_000)).toBe('100');
    expect(minorToMajorText(1250)).toBe('12.50');
    expect(minorToMajorText(29)).toBe('0.29');
    for (const minor of [0, 1, 99, 100, 12345, MAX_PRICE_MINOR]) expect(majorToMinor(minorToMajorText(minor))).toBe(minor);
  });
});
