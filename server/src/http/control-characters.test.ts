import { AdminPaths, ApiPaths } from '@gatehouse/shared/wire';
import { describe, expect, it } from 'vitest';
import { callAs, tenantWithAdmin } from '../test/admin-helpers';
import { call, describeDialects, uniqueEmail } from '../test/harness';
import { controlCharacterField, formControlCharacterField } from './control-characters';

describe('controlCharacterField', () => {
  it('names the first field whose key or string holds a control character, at any depth', () => {
    expect(controlCharacterField({ name: 'Ada', tags: ['a', 'b\u0000'] })).toBe('tags.1');
    expect(controlCharacterField({ profile: { ['ke\u0007y']: 'x' } })).toBe('profile.ke\u0007y');
    expect(controlCharacterField('\u009b31m')).toBe('body');
  });

  it('lets text keep tabs and line breaks, and lets numbers, booleans and null through', () => {
    expect(controlCharacterField({ description: 'line one\r\nline two\tend', n: 1, ok: true, none: null })).toBeNull();
  });

  it('refuses a body nested deeper than any request of the API instead of walking it', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(controlCharacterField(deep)).not.toBeNull();
  });
});

describe('formControlCharacterField', () => {
  it('names the form field whose name or decoded value holds a control character, `name[]` values by position', () => {
    expect(formControlCharacterField(new URLSearchParams('grant_type=client_credentials&scope=a+b%09c'))).toBeNull();
    expect(formControlCharacterField(new URLSearchParams('email=a%40b.c&name=a%00b'))).toBe('name');
    expect(formControlCharacterField(new URLSearchParams('na%07me=x'))).toBe('na\u0007me');
    expect(formControlCharacterField(new URLSearchParams('tags[]=a&tags[]=b%1B'))).toBe('tags[].1');
    expect(formControlCharacterField(new URLSearchParams('note=one%0D%0Atwo'))).toBeNull();
  });
});

/**
 * Regression: PostgreSQL answered 500 to a NUL byte in any input (406 of its 415 5xx under fuzzing,
 * 16 operations of them without signing in), where SQLite answered 4xx. Now both refuse it with a
 * 400 naming the field, before any handler or SQL runs.
 */
describeDialects('NUL and control characters in input', (h) => {
  it('refuses a NUL in a query parameter without signing in: GET /metadata?entityName=%00', async () => {
    const server = await h.start();
    const res = await call(server, 'GET', `${ApiPaths.metadata}?entityName=%00`);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(['entityName: must not contain control characters']);
  });

  it('refuses a NUL inside a JSON string: POST /identity/resources/auth/v1/user with "a\\u0000b@example.com"', async () => {
    const server = await h.start();
    const res = await call(server, 'POST', ApiPaths.login, { rawBody: '{"email":"a\\u0000b@example.com","password":"correct horse battery"}' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(['email: must not contain control characters']);
  });

  it('refuses ?tenantId=%00 on an admin call, and a NUL in a path segment', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const scoped = await callAs(server, admin, 'GET', `${AdminPaths.rolesV1}?tenantId=%00`);
    expect(scoped.status).toBe(400);
    expect(scoped.body.errors).toEqual(['tenantId: must not contain control characters']);
    const inPath = await callAs(server, admin, 'DELETE', `${AdminPaths.rolesV1}/ab%00cd`);
    expect(inPath.status).toBe(400);
    expect(inPath.body.errors).toEqual(['path: must not contain control characters']);
    // A C1 control (NEL, U+0085) in a path segment, and one in a query value.
    expect((await callAs(server, admin, 'DELETE', `${AdminPaths.rolesV1}/ab%C2%85cd`)).body.errors).toEqual(['path: must not contain control characters']);
    expect((await callAs(server, admin, 'GET', `${AdminPaths.rolesV1}?tenantId=a%C2%85`)).body.errors).toEqual(['tenantId: must not contain control characters']);
    // Without a percent sign nothing is decoded: a plus sign is a space, and the call goes through.
    expect((await callAs(server, admin, 'GET', `${AdminPaths.rolesV1}?search=a+b`)).status).toBe(200);
  });

  it('refuses escape sequences in a name, and keeps a multi-line description', async () => {
    const server = await h.start();
    const admin = await tenantWithAdmin(server);
    const forged = await callAs(server, admin, 'POST', AdminPaths.rolesV1, { body: { key: 'auditor', name: 'Auditor\u001b[2J', description: 'x' } });
    expect(forged.status).toBe(400);
    expect(forged.body.errors).toEqual(['name: must not contain control characters']);
    const multiLine = await callAs(server, admin, 'POST', AdminPaths.rolesV1, { body: { key: 'auditor', name: 'Auditor', description: 'Reads audits.\nNothing else.' } });
    expect(multiLine.status).toBe(201);
  });

  it('refuses a NUL in a form body, and still answers malformed JSON with the validator\'s 400', async () => {
    const server = await h.start();
    const form = await call(server, 'POST', ApiPaths.signUp, { rawBody: `email=${encodeURIComponent(uniqueEmail())}&name=a%00b`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(400);
    expect(form.body.errors).toEqual(['name: must not contain control characters']);
    const malformed = await call(server, 'POST', ApiPaths.signUp, { rawBody: '{"email":' });
    expect(malformed.status).toBe(400);
  });
});
