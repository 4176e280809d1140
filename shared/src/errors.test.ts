import { describe, expect, it } from 'vitest';
import { createGatehouseError, isGatehouseError, toGatehouseError } from './errors';
import { isFlagOn } from './flags';

describe('errors', () => {
  it('recognises GatehouseErrors by kind, across bundles', () => {
    expect(isGatehouseError({ kind: 'GatehouseError', message: 'x', statusCode: 400 })).toBe(true);
    expect(isGatehouseError(new Error('x'))).toBe(false);
    expect(isGatehouseError(null)).toBe(false);
  });

  it('turns unknown errors into a generic 500', () => {
    expect(toGatehouseError(new Error('boom'))).toEqual({ kind: 'GatehouseError', message: "We're facing some difficulties, Please try again", statusCode: 500, errorCode: 'ER-ADMIN-PORTAL-GENERIC-ERROR' });
    const known = createGatehouseError('Invalid email or password', 401);
    expect(toGatehouseError(known)).toBe(known);
  });
});

describe('flags', () => {
  it('counts a flag as on only for the string on', () => {
    expect(isFlagOn({ a: 'on', b: 'true', c: 'ON' }, 'a')).toBe(true);
    expect(isFlagOn({ a: 'on', b: 'true', c: 'ON' }, 'b')).toBe(false);
    expect(isFlagOn({ c: 'ON' }, 'c')).toBe(false);
    expect(isFlagOn(undefined, 'a')).toBe(false);
  });
});
