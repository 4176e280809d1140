import { describe, expect, it } from 'vitest';
import { prepareAttributes } from './attributes';

describe('prepareAttributes', () => {
  const jwt = { sub: 'user-1', email: 'ada@acme.io', email_verified: true, tenantId: 'tenant-1', roles: ['admin', 'billing'], act: { sub: 'op-1', meta: { level: 2 } }, empty: {} };

  it('maps the claims to frontegg.email, emailVerified, tenantId and userId (from sub)', () => {
    const attributes = prepareAttributes({ jwt });
    expect(attributes['frontegg.email']).toBe('ada@acme.io');
    expect(attributes['frontegg.emailVerified']).toBe(true);
    expect(attributes['frontegg.tenantId']).toBe('tenant-1');
    expect(attributes['frontegg.userId']).toBe('user-1');
  });
  it('takes the user id from the seed claim id when the token has no sub', () => {
    expect(prepareAttributes({ jwt: { id: 'user-2' } })['frontegg.userId']).toBe('user-2');
    expect(prepareAttributes({ jwt: { sub: 'user-1', id: 'user-2' } })['frontegg.userId']).toBe('user-1');
  });
  it('flattens nested claims under jwt. with dots, keeping arrays whole and by index', () => {
    const attributes = prepareAttributes({ jwt });
    expect(attributes['jwt.act.sub']).toBe('op-1');
    expect(attributes['jwt.act.meta.level']).toBe(2);
    expect(attributes['jwt.act']).toBeUndefined();
    expect(attributes['jwt.roles']).toEqual(['admin', 'billing']);
    expect(attributes['jwt.roles.1']).toBe('billing');
    expect(attributes['jwt.empty']).toEqual({});
  });
  it('keeps custom attributes as given, but never under the jwt. or frontegg. names', () => {
    const signedUp = new Date('2024-01-01T00:00:00Z');
    const attributes = prepareAttributes({ custom: { plan: 'gold', seats: 3, signedUp, 'frontegg.tenantId': 'other', 'jwt.superUser': true }, jwt: { tenantId: 'tenant-1' } });
    expect(attributes.plan).toBe('gold');
    expect(attributes.seats).toBe(3);
    expect(attributes.signedUp).toBe(signedUp);
    expect(attributes['frontegg.tenantId']).toBe('tenant-1');
    expect(attributes['jwt.superUser']).toBeUndefined();
  });
  it('sets no frontegg. attribute for a claim the token lacks', () => {
    expect(Object.keys(prepareAttributes({ custom: { a: 1 } }))).toEqual(['a']);
    expect(Object.keys(prepareAttributes())).toEqual([]);
  });
  it('treats __proto__ and constructor as plain names', () => {
    const custom = JSON.parse('{"__proto__": {"polluted": true}, "constructor": "c"}') as Record<string, string>;
    const attributes = prepareAttributes({ custom, jwt: JSON.parse('{"__proto__": {"x": 1}}') as Record<string, unknown> });
    expect(attributes.constructor).toBe('c');
    expect(Object.hasOwn(attributes, '__proto__')).toBe(true);
    expect(attributes['jwt.__proto__.x']).toBe(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
  it('stops flattening at depth 8 and keeps the deeper object whole', () => {
    let claim: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 10; i++) claim = { n: claim };
    const attributes = prepareAttributes({ jwt: { claim } });
    const deepest = Object.keys(attributes).find((key) => key.startsWith('jwt.claim'));
    expect(deepest?.split('.').length).toBe(10);
  });
});
